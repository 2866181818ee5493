import type { Import } from './import.entity';
import type { ImportDetailDto, NotPublishableReasonDto, StatusDetailDto } from './import.dto';
import type { RowStats } from './imports.repository';
import { maxRowCount } from './import-limits';
import { importFormat } from './formats/registry';
import { presentConfiguration } from './import-configuration';

const TERMINAL = new Set(['complete', 'failed', 'revert_failed']);
const PUBLISHABLE_FROM = new Set(['pending', 'failed']);
const REVERTABLE_FROM = new Set(['complete', 'revert_failed']);

/** Complete or revert_failed; or failed after committing chunks, whose rows stay until published again or reverted. */
export const isRevertable = (imp: Pick<Import, 'status' | 'publishedThroughRow'>) =>
  REVERTABLE_FROM.has(imp.status) || (imp.status === 'failed' && imp.publishedThroughRow > 0);

export type StatusConflict = 'import_publishing' | 'import_reverting' | 'import_published';

/** The status that keeps an import from being published: on the queue, or published (complete, or its revert failed). */
export function statusConflict(imp: Pick<Import, 'status'>): StatusConflict | null {
  if (imp.status === 'importing') return 'import_publishing';
  if (imp.status === 'reverting') return 'import_reverting';
  return PUBLISHABLE_FROM.has(imp.status) ? null : 'import_published';
}

const STATUS_REASONS: Record<StatusConflict, string> = {
  import_publishing: 'The import is publishing.',
  import_reverting: 'The import is being reverted.',
  import_published: 'The import is published: revert it to change it or publish it again.',
};

const counted = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * The first thing that keeps the import from being published, said so the user knows what to do; null when it can
 * be. status_detail.publishable is exactly "no reason".
 */
export function notPublishableReason(imp: Import, stats: RowStats, maxRows: number): NotPublishableReasonDto | null {
  const status = statusConflict(imp);
  if (status) return { code: status, message: STATUS_REASONS[status] };
  if (imp.contentBytes === 0 || stats.rowsCount === 0) return { code: 'no_rows', message: 'The import has no rows: upload a file with a header and at least one row.' };
  const limit = maxRowCount(imp.type, maxRows);
  if (stats.rowsCount > limit) {
    const setting = importFormat(imp.type).rowLimit.reason ?? "the server's IMPORT_MAX_ROWS setting";
    return {
      code: 'max_row_count_exceeded',
      message: `The import has ${counted(stats.rowsCount, 'row', 'rows')}; at most ${limit.toLocaleString('en-US')} can be published at once (${setting}). Split the file into parts of at most ${limit.toLocaleString('en-US')} rows and import each.`,
    };
  }
  if (importFormat(imp.type).facts.account === 'required' && imp.accountId === null) return { code: 'account_required', message: 'Choose the account to import into: this file names no account.' };
  if (stats.invalidRowsCount > 0) {
    return { code: 'rows_with_errors', message: `${counted(stats.invalidRowsCount, 'row has', 'rows have')} errors: fix the configuration, or skip those rows.` };
  }
  if (stats.unassignedMappingsCount > 0) {
    return { code: 'unassigned_mappings', message: `${counted(stats.unassignedMappingsCount, 'value is', 'values are')} not mapped: choose an account or account type for each (PATCH mappings).` };
  }
  return null;
}

export function statusDetail(imp: Import, stats: RowStats, maxRows: number): StatusDetailDto {
  const uploaded = imp.contentBytes > 0;
  const configured = uploaded && stats.rowsCount > 0;
  return {
    uploaded,
    configured,
    terminal: TERMINAL.has(imp.status),
    cleaned: configured && stats.invalidRowsCount === 0,
    publishable: notPublishableReason(imp, stats, maxRows) === null,
    revertable: isRevertable(imp),
  };
}

/** ImportDetail (docs/api/importing.md#the-import-resource). */
export function presentImport(imp: Import, stats: RowStats, maxRows: number, accountName: string | null): ImportDetailDto {
  const detail: ImportDetailDto = {
    id: imp.id,
    type: imp.type,
    status: imp.status,
    created_at: imp.createdAt.toISOString(),
    updated_at: imp.updatedAt.toISOString(),
    account_id: imp.accountId,
    error: imp.error,
    status_detail: statusDetail(imp, stats, maxRows),
    configuration: presentConfiguration(imp),
    stats: {
      rows_count: stats.rowsCount,
      valid_rows_count: stats.validRowsCount,
      invalid_rows_count: stats.invalidRowsCount,
      mappings_count: stats.mappingsCount,
      unassigned_mappings_count: stats.unassignedMappingsCount,
    },
    skip_rows: imp.skipRows ?? [],
    warnings: imp.warnings ?? [],
    file_name: imp.fileName,
    account_name: accountName,
    first_row_date: imp.firstRowDate,
    last_row_date: imp.lastRowDate,
    not_publishable_reason: notPublishableReason(imp, stats, maxRows),
  };
  // A format's own fields (the NDJSON's verification).
  return { ...detail, ...importFormat(imp.type).hooks?.detail?.(imp) };
}

/** The pagination block of list responses (docs/api/errors-and-lists.md#lists). A page past the end is empty; its prev_page is the last page. */
export function pageMeta(page: number, perPage: number, total: number) {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  return {
    current_page: page,
    next_page: page < totalPages ? page + 1 : null,
    prev_page: page > 1 ? Math.min(page - 1, totalPages) : null,
    total_pages: totalPages,
    total_count: total,
    per_page: perPage,
  };
}
