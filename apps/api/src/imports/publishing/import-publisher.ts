import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import type { ImportType } from '@hearth/contracts';
import { familyToday } from '@hearth/domain/budget-math';
import { LOGGER } from '../../common/logger';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { RUNTIME } from '../../database/database.module';
import type { Runtime } from '../../runtime';
import { Import } from '../import.entity';
import type { PublishJob } from '../imports.queue';
import { publishAccounts } from './accounts.publisher';
import { publishTrades } from './investments.publisher';
import { resolveMappables } from './mappables';
import { ChunkPublisher, ImportChunk, PublishError, SPLIT_PART_TYPES, withRows } from './publish-context';
import { publishCategories, publishMerchants, publishRules } from './taxonomy.publisher';
import { publishTransactions } from './transactions.publisher';
import { publishStatement } from './statement.publisher';
import { deleteServiceImportBudgets, publishServiceImport } from './service-import.publisher';
import { beginServiceImportReadback, finishServiceImportReadback, markServiceImportReverted } from '../service-import-verification';
import { collisionsSinceCheck } from '../service-import';
import type { JobOutcome } from '../../jobs/job-log';
import { AccountLocksRepository } from '../../ledger/account-locks.repository';
import { Ledger } from '../../ledger/ledger';
import { PublishingRepository } from './publishing.repository';
import { Transaction, Transactions } from '../../database/transactions';

const PUBLISHERS: Partial<Record<ImportType, ChunkPublisher>> = {
  TransactionImport: publishTransactions,
  MintImport: publishTransactions,
  ActualImport: publishTransactions,
  YnabImport: publishTransactions,
  TradeImport: withRows(publishTrades),
  AccountImport: withRows(publishAccounts),
  CategoryImport: withRows(publishCategories),
  MerchantImport: withRows(publishMerchants),
  RuleImport: withRows(publishRules),
  QifImport: publishStatement,
  PdfImport: publishStatement,
  ServiceImport: withRows(publishServiceImport),
};

/** A chunk's transaction rolled back without an error: the import stopped importing, or its delivery was superseded. */
const STOPPED = Symbol('stopped');

type ChunkOutcome = 'committed' | 'stopped' | { error: unknown };

/** This delivery of a publish job, once it holds the import's publish token, where it resumes, and rows it committed. */
interface Delivery {
  token: string;
  through: number;
  committedRows: number;
}

/** A chunk in flight: when its ordered step is done, and how its transaction ended (never rejects). */
interface ChunkRun {
  ordered: Promise<void>;
  outcome: Promise<ChunkOutcome>;
}

/** True when the chunk committed, false when it stopped; throws its error when it failed. */
async function settled(run: ChunkRun): Promise<boolean> {
  const outcome = await run.outcome;
  if (typeof outcome === 'object') throw outcome.error;
  return outcome === 'committed';
}

// What the user sees in `error` unless a publisher threw a PublishError; the cause (possibly SQL text) goes to the log only.
const PUBLISH_FAILED = 'Publishing stopped on an internal error. Committed chunks are kept and the rest rolled back; publish again to resume.';
const PUBLISH_FAILED_BEFORE_ANY_ROW =
  'Publishing stopped on an internal error before any row was committed, so nothing was published and the accounts, categories and tags it created were removed. Publish again to retry.';
const REVERT_FAILED = 'Reverting stopped on an internal error and was rolled back; nothing was removed. Revert again to retry.';
/** What the reaper records on an import whose worker vanished (imports.processor.ts). */
export const REAPED_PUBLISH = 'The background worker was interrupted before this finished. Publish again to resume; nothing was lost or duplicated.';
// A revert runs in one transaction: an interrupted one removed nothing.
export const REAPED_REVERT = 'The background worker was interrupted before this revert finished; nothing was removed. Revert again to retry.';
/** A reaped import's job delivered after all: it is not run (the import is the user's again), and the import says so. */
const REAPED_THEN_DELIVERED = `${REAPED_PUBLISH} Its queued job came back later and was not run.`;

