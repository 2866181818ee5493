import { Injectable } from '@nestjs/common';
import {
  ExistingFamilyNames,
  hasValidFirstLine,
  parseServiceNdjson,
  planServiceImport,
  preflightErrorText,
  preflightServiceNdjson,
  PreflightResult,
  ParsedNdjson,
  ParsedRow,
  serviceRowLines,
  withoutLines,
} from '@hearth/domain/import-formats';
import { familyToday } from '@hearth/domain/budget-math';
import { ApiError } from '../common/api-error';
import type { Transaction } from '../database/transactions';
import type { Import } from './import.entity';
import { maxRowCount } from './import-limits';
import { assertSkippable } from './skip-rows';
import { ImportsRepository } from './imports.repository';
import { targetId } from './publishing/service-import.publisher';
import { ServiceImportRepository } from './service-import.repository';

// ServiceImport (the service's own NDJSON, docs/api/service-ndjson.md) around the generic import
// pipeline: rows are stored in publish order at upload, and the strict preflight runs before anything is queued.

/**
 * The file a ServiceImport publishes: the whole file without the lines of its skipped rows, and, when rows are
 * skipped, the file line of each row (serviceRowLines).
 */
function keptNdjson(imp: Import, all: ParsedNdjson): { parsed: ParsedNdjson; rowLines: number[] | null } {
  if (!imp.skipRows?.length) return { parsed: all, rowLines: null };
  const rowLines = serviceRowLines(all);
  return { parsed: withoutLines(all, new Set(imp.skipRows.map((n) => rowLines[n - 1]))), rowLines };
}

const TAXONOMY = new Set(['Category', 'Tag', 'Merchant']);
const UNIQUE_VIOLATION = '23505';

/** ServiceImport's steps of the import use cases: storing its rows at upload, its preflight, its collisions at publish. */
@Injectable()
export class ServiceImports {
  constructor(
    private readonly serviceImports: ServiceImportRepository,
    private readonly imports: ImportsRepository,
  ) {}

  /**
   * Upload (and PATCH of skip_rows): checks the first line, stores the records as import rows in dependency order
   * (row number = publish position; the file's line is kept in the values) and the expected counts. Lines with
   * problems are stored after them with their errors, so GET /imports/{id}/rows shows what preflight will say. Rows
   * in the import's skip_rows are left out, as if their lines were blank, and the other rows keep their numbers. A
   * file over the row limit keeps only its counts: it cannot be published anyway. Returns how many rows the file
   * has, skipped ones included (0 when none is stored).
   */
  async storeRows(tx: Transaction, imp: Import, text: string, configuredMaxRows: number): Promise<number> {
    if (!hasValidFirstLine(text)) {
      throw new ApiError(422, 'invalid_ndjson', 'Invalid NDJSON content: the first line must be a JSON object with "type" and "data" keys.');
    }
    const all = parseServiceNdjson(text);
    const stored = all.rowsCount <= maxRowCount(imp.type, configuredMaxRows);
    // Every line is a record of the plan or a line with problems, each a row.
    const sourceRows = stored ? all.rowsCount : 0;
    assertSkippable(imp.skipRows ?? [], sourceRows);
    // With rows skipped, the others keep the numbers the whole file gives them; without, the numbers run on as stored.
    const { parsed, rowLines } = keptNdjson(imp, all);
    const numberOf = new Map(rowLines?.map((line, i) => [line, i + 1]));
    const rowNumber = (line: number, next: number) => numberOf.get(line) ?? next;
    const { currency, timezone } = await this.serviceImports.familyCurrencyAndTimezone(imp.familyId, tx);
    // Opening balances without a date go two years before the family's today, as at publish for AccountImport.
    const today = familyToday(timezone);
    const rows: ParsedRow[] = [];
    if (stored) {
      for (const record of planServiceImport(parsed, { familyCurrency: currency, today })) {
        const values = { line: record.line, type: record.type, currency: record.currency, anchor_date: record.anchorDate ?? null, data: record.data };
        rows.push({ sourceRowNumber: rowNumber(record.line, rows.length + 1), values, errors: [] });
      }
      for (const bad of parsed.lines.filter((l) => l.errors.length)) {
        rows.push({ sourceRowNumber: rowNumber(bad.line, rows.length + 1), values: { line: bad.line, type: bad.type }, errors: bad.errors.map((e) => e.message) });
      }
      if (rowLines) rows.sort((a, b) => a.sourceRowNumber - b.sourceRowNumber);
    }
    await this.imports.replaceRows(imp.familyId, imp.id, rows, tx);
    // The family currency the plan gave records naming none (nor their account): publish plans again if it changed.
    await this.serviceImports.storePlan(imp.familyId, imp.id, { rowsCount: parsed.rowsCount, expectedRecordCounts: parsed.expectedRecordCounts, currency }, tx);
    return sourceRows;
  }

