import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ImportStatus } from '@hearth/contracts';
import { managerOf, Transaction } from '../database/transactions';
import { Account } from '../finance/entities/account.entity';
import { Family } from '../finance/entities/family.entity';
import { Import, ImportMapping } from './import.entity';
import type { ParsedRow, StatedBalances } from '@hearth/domain/import-formats';

export interface RowStats {
  rowsCount: number;
  validRowsCount: number;
  invalidRowsCount: number;
  mappingsCount: number;
  unassignedMappingsCount: number;
}

/** A mapping (of import_mappings m) that blocks publishing: an account or account type with no choice made. */
const UNASSIGNED = `m.type IN ('account', 'account_type') AND m.mappable_id IS NULL AND m.value IS NULL AND NOT m.create_when_empty`;

/** A row of import_rows with errors: the predicate of its partial index import_rows_with_errors, written the same way. */
const WITH_ERRORS = `errors <> '[]'::jsonb`;

/**
 * The import $1 is of the family `param`: the family filter of statements on its child tables (import_rows,
 * import_mappings), which have no family column. Not correlated with their rows, PostgreSQL checks it once, before
 * them (a one-time filter), so their plans stay as they were.
 */
const ofFamily = (param: string) => `EXISTS (SELECT 1 FROM imports WHERE id = $1 AND family_id = ${param})`;

/** Rows go in with one statement per batch of this many (bounded parameter size). */
const ROW_INSERT_BATCH = 10_000;

/**
 * Each row's values as one line of JSON (JSON.stringify never writes a raw newline), cast to jsonb row by row: 40%
 * cheaper in PostgreSQL than one document of the whole batch taken apart by jsonb_to_recordset, and no array
 * literal of escaped strings to build. Errors are few: one object of them by row number.
 */
const INSERT_ROWS = `INSERT INTO import_rows (import_id, source_row_number, "values", errors)
  SELECT $1, r.n, r.v::jsonb, COALESCE($4::jsonb -> r.n::text, '[]') FROM unnest($2::int[], string_to_array($3, E'\\n')) AS r(n, v)
  WHERE ${ofFamily('$5')}`;

/** A stored row and, once published, the existing record it matched instead of creating one. */
export type PublishedRow = ParsedRow & { duplicateOf: string | null };

const rowParams = (familyId: string, importId: string, batch: ParsedRow[]): unknown[] => [
  importId,
  batch.map((r) => r.sourceRowNumber),
  batch.map((r) => JSON.stringify(r.values)).join('\n'),
  JSON.stringify(Object.fromEntries(batch.filter((r) => r.errors.length).map((r) => [r.sourceRowNumber, r.errors]))),
  familyId,
];

/** The earliest and latest of the rows' dates (ISO text compares as dates do); nulls when no row has one. */
function dateSpan(rows: ParsedRow[]): { first: string | null; last: string | null } {
  let first: string | null = null;
  let last: string | null = null;
  for (const { values } of rows) {
    if (typeof values.date !== 'string') continue;
    if (first === null || values.date < first) first = values.date;
    if (last === null || values.date > last) last = values.date;
  }
  return { first, last };
}