/** How often a running publish renews its heartbeat: a quarter of the time after which the reaper takes it for lost. */
export const heartbeatIntervalMs = (config: Pick<AppConfig, 'importStuckAfterSeconds'>) =>
  Math.min(60_000, Math.max(1_000, config.importStuckAfterSeconds * 250));

/** Tables an import adds rows to that nothing else refers to, each carrying import_id: revert deletes them first. */
const OWNED_BY_IMPORT = ['entries', 'transfers', 'rules'];

/**
 * Records an import creates that other data (of another import or of the user) can come to use, each by what uses
 * it; `r` is the record, `rule_values` every value the family's rules hold. Revert keeps the ones in use as the
 * family's own: deleting them would delete (accounts) or strip (the others) that data.
 */
const SHARED_BY_IMPORT = {
  accounts: `EXISTS (SELECT 1 FROM entries e WHERE e.account_id = r.id)
             OR EXISTS (SELECT 1 FROM imports i WHERE i.family_id = $1 AND i.account_id = r.id AND i.id <> $2)`,
  merchants: `EXISTS (SELECT 1 FROM transactions t WHERE t.merchant_id = r.id) OR r.id::text IN (SELECT id FROM rule_values)`,
  tags: `EXISTS (SELECT 1 FROM taggings g WHERE g.tag_id = r.id) OR r.id::text IN (SELECT id FROM rule_values)`,
  // Budgets list every category at 0 by themselves: only an amount set is a use. Another's subcategory is one too.
  categories: `EXISTS (SELECT 1 FROM transactions t WHERE t.category_id = r.id)
               OR EXISTS (SELECT 1 FROM budget_categories b WHERE b.category_id = r.id AND b.budgeted_spending_minor <> 0)
               OR EXISTS (SELECT 1 FROM categories c WHERE c.parent_id = r.id AND c.import_id IS DISTINCT FROM $2)
               OR r.id::text IN (SELECT id FROM rule_values)`,
};

/**
 * Clears import_id of the records of `table` the import created that are in use once its own rows are gone (and, for
 * categories, of the parents of those), so the delete after it leaves them.
 */
const KEEP_IN_USE = (table: keyof typeof SHARED_BY_IMPORT) => `
  WITH RECURSIVE rule_values AS (
         SELECT v #>> '{}' AS id FROM rules x CROSS JOIN LATERAL jsonb_path_query(x.conditions || x.actions, 'strict $.**.value') v
          WHERE x.family_id = $1),
       kept AS (
         SELECT r.id FROM ${table} r WHERE r.family_id = $1 AND r.import_id = $2 AND (${SHARED_BY_IMPORT[table]})
         ${table === 'categories' ? 'UNION SELECT c.parent_id FROM kept k JOIN categories c ON c.id = k.id WHERE c.parent_id IS NOT NULL' : ''})
  UPDATE ${table} SET import_id = NULL, updated_at = now() WHERE family_id = $1 AND import_id = $2 AND id IN (SELECT id FROM kept)`;

/**
 * Tables whose records another import's row can claim (import_rows.duplicate_of): a transaction its row duplicates
 * or an opening balance it replaced or moved, a rule or category of the same name, a merchant it lists again.
 */
const CLAIMABLE = ['entries', 'rules', 'categories', 'merchants'];

/**
 * The claims of the family's other imports (import $2 being reverted) on records import $2 created in `table`, as
 * (import_id, source_row_number, created_at, id). Driven from the claims, each probing the record's key: `OFFSET 0`
 * keeps the planner from turning that into a scan of every record the import created (with statistics behind a
 * large import it read them all to find no claim), and `IS NOT DISTINCT FROM` keeps it from probing the import_id
 * index instead of the key (believing an import had one entry, it read all of its entries for each claim).
 */
const claimsOn = (table: string) => `
  SELECT r.import_id, r.source_row_number, i.created_at, x.id
    FROM imports i
    JOIN import_rows r ON r.import_id = i.id AND r.duplicate_of IS NOT NULL
   CROSS JOIN LATERAL (SELECT x.id FROM ${table} x WHERE x.id = r.duplicate_of AND x.family_id = $1 AND x.import_id IS NOT DISTINCT FROM $2 OFFSET 0) x
   WHERE i.family_id = $1 AND i.id <> $2`;