  /**
   * Publish gate after the row limit: a file with no supported record is not publishable
   * (stays pending); a failed preflight marks the import failed with Sure's error text and answers 422 with the lines.
   */
  async assertPublishable(tx: Transaction, imp: Import, configuredMaxRows: number): Promise<void> {
    if (imp.status !== 'pending' && imp.status !== 'failed') return; // the caller refuses other states
    const supported = Object.values(imp.expectedRecordCounts ?? {}).reduce((sum, n) => sum + n, 0);
    if (imp.rowsCount > 0 && supported === 0) {
      throw new ApiError(422, 'not_publishable', 'Import was uploaded but has no publishable records.', { import_id: imp.id });
    }
    const text = (await this.imports.rawContent(imp.familyId, imp.id, tx)) ?? '';
    // Records naming no currency publish in the family's: planned again when it changed since upload, unless rows
    // of the plan are published already (a resumed publish finishes the plan it started).
    const currency = await this.serviceImports.familyCurrency(imp.familyId, tx);
    let planned = typeof imp.columnMappings?.planned_currency === 'string' ? imp.columnMappings.planned_currency : null;
    if (planned !== currency && imp.publishedThroughRow === 0) {
      await this.storeRows(tx, imp, text, configuredMaxRows);
      planned = currency;
    }
    const result = await this.preflight(tx, imp, text, planned ?? currency);
    if (result.valid) return;
    const error = preflightErrorText(result.errors);
    await this.imports.transition(imp.familyId, imp.id, ['pending', 'failed'], 'failed', { error }, tx);
    throw new ApiError(422, 'preflight_failed', 'Import was uploaded but did not pass NDJSON preflight.', {
      import_id: imp.id,
      errors: error.split('\n').map((l) => l.trim()).filter(Boolean),
    });
  }

  /**
   * What a ServiceImport chunk that broke a unique name or budget period tells its user: the family gained a record of
   * that name after this import was checked (the same file published twice at once, say). The preflight's collision
   * lines, or null for any other failure.
   */
  async collisionsSinceCheck(imp: Import, error: unknown, tx?: Transaction): Promise<string | null> {
    if ((error as { code?: string } | null)?.code !== UNIQUE_VIOLATION) return null;
    const row = await this.serviceImports.storedFileAndPlannedCurrency(imp.familyId, imp.id, tx);
    const { errors } = await this.preflight(tx, imp, row?.text ?? '', row?.currency as string);
    const collisions = errors.filter((e) => e.code.startsWith('existing_'));
    if (!collisions.length) return null;
    return ['Publishing stopped: the family gained records of these names after this import was checked.', ...collisions.map((e) => e.message)].join('\n');
  }

  /** Amounts are checked in the currency each record publishes in: the plan's family currency when neither it nor its account names one. */
  private async preflight(tx: Transaction | undefined, imp: Import, text: string, familyCurrency: string): Promise<PreflightResult> {
    const { parsed } = keptNdjson(imp, parseServiceNdjson(text));
    return preflightServiceNdjson(parsed, await this.existingNames(tx, imp, parsed), { familyCurrency });
  }

  /**
   * The family's names and budget periods among those the file would create (family-scoped, one query each). Records
   * this import already created (a publish resumed after a failure) are not collisions.
   */
  private async existingNames(tx: Transaction | undefined, imp: Import, parsed: ParsedNdjson): Promise<ExistingFamilyNames> {
    const names = new Set<string>();
    const ownBudgets: string[] = [];
    for (const l of parsed.lines) {
      if (TAXONOMY.has(l.type ?? '') && typeof l.data?.name === 'string') names.add(l.data.name.trim());
      const id = typeof l.data?.id === 'string' ? l.data.id.trim() : typeof l.data?.id === 'number' ? String(l.data.id) : '';
      if (l.type === 'Budget' && id) ownBudgets.push(targetId(imp.id, 'budgets', id));
    }
    const found = await this.serviceImports.familyNames(imp.familyId, imp.id, [...names], tx);
    const pick = (rows: Array<{ name: string }>) => new Set<string>(rows.map((r) => r.name));
    const periods = await this.serviceImports.familyBudgetPeriods(imp.familyId, ownBudgets, tx);
    return { categories: pick(found.categories), tags: pick(found.tags), merchants: pick(found.merchants), budgetPeriods: new Set(periods) };
  }
}
