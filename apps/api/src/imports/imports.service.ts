import { randomUUID } from 'node:crypto';
import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { DEFAULT_IMPORT_TYPE, IMPORT_TYPES, ImportType, isImportType, unaliasImportType } from '@hearth/contracts';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { singleParam } from '../common/query-params';
import { enqueueWithin } from '../jobs/enqueue';
import { LOGGER } from '../common/logger';
import { currentRequest } from '../common/request-context';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Transaction, Transactions } from '../database/transactions';
import { assertUsableFamilyCurrency } from '../common/currency-field';
import { CreateImportDto, ImportDetailDto, ImportRowsQuery, UpdateImportDto } from './import.dto';
import { Import } from './import.entity';
import { configurationChanges } from './import-configuration';
import { maxRowCount } from './import-limits';
import { ImportContent, readUpload, UploadedFile } from './import-content';
import { ImportMappings, MappingDraft, withMappingErrors } from './import-mappings';
import { shownValue, statedBalances } from '@hearth/domain/import-formats';
import { familyToday } from '@hearth/domain/budget-math';
import { isRevertable, pageMeta, presentImport, StatusConflict, statusConflict, statusDetail } from './import.presenter';
import { IMPORTS_QUEUE, PublishJob } from './imports.queue';
import { ImportPublisher } from './publishing/import-publisher';
import { ImportsRepository } from './imports.repository';
import { IdempotencyClaim, ImportIdempotencyKeys, KeyTaken, ReplayedAnswer } from './import-idempotency';
import { closedAccountMessage } from '../ledger/closed-account';
import { importFormat } from './formats/registry';
import { FormatServices } from './formats/format-services';
import { assertSkippable, normalizedSkipRows } from './skip-rows';

/** About 30 s of retries (1, 2, 4, 8, 16 s): longer than a database restart or failover. */
const JOB_RETRIES = { attempts: 6, backoff: { type: 'exponential', delay: 1000 } } as const;
/**
 * Rows stored for inspection even when over the publish limit (IMPORT_MAX_ROWS); a file with more (10 MB of
 * one-character lines is millions) is refused before anything is stored.
 */
const STORED_ROWS_CAP = 100_000;

const PUBLISH_CONFLICTS: Record<StatusConflict, string> = {
  import_publishing: 'This import is already publishing: wait for it to finish.',
  import_reverting: 'This import is being reverted: publish it again once the revert has finished.',
  import_published: 'This import is published already: revert it first to publish it again.',
};
const DISCARD_CONFLICTS: Record<StatusConflict, string> = {
  import_publishing: 'This import is publishing: once it has finished, revert it first, then discard it.',
  import_reverting: 'This import is being reverted: discard it once the revert has finished.',
  import_published: 'This import has published rows: revert it first, then discard it.',
};

/** `errors=only`: just the rows with errors. Empty, as a form's blank choice sends it, is no filter (as on the list). */
function errorsParam(value: unknown): boolean {
  const text = singleParam('errors', value);
  if (text === undefined || text === '') return false;
  if (text === 'only') return true;
  throw ApiError.validation(['errors must be only (just the rows with errors), or left out for every row']);
}

export function resolveImportType(raw: string | undefined): ImportType {
  const type = raw === undefined || raw === '' ? DEFAULT_IMPORT_TYPE : unaliasImportType(raw);
  if (!isImportType(type)) {
    throw new ApiError(422, 'invalid_import_type', `Unknown import type '${shownValue(type)}'. Expected one of: ${IMPORT_TYPES.join(', ')}`);
  }
  return type;
}

function validateConfiguration(imp: Import): void {
  if (imp.amountTypeStrategy === 'custom_column' && !imp.amountTypeInflowValue?.trim()) {
    throw ApiError.validation(['amount_type_inflow_value is required when amount_type_strategy is custom_column']);
  }
  if (imp.hasHeader === false && imp.headerRow) {
    throw ApiError.validation(['header_row cannot be given when has_header is false (the file has no header line)']);
  }
  if (imp.amountColLabel && (imp.outflowColLabel || imp.inflowColLabel)) {
    throw ApiError.validation(['amount_col_label cannot be given with outflow_col_label or inflow_col_label: name one signed amount column, or the money-out and money-in columns']);
  }
}