/**
 * The import being reverted ($2) and the family's other imports that hold a claim or are publishing (a chunk in
 * flight may be claiming one), locked FOR UPDATE: a chunk holding its import's row commits first, and later chunks
 * wait for the revert. One statement, in id order: two reverts whose imports claim each other's records lock in the
 * same order, so one waits for the other instead of each holding its own import and waiting for the other's (a
 * deadlock PostgreSQL ended by failing one). Whether a claim is on this import's records is left to PASS_CLAIMED
 * (asking here reads every claim; an import's first claim is one probe).
 */
const LOCK_REVERT = `
  SELECT id FROM imports i
   WHERE family_id = $1
     AND (id = $2 OR status = 'importing' OR EXISTS (SELECT 1 FROM import_rows r WHERE r.import_id = i.id AND r.duplicate_of IS NOT NULL))
   ORDER BY id FOR UPDATE`;

/**
 * A record of `table` the import created that another import's row claims passes to that import (the earliest, when
 * several do) instead of going with the revert: that import's file holds it too. The row's claim is dropped, as the
 * record is now that import's own, and goes when that import is reverted.
 */
const PASS_CLAIMED = (table: string) => `
  WITH heirs AS (
         SELECT DISTINCT ON (c.id) c.id, c.import_id, c.source_row_number
           FROM (${claimsOn(table)}) c ORDER BY c.id, c.created_at, c.import_id, c.source_row_number),
       passed AS (UPDATE ${table} x SET import_id = h.import_id, updated_at = now() FROM heirs h WHERE x.id = h.id)
  UPDATE import_rows r SET duplicate_of = NULL, previous = NULL
    FROM heirs h WHERE r.import_id = h.import_id AND r.source_row_number = h.source_row_number`;

/**
 * A split (an Actual or ServiceImport parent and its parts) whose entries passed in part to claimants no longer
 * stands once import $2's own entries go: a passed parent losing parts is counted again as the claimant's own
 * transaction (it was excluded for its parts), and every entry kept under a parent that goes or is so unsplit stands
 * alone (deleting the parent would cascade to it). Driven from import $2's entries, probing by parent.
 */
const UNSPLIT_PASSED = `
  WITH unsplit AS (
         SELECT DISTINCT p.id FROM entries c JOIN entries p ON p.id = c.parent_entry_id
          WHERE c.family_id = $1 AND c.import_id = $2 AND p.import_id IS DISTINCT FROM $2),
       counted AS (UPDATE entries p SET excluded = false, updated_at = now() FROM unsplit u WHERE p.id = u.id),
       parents AS (
         SELECT id FROM unsplit
          UNION SELECT id FROM entries WHERE family_id = $1 AND import_id = $2 AND excluded)
  UPDATE entries c SET parent_entry_id = NULL, updated_at = now()
    FROM parents p WHERE c.parent_entry_id = p.id AND c.import_id IS DISTINCT FROM $2`;

/**
 * Columns (with their types, and the table a reference points into) a row can change in an existing record it
 * claims, by table and the table's key: a duplicate transaction, an opening balance, a rule or category of the same
 * name. Revert puts them back first, from import_rows.previous, and removes the tags the row added.
 */
const RESTORED: Array<{ table: string; key: string; columns: Array<[column: string, type: string, references?: string]> }> = [
  { table: 'entries', key: 'id', columns: [['date', 'date'], ['amount_minor', 'bigint'], ['currency', 'char(3)'], ['notes', 'text']] },
  { table: 'transactions', key: 'entry_id', columns: [['category_id', 'uuid', 'categories']] },
  { table: 'rules', key: 'id', columns: [['active', 'boolean'], ['effective_date', 'date'], ['conditions', 'jsonb'], ['actions', 'jsonb']] },
  { table: 'categories', key: 'id', columns: [['color', 'varchar'], ['lucide_icon', 'varchar'], ['parent_id', 'uuid', 'categories']] },
];