/** `items` in arrays of up to `size`, each taken from the iterable only when the one before has been handed out. */
function* batches<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let batch: T[] = [];
  for (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** An import in importing or reverting with no sign of life for a while, and the job its request queued. */
export interface StaleWork {
  id: string;
  jobId: string | null;
  /** Its job was delivered: a publish or revert started and renewed the heartbeat, then stopped renewing it. */
  started: boolean;
}

/** An import the reaper failed. */
export interface ReapedImport {
  id: string;
  familyId: string;
  status: ImportStatus;
  publishedThroughRow: number;
}

/** No sign of life for $1 seconds: neither moved on (a chunk, a status) nor renewed its heartbeat. */
const STALE = `updated_at < now() - make_interval(secs => $1) AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => $1))`;

/**
 * SQL for imports, their rows and mappings. Every read and write is scoped by family id, but for the reaper's, which
 * works for every family (staleWork, failStale).
 */
@Injectable()
export class ImportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A new import of the family, not yet stored (`insert`). */
  build(fields: Partial<Import> & Pick<Import, 'familyId'>): Import {
    return this.dataSource.getRepository(Import).create(fields);
  }

  /** Stores a new import, or the changes to one read for update in `tx` (by its family): found by family either way. */
  save(imp: Import, tx: Transaction): Promise<Import> {
    return managerOf(tx, this.dataSource).getRepository(Import).save(imp);
  }

  /**
   * Keeps the date format told from the import's content. An UPDATE of that column alone: a second save of the entity
   * would write its raw_file_content, which is not read with it (select: false), as null.
   */
  async setDateFormat(familyId: string, id: string, dateFormat: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).getRepository(Import).update({ id, familyId }, { dateFormat });
  }

  /** With `forUpdate`, the import's row stays locked until the caller's transaction ends. */
  findOne(familyId: string, id: string, tx?: Transaction, { forUpdate = false } = {}): Promise<Import | null> {
    return managerOf(tx, this.dataSource).getRepository(Import).findOne({ where: { id, familyId }, ...(forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}) });
  }

  async rawContent(familyId: string, id: string, tx?: Transaction): Promise<string | null> {
    const [row] = await managerOf(tx, this.dataSource).query(`SELECT raw_file_content AS text FROM imports WHERE id = $1 AND family_id = $2`, [id, familyId]);
    return row?.text ?? null;
  }

  async list(familyId: string, filter: { status?: string; type?: string }, page: number, perPage: number) {
    const where = { familyId, ...(filter.status ? { status: filter.status as ImportStatus } : {}), ...(filter.type ? { type: filter.type as Import['type'] } : {}) };
    const [imports, total] = await this.dataSource.getRepository(Import).findAndCount({
      where,
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: (page - 1) * perPage,
      take: perPage,
    });
    return { imports, total };
  }

  /** The names of the family's accounts among `accountIds`, by id; an account deleted since is not among them. */
  async accountNames(familyId: string, accountIds: Array<string | null>): Promise<Map<string, string>> {
    const ids = [...new Set(accountIds.filter((id): id is string => id !== null))];
    if (!ids.length) return new Map();
    const rows: Array<{ id: string; name: string }> = await this.dataSource.query(`SELECT id, name FROM accounts WHERE family_id = $1 AND id = ANY($2::uuid[])`, [familyId, ids]);
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** The family, for its currency and time zone. */
  family(familyId: string, tx?: Transaction): Promise<Family> {
    return managerOf(tx, this.dataSource).getRepository(Family).findOneByOrFail({ id: familyId });
  }

  /** The family's account `accountId`, or null when the family has none of that id. */
  familyAccount(familyId: string, accountId: string, tx?: Transaction): Promise<Account | null> {
    return managerOf(tx, this.dataSource).getRepository(Account).findOneBy({ id: accountId, familyId });
  }

  /** Deletes the import; its rows and mappings go with it (imports_delete_rows, the mappings' cascade). */
  async remove(familyId: string, id: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`DELETE FROM imports WHERE id = $1 AND family_id = $2`, [id, familyId]);
  }

  async stats(familyId: string, importIds: string[], tx?: Transaction): Promise<Map<string, RowStats>> {
    if (!importIds.length) return new Map();
    const rows: Array<{ id: string; rows: string; invalid: string; mappings: string; unassigned: string }> =
      await managerOf(tx, this.dataSource).query(
        `SELECT i.id,
                i.rows_count AS rows, i.invalid_rows_count AS invalid,
                (SELECT count(*) FROM import_mappings m WHERE m.import_id = i.id) AS mappings,
                (SELECT count(*) FROM import_mappings m WHERE m.import_id = i.id AND ${UNASSIGNED}) AS unassigned
           FROM imports i WHERE i.id = ANY($1::uuid[]) AND i.family_id = $2`,
        [importIds, familyId],
      );
    return new Map(
      rows.map((r) => [
        r.id,
        {
          rowsCount: Number(r.rows),
          validRowsCount: Number(r.rows) - Number(r.invalid),
          invalidRowsCount: Number(r.invalid),
          mappingsCount: Number(r.mappings),
          unassignedMappingsCount: Number(r.unassigned),
        },
      ]),
    );
  }

  /**
   * Replaces the import's rows with freshly parsed ones (bulk insert, one statement per batch) and returns them. Rows
   * built as they are taken are built while PostgreSQL inserts the batch before them.
   */
  async replaceRows(familyId: string, importId: string, rows: Iterable<ParsedRow>, tx: Transaction): Promise<ParsedRow[]> {
    const manager = managerOf(tx, this.dataSource);
    await manager.query(`DELETE FROM import_rows WHERE import_id = $1 AND ${ofFamily('$2')}`, [importId, familyId]);
    const stored: ParsedRow[] = [];
    let inserting: Promise<unknown> = Promise.resolve();
    try {
      for (const batch of batches(rows, ROW_INSERT_BATCH)) {
        const params = rowParams(familyId, importId, batch);
        await inserting;
        inserting = manager.query(INSERT_ROWS, params);
        // One turn of the event loop sends the statement before the next batch is built.
        await new Promise(setImmediate);
        stored.push(...batch);
      }
    } catch (error) {
      // A batch that failed to build leaves no statement running behind the caller's rollback.
      await inserting.catch(() => undefined);
      throw error;
    }
    await inserting;
    const invalid = stored.reduce((n, r) => n + (r.errors.length ? 1 : 0), 0);
    const { first, last } = dateSpan(stored);
    // New rows (and with them new mappings) change the import even when none of its own columns did.
    await manager.query(
      `UPDATE imports SET rows_count = $2, invalid_rows_count = $3, first_row_date = $4, last_row_date = $5, updated_at = now() WHERE id = $1 AND family_id = $6`,
      [importId, stored.length, invalid, first, last, familyId],
    );
    return stored;
  }

  /** Keeps the balances the import's statement file states (null: none), read when its rows are generated. */
  async setStatementBalances(familyId: string, importId: string, balances: StatedBalances | null, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`UPDATE imports SET statement_balances = $2 WHERE id = $1 AND family_id = $3`, [importId, balances, familyId]);
  }

  /** Appends one error to each row named (row number -> error), and counts the import's invalid rows again. */
  async addRowErrors(familyId: string, importId: string, errors: Map<number, string>, tx: Transaction): Promise<void> {
    if (!errors.size) return;
    const manager = managerOf(tx, this.dataSource);
    await manager.query(
      `UPDATE import_rows r SET errors = r.errors || jsonb_build_array(u.error)
         FROM unnest($2::int[], $3::text[]) AS u(rn, error) WHERE r.import_id = $1 AND r.source_row_number = u.rn AND ${ofFamily('$4')}`,
      [importId, [...errors.keys()], [...errors.values()], familyId],
    );
    await manager.query(
      `UPDATE imports SET invalid_rows_count = (SELECT count(*) FROM import_rows WHERE import_id = $1 AND ${WITH_ERRORS}), updated_at = now() WHERE id = $1 AND family_id = $2`,
      [importId, familyId],
    );
  }

  /** A page of the import's rows in file order; `onlyErrors`: of its rows with errors, read through their partial index. */
  async rowsPage(familyId: string, importId: string, page: number, perPage: number, { onlyErrors = false } = {}): Promise<{ rows: PublishedRow[]; total: number }> {
    const where = `import_id = $1${onlyErrors ? ` AND ${WITH_ERRORS}` : ''}`;
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query(
        `SELECT source_row_number AS "sourceRowNumber", "values", errors, duplicate_of AS "duplicateOf" FROM import_rows
          WHERE ${where} AND ${ofFamily('$4')} ORDER BY source_row_number LIMIT $2 OFFSET $3`,
        [importId, perPage, (page - 1) * perPage, familyId],
      ),
      this.dataSource.query(`SELECT count(*)::int AS total FROM import_rows WHERE ${where} AND ${ofFamily('$2')}`, [importId, familyId]),
    ]);
    return { rows, total };
  }

  async invalidRows(familyId: string, importId: string, limit: number, tx?: Transaction): Promise<{ rows: ParsedRow[] }> {
    const rows = await managerOf(tx, this.dataSource).query(
      `SELECT source_row_number AS "sourceRowNumber", "values", errors FROM import_rows
        WHERE import_id = $1 AND ${WITH_ERRORS} AND ${ofFamily('$3')} ORDER BY source_row_number LIMIT $2`,
      [importId, limit, familyId],
    );
    return { rows };
  }

  /** The first `limit` mappings that block publishing, by type and key. */
  unassignedMappings(familyId: string, importId: string, limit: number, tx?: Transaction): Promise<Array<{ type: string; key: string }>> {
    return managerOf(tx, this.dataSource).query(
      `SELECT m.type, m.key FROM import_mappings m WHERE m.import_id = $1 AND ${UNASSIGNED} AND ${ofFamily('$3')} ORDER BY m.type, m.key LIMIT $2`,
      [importId, limit, familyId],
    );
  }

  mappings(familyId: string, importId: string, tx?: Transaction): Promise<ImportMapping[]> {
    return managerOf(tx, this.dataSource).getRepository(ImportMapping).find({ where: { importId, import: { familyId } }, order: { type: 'ASC', key: 'ASC' } });
  }

  async replaceMappings(familyId: string, importId: string, mappings: Array<Pick<ImportMapping, 'type' | 'key' | 'value' | 'createWhenEmpty' | 'mappableId'>>, tx: Transaction) {
    const manager = managerOf(tx, this.dataSource);
    await manager.query(`DELETE FROM import_mappings WHERE import_id = $1 AND ${ofFamily('$2')}`, [importId, familyId]);
    if (!mappings.length) return;
    await manager.query(
      `INSERT INTO import_mappings (import_id, type, key, value, create_when_empty, mappable_id)
       SELECT $1, t, k, v, c, m FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::boolean[], $6::uuid[]) AS x(t, k, v, c, m)
        WHERE ${ofFamily('$7')}`,
      [
        importId,
        mappings.map((m) => m.type),
        mappings.map((m) => m.key),
        mappings.map((m) => m.value),
        mappings.map((m) => m.createWhenEmpty),
        mappings.map((m) => m.mappableId),
        familyId,
      ],
    );
  }

  /**
   * Imports in importing or reverting, of every family, with no sign of life for `seconds` (the reaper's candidates;
   * whether their job is still coming is for the queue to say).
   */
  staleWork(seconds: number): Promise<StaleWork[]> {
    return this.dataSource.query(
      `SELECT id, job_id AS "jobId", heartbeat_at IS NOT NULL AS started FROM imports WHERE status IN ('importing', 'reverting') AND ${STALE}`,
      [seconds],
    );
  }

  /**
   * Fails those of `ids` that are still without a sign of life for `seconds` (a delivery may have taken one over since
   * they were read), with `publishError` or `revertError`; across families, as the reaper works for all of them. An
   * import whose row a transaction holds for update is skipped, not waited for: a revert running (LOCK_REVERT holds
   * it to its end) is alive however long it takes. Chunks hold theirs only FOR KEY SHARE, so a hung publish is failed.
   */
  async failStale(ids: string[], seconds: number, publishError: string, revertError: string): Promise<ReapedImport[]> {
    if (!ids.length) return [];
    const [reaped] = await this.dataSource.query(
      `UPDATE imports SET status = CASE status WHEN 'importing' THEN 'failed' ELSE 'revert_failed' END,
              error = CASE status WHEN 'importing' THEN $3 ELSE $4 END,
              updated_at = now()
        WHERE id IN (SELECT id FROM imports WHERE id = ANY($2::uuid[]) AND status IN ('importing', 'reverting') AND ${STALE}
                        FOR NO KEY UPDATE SKIP LOCKED)
        RETURNING id, family_id AS "familyId", status, published_through_row AS "publishedThroughRow"`,
      [seconds, ids, publishError, revertError],
    );
    return reaped;
  }

  /**
   * Moves an import from one of `from` to `to` atomically; false when another request got there first.
   * This compare-and-set is what keeps one publish (or revert) at a time per import.
   */
  async transition(
    familyId: string,
    id: string,
    from: ImportStatus[],
    to: ImportStatus,
    changes: Partial<Pick<Import, 'error' | 'jobId' | 'heartbeatAt'>> = {},
    tx?: Transaction,
  ): Promise<boolean> {
    const result = await managerOf(tx, this.dataSource)
      .createQueryBuilder()
      .update(Import)
      .set({ ...changes, status: to })
      .where('id = :id AND family_id = :familyId AND status IN (:...from)', { id, familyId, from })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