/** Use cases of the import API: create, reconfigure, publish, revert. The job processor does the publishing. */
@Injectable()
export class ImportsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly imports: ImportsRepository,
    private readonly publisher: ImportPublisher,
    private readonly audit: AuditService,
    @InjectQueue(IMPORTS_QUEUE) private readonly queue: Queue<PublishJob>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly idempotencyKeys: ImportIdempotencyKeys,
    private readonly formatServices: FormatServices,
    private readonly mappings: ImportMappings,
  ) {
    // An outage answers publish requests with publish_failed; the connection's own retries are only logged.
    queue.on('error', (err) => logger.warn({ err }, 'imports queue connection error'));
  }

  /**
   * create, under an Idempotency-Key: the first request with the key stores the import and its answer is kept; a
   * repeat within 24 hours gets that answer (`replayed`), or, when the first never answered (its process stopped),
   * the import as it stands now. Answers that stored no import (bad input) are not kept: a repeat gets the same again.
   */
  async createOnce(principal: Principal, dto: CreateImportDto, file: UploadedFile | undefined, claim: IdempotencyClaim): Promise<ReplayedAnswer & { replayed: boolean }> {
    try {
      const answer = { status: 201, body: { data: await this.create(principal, dto, file, claim) } };
      await this.idempotencyKeys.record(principal.familyId, claim.key, answer);
      return { ...answer, replayed: false };
    } catch (error) {
      if (error instanceof KeyTaken) {
        if (error.answer) return { ...error.answer, replayed: true };
        if (error.importId) return { status: 201, body: { data: await this.show(principal, error.importId) }, replayed: true };
      }
      // The import is stored but was not queued, or cannot publish yet: that answer is the one a repeat gets.
      if (error instanceof ApiError && error.extra.import_id) await this.idempotencyKeys.record(principal.familyId, claim.key, { status: error.status, body: error.body() });
      throw error;
    }
  }

  async create(principal: Principal, dto: CreateImportDto, file?: UploadedFile, idempotency?: IdempotencyClaim): Promise<ImportDetailDto> {
    const type = resolveImportType(dto.type);
    const format = importFormat(type);
    await this.requireUsableFamilyCurrency(principal.familyId);
    if (dto.account_id) await this.requireFamilyAccount(principal.familyId, dto.account_id);
    const content = readUpload(format, dto.raw_file_content, file, this.config.importMaxBytes, dto.sheet);

    const imp = this.imports.build({
      familyId: principal.familyId,
      type,
      accountId: dto.account_id ?? null,
      fileName: content.fileName,
      rawFileContent: content.text,
      contentBytes: content.bytes?.length ?? Buffer.byteLength(content.text),
      ...configurationChanges(dto),
      ...format.fixedLayout,
      // A spreadsheet's table is stored as CSV with commas, whatever col_sep was sent.
      ...(content.colSep ? { colSep: content.colSep } : {}),
    });
    // An app's layout date format is only a default: YNAB writes dates as its user set them, so a date_format given wins.
    if (format.facts.layoutDateFormat) imp.dateFormat ??= format.facts.layoutDateFormat;
    validateConfiguration(imp);
    // Content read as bytes stores what can be read again (a PDF's text layer), not the upload.
    if (format.bytes && content.bytes) imp.rawFileContent = await format.bytes.store(content);

    const saved = await this.transactions.run(async (tx) => {
      if (idempotency) await this.idempotencyKeys.claim(tx, principal.familyId, idempotency);
      const stored = await this.imports.save(imp, tx);
      if (idempotency) await this.idempotencyKeys.attach(tx, principal.familyId, idempotency.key, stored.id);
      await this.generateRows(tx, stored, content);
      return stored;
    });
    if (dto.publish === 'true') await this.enqueuePublish(principal, saved.id, { fromCreate: true });
    return this.show(principal, saved.id);
  }

  async show(principal: Principal, id: string): Promise<ImportDetailDto> {
    const imp = await this.findOrFail(principal.familyId, id);
    const [stats, accounts] = await Promise.all([this.imports.stats(imp.familyId, [imp.id]), this.imports.accountNames(imp.familyId, [imp.accountId])]);
    return presentImport(imp, stats.get(imp.id)!, this.config.importMaxRows, accounts.get(imp.accountId ?? '') ?? null);
  }

  async list(principal: Principal, query: { page?: number; per_page?: number; status?: string; type?: string }) {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 25;
    const { imports, total } = await this.imports.list(principal.familyId, query, page, perPage);
    const [stats, accounts] = await Promise.all([this.imports.stats(principal.familyId, imports.map((i) => i.id)), this.imports.accountNames(principal.familyId, imports.map((i) => i.accountId))]);
    return {
      data: imports.map((imp) => presentImport(imp, stats.get(imp.id)!, this.config.importMaxRows, accounts.get(imp.accountId ?? '') ?? null)),
      meta: pageMeta(page, perPage, total),
    };
  }

  async rows(principal: Principal, id: string, query: ImportRowsQuery) {
    const onlyErrors = errorsParam(query.errors);
    const imp = await this.findOrFail(principal.familyId, id);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 25;
    const { rows, total } = await this.imports.rowsPage(imp.familyId, imp.id, page, perPage, { onlyErrors });
    return {
      data: rows.map((row) => ({
        row_number: row.sourceRowNumber,
        valid: row.errors.length === 0,
        errors: row.errors,
        fields: row.values,
        duplicate_of: row.duplicateOf,
      })),
      meta: pageMeta(page, perPage, total),
    };
  }

  /** Changes configuration and mappings before publishing; rows are parsed again from the stored content. */
  async update(principal: Principal, id: string, dto: UpdateImportDto): Promise<ImportDetailDto> {
    await this.requireUsableFamilyCurrency(principal.familyId);
    if (dto.account_id) await this.requireFamilyAccount(principal.familyId, dto.account_id);
    await this.transactions.run(async (tx) => {
      // Locked until the new rows are in: a publish checks them, and moves the import on, only after this commit.
      const imp = await this.imports.findOne(principal.familyId, id, tx, { forUpdate: true });
      if (!imp) throw ApiError.notFound();
      if (!['pending', 'failed'].includes(imp.status)) {
        throw new ApiError(409, 'import_not_editable', `An import in status ${imp.status} cannot be changed`);
      }
      if (imp.publishedThroughRow > 0) {
        // Publishing again resumes after these rows: a new configuration would file the rest differently.
        throw new ApiError(409, 'import_not_editable', `Rows 1-${imp.publishedThroughRow} of this import are published already; revert it first to change it`);
      }
      const format = importFormat(imp.type);
      if (dto.mappings?.length && !format.mappings.length) {
        throw ApiError.validation([`mappings do not apply to ${imp.type}: its rows name no accounts, categories, tags or account types`]);
      }
      Object.assign(imp, configurationChanges(dto), format.fixedLayout);
      if (dto.account_id !== undefined) imp.accountId = dto.account_id;
      if (dto.skip_rows !== undefined) imp.skipRows = normalizedSkipRows(dto.skip_rows);
      validateConfiguration(imp);
      await this.imports.save(imp, tx);
      // Statements and NDJSON are read again only to apply a new skip list; their rows keep the one stored.
      const reparse = format.reparsedOnChange || dto.skip_rows !== undefined;
      const text = reparse ? await this.imports.rawContent(imp.familyId, imp.id, tx) : null;
      if (!text) {
        if (dto.skip_rows === undefined) return;
        // A PDF statement uploaded before its text layer was stored: its rows cannot be read again.
        throw ApiError.validation([`skip_rows cannot be applied to this ${imp.type}: it was uploaded before its text was kept; upload the file again as a new import`]);
      }
      const sourceRows = await this.generateRows(tx, imp, this.storedContent(imp, text), dto.mappings);
      if (dto.skip_rows && dto.skip_rows.length > sourceRows) {
        throw ApiError.validation([`skip_rows lists ${dto.skip_rows.length} row numbers, more than the ${sourceRows} rows of this import`]);
      }
    });
    return this.show(principal, id);
  }

  async publish(principal: Principal, id: string): Promise<ImportDetailDto> {
    await this.enqueuePublish(principal, id, { fromCreate: false });
    return this.show(principal, id);
  }

  /**
   * Deletes an import with its rows and mappings, recorded in the audit log; one with anything published, or on the
   * queue, is 409 (revert it first). What a failed publish's mappings created before any row committed goes first,
   * as the reaper would remove it.
   */
  async discard(principal: Principal, id: string, origin: RequestOrigin): Promise<void> {
    const found = await this.findOrFail(principal.familyId, id);
    if (found.status === 'failed' && found.publishedThroughRow === 0) await this.publisher.discardUnpublished(principal.familyId, id);
    await this.transactions.run(async (tx) => {
      // Locked until deleted: a publish or PATCH meanwhile waits, and then finds no import.
      const imp = await this.imports.findOne(principal.familyId, id, tx, { forUpdate: true });
      if (!imp) throw ApiError.notFound();
      const conflict = statusConflict(imp) ?? (isRevertable(imp) ? 'import_published' : null);
      if (conflict) throw new ApiError(409, conflict, DISCARD_CONFLICTS[conflict]);
      await this.imports.remove(principal.familyId, id, tx);
      await this.audit.record(
        'import_discarded',
        { userId: principal.userId, familyId: principal.familyId, origin, details: { import_id: id, type: imp.type, status: imp.status, file_name: imp.fileName, rows_count: imp.rowsCount } },
        tx,
      );
    });
  }

  async revert(principal: Principal, id: string): Promise<ImportDetailDto> {
    const imp = await this.findOrFail(principal.familyId, id);
    const from: Import['status'][] = isRevertable(imp) ? [imp.status] : [];
    const jobId = randomUUID();
    if (!from.length || !(await this.imports.transition(principal.familyId, id, from, 'reverting', { error: null, jobId, heartbeatAt: null }))) {
      throw new ApiError(422, 'not_revertable', `An import in status ${imp.status} cannot be reverted`);
    }
    await this.enqueue(principal, id, 'revert', imp.status, jobId);
    return this.show(principal, id);
  }

  /** The content an import stored, as generateRows reads it: a PDF statement's is its text layer as JSON. */
  private storedContent(imp: Import, text: string): ImportContent {
    const { bytes } = importFormat(imp.type);
    return bytes ? bytes.read(text, imp.fileName) : { text, fileName: imp.fileName };
  }

  /**
   * Parses the content into the import's rows, leaving out its skip_rows, and builds its mappings. Returns how many
   * rows the content has, skipped ones included; a skip_rows naming a row past them is a 422.
   */
  private async generateRows(tx: Transaction, imp: Import, content: ImportContent, mappingOverrides: MappingDraft[] = []): Promise<number> {
    const format = importFormat(imp.type);
    // A format that stores its rows itself (NDJSON records in publish order with the expected counts).
    if ('store' in format.rows) return format.rows.store(tx, imp, content, this.formatServices);
    const family = await this.imports.family(imp.familyId, tx);
    const account = imp.accountId ? await this.imports.familyAccount(imp.familyId, imp.accountId, tx) : null;
    const options = {
      maxRows: Math.max(STORED_ROWS_CAP, this.config.importMaxRows),
      defaultCurrency: account?.currency ?? family.currency,
      hasAccount: account !== null,
      // Rows may be dated up to the family's today, which can be a day ahead of (or behind) UTC's.
      today: new Date(`${familyToday(family.timezone)}T00:00:00Z`),
      skipRows: new Set(imp.skipRows ?? []),
    };
    const parsed = format.rows.parse(imp, content, options);
    if (parsed.fileErrors.length) {
      const choices = parsed.ambiguousDates && { date_formats: parsed.ambiguousDates.formats, date_sample: parsed.ambiguousDates.sample };
      throw new ApiError(422, parsed.errorCode ?? 'invalid_csv', parsed.fileErrors[0], { errors: parsed.fileErrors, ...choices });
    }
    // The format told from the file's dates is kept: the configuration shows it, and a PATCH reads the rows with it.
    if (parsed.dateFormat && imp.dateFormat == null) {
      imp.dateFormat = parsed.dateFormat;
      await this.imports.setDateFormat(imp.familyId, imp.id, parsed.dateFormat, tx);
    }
    const sourceRows = parsed.sourceRows ?? 0;
    assertSkippable(imp.skipRows ?? [], sourceRows);
    const rows = await this.imports.replaceRows(imp.familyId, imp.id, withMappingErrors(imp, format.mappings, parsed.rows), tx);
    // A statement's balances, which publishing sets or checks the account's by.
    if (parsed.statements || imp.statementBalances) await this.imports.setStatementBalances(imp.familyId, imp.id, statedBalances(parsed.statements), tx);
    const stored = await this.imports.mappings(imp.familyId, imp.id, tx);
    const { mappings, rowErrors } = await this.mappings.build(tx, imp, format.mappings, rows, stored, mappingOverrides);
    await this.imports.replaceMappings(imp.familyId, imp.id, mappings, tx);
    await this.imports.addRowErrors(imp.familyId, imp.id, rowErrors, tx);
    await this.imports.addRowErrors(imp.familyId, imp.id, await this.mappings.currencyErrors(tx, imp, rows, mappings, family.currency), tx);
    return sourceRows;
  }

  /**
   * Checks the import can publish now, then queues it; the 422/500 bodies carry import_id. The checks
   * and the move to importing hold the import's row lock, so a PATCH replacing the rows meanwhile waits for them
   * (or they for it) instead of slipping in between. A refusal keeps what it recorded (a failed preflight).
   */
  private async enqueuePublish(principal: Principal, id: string, { fromCreate }: { fromCreate: boolean }) {
    const jobId = randomUUID();
    const outcome = await this.transactions.run(async (tx) => {
      try {
        return { previous: await this.startPublishing(tx, principal.familyId, id, fromCreate, jobId) };
      } catch (error) {
        if (error instanceof ApiError) return { refused: error };
        throw error;
      }
    });
    if ('refused' in outcome) throw outcome.refused;
    await this.enqueue(principal, id, 'publish', outcome.previous, jobId);
  }

  /** Moves a publishable import to importing and returns the status it had; an ApiError says why it cannot publish. */
  private async startPublishing(tx: Transaction, familyId: string, id: string, fromCreate: boolean, jobId: string): Promise<Import['status']> {
    const imp = await this.imports.findOne(familyId, id, tx, { forUpdate: true });
    if (!imp) throw ApiError.notFound();
    // A second publish (a double click, another tab) is told what the import is doing, not that it has a problem.
    const conflict = statusConflict(imp);
    if (conflict) throw new ApiError(409, conflict, PUBLISH_CONFLICTS[conflict], { import_id: id });
    await this.requireUsableFamilyCurrency(familyId, tx);
    const stats = (await this.imports.stats(familyId, [id], tx)).get(id)!;
    const reject = (code: string, message: string, errors?: string[]) =>
      new ApiError(422, code, message, { import_id: id, ...(errors ? { errors } : {}) });
    const format = importFormat(imp.type);
    const limit = maxRowCount(imp.type, this.config.importMaxRows);
    if (stats.rowsCount > limit) {
      throw reject('max_row_count_exceeded', `Import was uploaded but has ${stats.rowsCount} rows; at most ${limit} can be published`);
    }
    // Closed since the upload: its history stays as it is.
    if (imp.accountId && (await this.imports.familyAccount(familyId, imp.accountId, tx))?.closedAt) {
      throw reject('not_publishable', fromCreate ? 'Import was uploaded but cannot be published yet' : 'Import cannot be published yet', [closedAccountMessage('account_id')]);
    }
    // A format's own checks before anything is queued (NDJSON's strict preflight: 422 preflight_failed / not_publishable).
    await format.hooks?.preflight?.(tx, imp, this.formatServices);
    const detail = statusDetail(imp, stats, this.config.importMaxRows);
    if (!detail.publishable) {
      const errors = await this.publishBlockers(tx, imp, stats, detail.configured);
      throw reject('not_publishable', fromCreate ? 'Import was uploaded but cannot be published yet' : 'Import cannot be published yet', errors);
    }
    // The job is named now, and the heartbeat of an earlier run cleared: the reaper leaves the import alone while that job waits.
    if (!(await this.imports.transition(familyId, id, ['pending', 'failed'], 'importing', { error: null, jobId, heartbeatAt: null }, tx))) {
      throw reject('not_publishable', `An import in status ${imp.status} cannot be published`);
    }
    return imp.status;
  }

  private async publishBlockers(tx: Transaction, imp: Import, stats: { invalidRowsCount: number; unassignedMappingsCount: number }, configured: boolean) {
    const errors: string[] = [];
    if (!configured) errors.push('The import has no rows');
    if (importFormat(imp.type).facts.account === 'required' && !imp.accountId) errors.push('account_id is required for this import type');
    if (stats.invalidRowsCount) {
      const { rows } = await this.imports.invalidRows(imp.familyId, imp.id, 20, tx);
      errors.push(`${stats.invalidRowsCount} rows are invalid`, ...rows.flatMap((r) => r.errors));
    }
    if (stats.unassignedMappingsCount) {
      const unmapped = await this.imports.unassignedMappings(imp.familyId, imp.id, 20, tx);
      errors.push(`${stats.unassignedMappingsCount} values are not mapped (see PATCH mappings)`, ...unmapped.map((m) => `${m.type} '${m.key}' is not mapped`));
    }
    return errors;
  }

  /** Rows read, mapped and published without a currency of their own take the household's: it must be ISO 4217. */
  private async requireUsableFamilyCurrency(familyId: string, tx?: Transaction): Promise<void> {
    const family = await this.imports.family(familyId, tx);
    assertUsableFamilyCurrency(family.currency);
  }

  /**
   * Adds the job as `jobId` (Redis down must not hang the request); when the queue does not take it, the status is
   * restored. The job carries the request's id, which the worker's log lines for it repeat.
   */
  private async enqueue(principal: Principal, id: string, name: 'publish' | 'revert', previous: Import['status'], jobId: string) {
    try {
      const data = { importId: id, familyId: principal.familyId, requestId: currentRequest()?.id };
      // Retried with backoff when the worker could not even record an outcome (the database was down).
      await enqueueWithin(this.queue, name, data, { jobId, removeOnComplete: 1000, removeOnFail: 5000, ...JOB_RETRIES });
    } catch (err) {
      this.logger.warn({ err, importId: id }, `import could not be queued for ${name}`);
      await this.imports.transition(principal.familyId, id, [name === 'publish' ? 'importing' : 'reverting'], previous);
      throw name === 'publish'
        ? new ApiError(500, 'publish_failed', 'Import was uploaded but could not be queued for processing', { import_id: id })
        : new ApiError(500, 'revert_failed', 'The revert could not be queued; the import is as it was, try again', { import_id: id });
    }
  }

  private async findOrFail(familyId: string, id: string): Promise<Import> {
    const imp = await this.imports.findOne(familyId, id);
    if (!imp) throw ApiError.notFound();
    return imp;
  }

  /** An import goes into an open account of the family's: a closed one takes no new transactions. */
  private async requireFamilyAccount(familyId: string, accountId: string): Promise<void> {
    const account = await this.imports.familyAccount(familyId, accountId);
    if (!account) throw ApiError.validation(['account_id must be an account of your family']);
    if (account.closedAt) throw ApiError.validation([closedAccountMessage('account_id')]);
  }
}