/**
 * Sets `column` of the record a row claimed (x) back to its value before the row changed it, unless changed since. A
 * reference to a record deleted since becomes NULL, as the delete (ON DELETE SET NULL) would have left it.
 */
const restored = (column: string, type: string, references?: string) => {
  const before = `(r.previous->'${column}'->>0)::${type}`;
  return `${column} = CASE WHEN r.previous ? '${column}' AND (r.previous->'${column}'->>1)::${type} IS NOT DISTINCT FROM x.${column}
                    THEN ${references ? `(SELECT id FROM ${references} WHERE id = ${before})` : before} ELSE x.${column} END`;
};

/** Turns an import's rows into records (publish) and removes them again (revert). Runs inside the job worker. */
@Injectable()
export class ImportPublisher {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    private readonly accountLocks: AccountLocksRepository,
    private readonly ledger: Ledger,
    private readonly publishing: PublishingRepository,
    private readonly transactions: Transactions,
  ) {}

  /**
   * Publishes the import of a delivered job (`jobId`: the delivery's job, to know a late one). Returns how it ended and
   * the rows this delivery committed, for the job's log line.
   */
  async publish({ importId, familyId }: PublishJob, jobId?: string): Promise<JobOutcome> {
    const imp = await this.dataSource.getRepository(Import).findOneBy({ id: importId, familyId });
    // A redelivered or stale job finds the import no longer importing and does nothing.
    if (!imp || imp.status !== 'importing') return { outcome: (await this.deliveredAfterReap(imp, jobId)) ? 'late' : 'skipped', rows: 0 };
    const publishChunk = PUBLISHERS[imp.type];
    if (!publishChunk) {
      await this.finish(imp, 'importing', 'failed', `Publishing ${imp.type} is not supported yet`);
      return { outcome: 'failed', rows: 0 };
    }
    const delivery = await this.takeOver(imp);
    if (!delivery) return { outcome: 'skipped', rows: 0 };
    const stopHeartbeat = this.keepAlive(imp, delivery.token);
    let releaseAccounts: (() => Promise<void>) | null = null;
    const outcome = (name: string) => ({ outcome: name, rows: delivery.committedRows });
    try {
      const [family] = await this.dataSource.query(`SELECT currency, timezone FROM families WHERE id = $1`, [familyId]);
      // Today is the family's, as at upload (imports.service).
      const repositories = { ledger: this.ledger, publishing: this.publishing };
      const ctx = await this.transactions.run((tx) => resolveMappables(tx, imp, family.currency, familyToday(family.timezone), repositories));
      // Every account the rows can go to, held until the publish ends: another publish into one of them waits, then
      // finds all of this one's rows (duplicates link to them), as if the two had been published one after the other.
      releaseAccounts = await this.accountLocks.hold([imp.accountId, ...ctx.accounts.values()]);
      if (imp.type === 'ServiceImport') await beginServiceImportReadback(this.dataSource, imp); // verification: counts before
      // Stopped: reverted or reaped meanwhile, or a later delivery of this job took over; it finishes the import.
      if (!(await this.publishChunks(imp, delivery, (tx, chunk) => publishChunk(tx, chunk, ctx)))) return outcome('stopped');
      if (imp.type === 'ServiceImport') await finishServiceImportReadback(this.dataSource, imp); // verification: readback
      return outcome((await this.finish(imp, 'importing', 'complete', null, delivery.token)) ? 'complete' : 'stopped');
    } catch (error) {
      // A superseded delivery leaves the outcome to the one that took over.
      if (!(await this.holds(imp, delivery.token).catch(() => true))) return outcome('stopped');
      this.logger.warn({ importId, type: imp.type, err: error }, 'import publish failed');
      const collisions = imp.type === 'ServiceImport' ? await collisionsSinceCheck(this.dataSource.manager, imp, error).catch(() => null) : null;
      const message = error instanceof PublishError ? error.message : (collisions ?? PUBLISH_FAILED);
      if (imp.type === 'ServiceImport') await finishServiceImportReadback(this.dataSource, imp, message).catch(() => undefined);
      await this.fail(imp, message, error, delivery.token);
      return outcome('failed');
    } finally {
      stopHeartbeat();
      await releaseAccounts?.();
    }
  }

  /**
   * True when this delivery is of the job the reaper gave up on (the import failed with its message since): the job is
   * not run, since the import is the user's again (to change, revert or publish anew), and the import says it came.
   */
  private async deliveredAfterReap(imp: Import | null, jobId: string | undefined): Promise<boolean> {
    if (!imp || !jobId || imp.jobId !== jobId || imp.status !== 'failed' || imp.error !== REAPED_PUBLISH) return false;
    const [late] = await this.dataSource.query(
      `UPDATE imports SET error = $3, updated_at = now() WHERE id = $1 AND job_id = $2 AND status = 'failed' AND error = $4 RETURNING id`,
      [imp.id, jobId, REAPED_THEN_DELIVERED, REAPED_PUBLISH],
    );
    if (late.length) this.logger.warn({ importId: imp.id, jobId }, 'publish job delivered after the reaper failed its import; not run');
    return true;
  }

  /**
   * Renews the import's heartbeat on a timer while this delivery holds it, so that a publish waiting (for the accounts
   * another publish holds, for a row lock) or running a long chunk is not taken for lost. Returns the stop.
   */
  private keepAlive(imp: Import, token: string): () => void {
    let renewing = false;
    const timer = setInterval(() => {
      if (renewing) return;
      renewing = true;
      this.dataSource
        .query(`UPDATE imports SET heartbeat_at = now() WHERE id = $1 AND status = 'importing' AND publish_token = $2`, [imp.id, token])
        .catch((err: unknown) => this.logger.debug({ importId: imp.id, err }, 'import heartbeat not renewed'))
        .finally(() => (renewing = false));
    }, heartbeatIntervalMs(this.config));
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Marks the publish failed. When no chunk of the import is committed, what its mappings created before the first
   * chunk (accounts, categories, tags) goes in the same transaction, as a revert would remove it: nothing of the
   * import is published, and a failed import with nothing published cannot be reverted. Should that removal fail,
   * the import is still marked failed, keeping the records for the next publish to reuse.
   */
  private async fail(imp: Import, message: string, cause: unknown, token: string): Promise<void> {
    try {
      await this.dataSource.transaction(async (tx) => {
        await tx.query(LOCK_REVERT, [imp.familyId, imp.id]);
        const [current] = await tx.query(
          `SELECT published_through_row AS through FROM imports WHERE id = $1 AND status = 'importing' AND publish_token = $2`,
          [imp.id, token],
        );
        const nothingPublished = current?.through === 0;
        if (nothingPublished) await this.removeCreated(tx, imp.familyId, imp.id);
        const shown = nothingPublished && message === PUBLISH_FAILED ? PUBLISH_FAILED_BEFORE_ANY_ROW : message;
        await this.finish(imp, 'importing', 'failed', shown, token, tx);
      });
    } catch (removeError) {
      this.logger.warn({ importId: imp.id, err: removeError }, 'could not remove what the failed publish created');
      await this.finishOrRetry(imp, 'importing', 'failed', message, cause, token);
    }
  }

  /**
   * What a publish the reaper failed had created before committing any row goes, as in `fail`: its worker vanished
   * after resolving the mappings, and a failed import with nothing published cannot be reverted. Only while the
   * import is still failed with nothing published: a new publish may have started since.
   */
  async discardUnpublished(familyId: string, importId: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.query(LOCK_REVERT, [familyId, importId]);
      const [still] = await tx.query(`SELECT 1 FROM imports WHERE id = $1 AND status = 'failed' AND published_through_row = 0`, [importId]);
      if (still) await this.removeCreated(tx, familyId, importId);
    });
  }

  /**
   * Makes this delivery the import's publisher, taking over from any earlier delivery of the job (one the queue
   * took for stalled may still be running: it stops at its next chunk). Null when the import stopped importing.
   */
  private async takeOver(imp: Import): Promise<Delivery | null> {
    const token = randomUUID();
    const [claimed] = await this.dataSource.query(
      `UPDATE imports SET publish_token = $2, heartbeat_at = now(), updated_at = now() WHERE id = $1 AND status = 'importing' RETURNING published_through_row AS through`,
      [imp.id, token],
    );
    return claimed.length ? { token, through: claimed[0].through, committedRows: 0 } : null;
  }

  private async holds(imp: Import, token: string): Promise<boolean> {
    const rows = await this.dataSource.query(`SELECT 1 FROM imports WHERE id = $1 AND publish_token = $2`, [imp.id, token]);
    return rows.length > 0;
  }

  /**
   * Publishes the rows after the resume point in chunks, each in its own transaction, and returns false when it
   * stopped before the end. Transaction chunks run two at a time on PostgreSQL (the insert of one uses
   * the second core while the other runs), but commit strictly in order: each moves the resume point from where
   * the chunk before it left it, so everything up to the resume point is committed and nothing after it.
   */
  private async publishChunks(imp: Import, delivery: Delivery, publish: (tx: Transaction, chunk: ImportChunk) => Promise<void>): Promise<boolean> {
    // Chunks of publishTransactions insert only rows of their own (mappings are made before the first chunk), so
    // two can run at once; other publishers create or look up shared records per chunk (securities, merchants,
    // budgets). PGlite serves one connection: a chunk waiting for the one before it would hold it.
    const depth = PUBLISHERS[imp.type] === publishTransactions && !this.runtime.database.embedded ? 2 : 1;
    const running: ChunkRun[] = [];
    try {
      let previous: ChunkRun | null = null;
      for (const bounds of await this.chunksAfter(imp, delivery.through)) {
        previous = this.startChunk(imp, delivery, bounds, previous, publish);
        running.push(previous);
        if (running.length === depth && !(await settled(running.shift()!))) return false;
      }
      while (running.length) if (!(await settled(running.shift()!))) return false;
      return true;
    } finally {
      // A failed or stopped chunk stops the ones after it; let them roll back before the import is marked.
      await Promise.all(running.map((run) => run.outcome));
    }
  }

  /**
   * The bounds of the chunks after the resume point `after`: up to IMPORT_CHUNK_ROWS rows each (default 5,000), in
   * one scan. The rows cannot change meanwhile: PATCH refuses an import that is importing. A file with stock splits
   * is one chunk: a split counts the holding on its day, which the file's trades dated before it make up wherever
   * they stand in the file (a QIF file holds at most IMPORT_MAX_ROWS rows). The parts of an Actual or QIF split
   * (split_of) go in their parent's chunk, which inserts them with it (or finds them the parts of the transaction it
   * claimed); a chunk may so hold a few rows more.
   */
  private async chunksAfter(imp: Import, after: number): Promise<Array<Omit<ImportChunk, 'inOrder'>>> {
    const [{ splits }] = imp.type === 'QifImport'
      ? await this.dataSource.query(`SELECT EXISTS (SELECT 1 FROM import_rows WHERE import_id = $1 AND "values"->>'row_kind' = 'split') AS splits`, [imp.id])
      : [{ splits: false }];
    // Only Actual and QIF rows can be split parts; for the others the row numbers alone (the index) place the chunks.
    const position = SPLIT_PART_TYPES.has(imp.type) ? `count(*) FILTER (WHERE "values"->>'split_of' IS NULL) OVER (ORDER BY source_row_number)` : 'row_number() OVER (ORDER BY source_row_number)';
    const chunks: Array<{ size: number; through: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS size, max(source_row_number) AS through
         FROM (SELECT source_row_number, (${position} - 1) / $3 AS chunk
                 FROM import_rows WHERE import_id = $1 AND source_row_number > $2) r
        GROUP BY chunk ORDER BY chunk`,
      [imp.id, after, splits ? 2 ** 31 - 1 : this.config.importChunkRows],
    );
    return chunks.map(({ size, through }, i) => ({ after: i ? chunks[i - 1].through : after, through, size, last: i === chunks.length - 1 }));
  }

  /**
   * One chunk's transaction: publishes the rows, waits for the chunk before it to commit, then moves the resume
   * point from this chunk's start to its end. The import row is held FOR KEY SHARE, which lets the chunks of one
   * publish (and their UPDATEs of the resume point) run together while a revert (FOR UPDATE) waits for them. When
   * the import stopped importing, a later delivery took the publish over, or the resume point is not where this
   * chunk starts (the chunk before it failed), the chunk rolls back.
   */
  private startChunk(
    imp: Import,
    delivery: Delivery,
    bounds: Omit<ImportChunk, 'inOrder'>,
    previous: ChunkRun | null,
    publish: (tx: Transaction, chunk: ImportChunk) => Promise<void>,
  ): ChunkRun {
    let orderedDone!: () => void;
    const ordered = new Promise<void>((resolve) => (orderedDone = resolve));
    const inOrder = async <T>(step: () => Promise<T>): Promise<T> => {
      await previous?.ordered;
      try {
        return await step();
      } finally {
        orderedDone();
      }
    };
    const committed = this.dataSource.transaction(async (tx) => {
      const [current] = await tx.query(`SELECT status, publish_token AS token FROM imports WHERE id = $1 FOR KEY SHARE`, [imp.id]);
      if (current?.status !== 'importing' || current.token !== delivery.token) throw STOPPED;
      // The family's data_version moves once, below, in commit order (migration DataVersionByCaller says why).
      await tx.query(`SELECT set_config('hearth.data_version_by_caller', 'on', true)`);
      await publish(tx as unknown as Transaction, { ...bounds, inOrder });
      orderedDone();
      if (previous && (await previous.outcome) !== 'committed') throw STOPPED;
      const [moved] = await tx.query(
        `UPDATE imports SET published_through_row = $3, updated_at = now()
          WHERE id = $1 AND status = 'importing' AND publish_token = $4 AND published_through_row = $2 RETURNING id`,
        [imp.id, bounds.after, bounds.through, delivery.token],
      );
      if (!moved.length) throw STOPPED;
      await tx.query(`UPDATE families SET data_version = data_version + 1 WHERE id = $1`, [imp.familyId]);
    });
    void committed.then(() => (delivery.committedRows += bounds.size), () => undefined);
    const outcome: Promise<ChunkOutcome> = committed.then(
      () => 'committed',
      (error: unknown) => (error === STOPPED ? 'stopped' : { error }),
    );
    void outcome.then(orderedDone); // a chunk that ended before its ordered step does not hold up the next one
    return { ordered, outcome };
  }

  /**
   * Removes what the import created and nothing else uses or holds, in one transaction, and makes it publishable
   * again; what another import's file holds too passes to that import.
   */
  async revert({ importId, familyId }: PublishJob): Promise<JobOutcome> {
    const imp = await this.dataSource.getRepository(Import).findOneBy({ id: importId, familyId });
    if (!imp || imp.status !== 'reverting') return { outcome: 'skipped', rows: 0 };
    // Started: the reaper now waits for the revert's own transaction, which holds the import row (LOCK_REVERT) to its end.
    await this.dataSource.query(`UPDATE imports SET heartbeat_at = now() WHERE id = $1 AND status = 'reverting'`, [importId]);
    try {
      await this.dataSource.transaction(async (tx) => {
        await tx.query(LOCK_REVERT, [familyId, importId]);
        // ServiceImport: budgets carry no import_id; its readback becomes `reverted` with the deletion.
        if (imp.type === 'ServiceImport') {
          await deleteServiceImportBudgets(tx as unknown as Transaction, { ledger: this.ledger, publishing: this.publishing }, familyId, importId);
          await markServiceImportReverted(tx, importId);
        }
        await this.removeCreated(tx, familyId, importId);
      });
      await this.finish(imp, 'reverting', 'pending', null);
      return { outcome: 'reverted', rows: imp.rowsCount };
    } catch (error) {
      this.logger.warn({ importId, err: error }, 'import revert failed');
      await this.finishOrRetry(imp, 'reverting', 'revert_failed', REVERT_FAILED, error);
      return { outcome: 'failed', rows: 0 };
    }
  }

  /**
   * What revert removes, in the caller's transaction, which holds LOCK_REVERT first: it waits for the chunks in
   * flight (each holds its import row FOR KEY SHARE), of this import so no row they commit is left behind, and of
   * claimants so their claims are read as they stand; and for their reverts.
   */
  private async removeCreated(tx: EntityManager, familyId: string, importId: string): Promise<void> {
    for (const table of CLAIMABLE) await tx.query(PASS_CLAIMED(table), [familyId, importId]);
    await tx.query(UNSPLIT_PASSED, [familyId, importId]);
    for (const { table, key, columns } of RESTORED) {
      await tx.query(
        `UPDATE ${table} x SET ${columns.map((c) => restored(...c)).join(', ')}, updated_at = now()
           FROM import_rows r WHERE r.import_id = $1 AND r.duplicate_of = x.${key} AND r.previous ?| $2::text[]`,
        [importId, columns.map(([column]) => column)],
      );
    }
    await tx.query(
      `DELETE FROM taggings g USING import_rows r
        WHERE r.import_id = $1 AND r.duplicate_of = g.entry_id AND r.previous ? 'tag_ids'
          AND g.tag_id::text IN (SELECT jsonb_array_elements_text(r.previous->'tag_ids'))`,
      [importId],
    );
    for (const table of OWNED_BY_IMPORT) {
      await tx.query(`DELETE FROM ${table} WHERE family_id = $1 AND import_id = $2`, [familyId, importId]);
    }
    for (const table of Object.keys(SHARED_BY_IMPORT) as Array<keyof typeof SHARED_BY_IMPORT>) {
      await tx.query(KEEP_IN_USE(table), [familyId, importId]);
      await tx.query(`DELETE FROM ${table} WHERE family_id = $1 AND import_id = $2`, [familyId, importId]);
    }
    await tx.query(
      `UPDATE import_mappings m SET mappable_id = NULL, create_when_empty = true
        WHERE m.import_id = $1 AND m.mappable_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM accounts WHERE id = m.mappable_id)
          AND NOT EXISTS (SELECT 1 FROM categories WHERE id = m.mappable_id)
          AND NOT EXISTS (SELECT 1 FROM tags WHERE id = m.mappable_id)`,
      [importId],
    );
    await tx.query(`UPDATE import_rows SET duplicate_of = NULL, previous = NULL WHERE import_id = $1 AND duplicate_of IS NOT NULL`, [importId]);
    await tx.query(`UPDATE imports SET published_through_row = 0 WHERE id = $1`, [importId]);
    await tx.query(`UPDATE families SET data_version = data_version + 1 WHERE id = $1`, [familyId]);
  }

  /**
   * Records the failure; when even that fails (the database is down or restarting) the job fails with the cause, so
   * the queue retries it with backoff and the retry resumes from the recorded point instead of leaving the import
   * stuck in importing/reverting until the reaper.
   */
  private async finishOrRetry(imp: Import, from: Import['status'], to: Import['status'], message: string, cause: unknown, token: string | null = null): Promise<void> {
    try {
      await this.finish(imp, from, to, message, token);
    } catch (recordError) {
      this.logger.warn({ importId: imp.id, err: recordError }, `could not mark the import ${to}; the job will be retried`);
      throw cause;
    }
  }

  /** Moves the import on from `from`; with a publish token, only while that delivery still holds the publish. */
  private async finish(
    imp: Import,
    from: Import['status'],
    to: Import['status'],
    error: string | null,
    token: string | null = null,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const [moved] = await manager.query(
      `UPDATE imports SET status = $3, error = $4, updated_at = now() WHERE id = $1 AND status = $2 AND ($5::uuid IS NULL OR publish_token = $5) RETURNING id`,
      [imp.id, from, to, error, token],
    );
    return moved.length > 0;
  }
}
