import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { familyToday } from '@hearth/domain/budget-math';
import { LOGGER } from '../../common/logger';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { RUNTIME } from '../../database/database.module';
import type { Runtime } from '../../runtime';
import type { Import } from '../import.entity';
import type { PublishJob } from '../imports.queue';
import { resolveMappables } from './mappables';
import { ImportChunk, PublishContext, PublishError } from './publish-context';
import { ImportMappings } from '../import-mappings';
import { importFormat } from '../formats/registry';
import { FormatServices } from '../formats/format-services';
import type { JobOutcome } from '../../jobs/job-log';
import { AccountLocksRepository } from '../../ledger/account-locks.repository';
import { Ledger } from '../../ledger/ledger';
import { ImportRevertRepository } from '../../ledger/import-revert.repository';
import { PublishingRepository } from './publishing.repository';
import { Transaction, Transactions } from '../../database/transactions';

/** A chunk's transaction rolled back without an error: the import stopped importing, or its delivery was superseded. */
const STOPPED = Symbol('stopped');

type ChunkOutcome = 'committed' | 'stopped' | { error: unknown };

/** Where a chunk starts and ends in the import's rows, and whether it is the last. */
type ChunkBounds = Pick<ImportChunk, 'after' | 'through' | 'size' | 'last'>;

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

/** Turns an import's rows into records (publish) and removes them again (revert). Runs inside the job worker. */
@Injectable()
export class ImportPublisher {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    private readonly accountLocks: AccountLocksRepository,
    private readonly ledger: Ledger,
    private readonly publishing: PublishingRepository,
    private readonly transactions: Transactions,
    private readonly reverts: ImportRevertRepository,
    private readonly importMappings: ImportMappings,
    private readonly formatServices: FormatServices,
  ) {}

  /**
   * Publishes the import of a delivered job (`jobId`: the delivery's job, to know a late one). Returns how it ended and
   * the rows this delivery committed, for the job's log line.
   */
  async publish({ importId, familyId }: PublishJob, jobId?: string): Promise<JobOutcome> {
    const imp = await this.publishing.findImport(familyId, importId);
    // A redelivered or stale job finds the import no longer importing and does nothing.
    if (!imp || imp.status !== 'importing') return { outcome: (await this.deliveredAfterReap(imp, jobId)) ? 'late' : 'skipped', rows: 0 };
    const format = importFormat(imp.type);
    const verify = format.hooks?.verify;
    const delivery = await this.takeOver(imp);
    if (!delivery) return { outcome: 'skipped', rows: 0 };
    const stopHeartbeat = this.keepAlive(imp, delivery.token);
    let releaseAccounts: (() => Promise<void>) | null = null;
    const outcome = (name: string) => ({ outcome: name, rows: delivery.committedRows });
    try {
      const family = await this.publishing.familyCurrencyAndTimezone(familyId);
      // Today is the family's, as at upload (imports.service).
      const repositories = { ledger: this.ledger, publishing: this.publishing };
      const resolved = await this.transactions.run((tx) => resolveMappables(tx, imp, family.currency, familyToday(family.timezone), repositories, this.importMappings, format.createdAccounts));
      const ctx: PublishContext = { ...resolved, format };
      // Every account the rows can go to, held until the publish ends: another publish into one of them waits, then
      // finds all of this one's rows (duplicates link to them), as if the two had been published one after the other.
      releaseAccounts = await this.accountLocks.hold([imp.accountId, ...ctx.accounts.values()]);
      await verify?.begin(imp, this.formatServices); // verification: counts before
      // Stopped: reverted or reaped meanwhile, or a later delivery of this job took over; it finishes the import.
      if (!(await this.publishChunks(imp, delivery, (tx, chunk) => format.publish(tx, chunk, ctx)))) return outcome('stopped');
      await verify?.finish(imp, null, this.formatServices); // verification: readback
      return outcome((await this.finish(imp, 'importing', 'complete', null, delivery.token)) ? 'complete' : 'stopped');
    } catch (error) {
      // A superseded delivery leaves the outcome to the one that took over.
      if (!(await this.holds(imp, delivery.token).catch(() => true))) return outcome('stopped');
      this.logger.warn({ importId, type: imp.type, err: error }, 'import publish failed');
      const explained = verify ? await verify.explainFailure(imp, error, this.formatServices).catch(() => null) : null;
      const message = error instanceof PublishError ? error.message : (explained ?? PUBLISH_FAILED);
      await verify?.finish(imp, message, this.formatServices).catch(() => undefined);
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
    const late = await this.publishing.noteDeliveredAfterReap(imp.id, jobId, REAPED_THEN_DELIVERED, REAPED_PUBLISH);
    if (late) this.logger.warn({ importId: imp.id, jobId }, 'publish job delivered after the reaper failed its import; not run');
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
      this.publishing
        .renewPublishHeartbeat(imp.id, token)
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
      await this.transactions.run(async (tx) => {
        await this.publishing.lockForRevert(imp.familyId, imp.id, tx);
        const nothingPublished = (await this.publishing.publishedThrough(imp.id, token, tx)) === 0;
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
    await this.transactions.run(async (tx) => {
      await this.publishing.lockForRevert(familyId, importId, tx);
      if (await this.publishing.failedWithNothingPublished(importId, tx)) await this.removeCreated(tx, familyId, importId);
    });
  }

  /**
   * Makes this delivery the import's publisher, taking over from any earlier delivery of the job (one the queue
   * took for stalled may still be running: it stops at its next chunk). Null when the import stopped importing.
   */
  private async takeOver(imp: Import): Promise<Delivery | null> {
    const token = randomUUID();
    const claimed = await this.publishing.takeOverPublish(imp.id, token);
    return claimed ? { token, through: claimed.through, committedRows: 0 } : null;
  }

  private holds(imp: Import, token: string): Promise<boolean> {
    return this.publishing.holdsPublish(imp.id, token);
  }

  /**
   * Publishes the rows after the resume point in chunks, each in its own transaction, and returns false when it
   * stopped before the end. Transaction chunks run two at a time on PostgreSQL (the insert of one uses
   * the second core while the other runs), but commit strictly in order: each moves the resume point from where
   * the chunk before it left it, so everything up to the resume point is committed and nothing after it.
   */
  private async publishChunks(imp: Import, delivery: Delivery, publish: (tx: Transaction, chunk: ImportChunk) => Promise<void>): Promise<boolean> {
    // Chunks of a format with concurrentChunks (publishTransactions) insert only rows of their own (mappings are made
    // before the first chunk), so two can run at once; other publishers create or look up shared records per chunk
    // (securities, merchants, budgets). PGlite serves one connection: a chunk waiting for the one before it would hold it.
    const depth = !this.runtime.database.embedded && (await this.concurrentChunks(imp)) ? 2 : 1;
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

  /** Whether the import's chunks may publish two at a time (its format's concurrentChunks). */
  private async concurrentChunks(imp: Import): Promise<boolean> {
    const { concurrentChunks } = importFormat(imp.type);
    return concurrentChunks === 'transaction rows' ? this.publishing.onlyTransactionRows(imp.id) : concurrentChunks;
  }

  /**
   * The bounds of the chunks after the resume point `after`: up to IMPORT_CHUNK_ROWS rows each (default 5,000), in
   * one scan. The rows cannot change meanwhile: PATCH refuses an import that is importing. A file with stock splits
   * is one chunk: a split counts the holding on its day, which the file's trades dated before it make up wherever
   * they stand in the file (a QIF file holds at most IMPORT_MAX_ROWS rows). The parts of an Actual or QIF split
   * (split_of) go in their parent's chunk, which inserts them with it (or finds them the parts of the transaction it
   * claimed); a chunk may so hold a few rows more.
   */
  private async chunksAfter(imp: Import, after: number): Promise<Array<ChunkBounds>> {
    const format = importFormat(imp.type);
    const splits = format.stockSplits && (await this.publishing.hasSplits(imp.id));
    // Only a format with splitParts (Actual, QIF) has split parts; for the others the row numbers alone (the index) place the chunks.
    const chunks = await this.publishing.chunks(imp.id, after, splits ? 2 ** 31 - 1 : this.config.importChunkRows, format.splitParts);
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
    bounds: ChunkBounds,
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
    const earlierCommitted = async () => {
      if (previous && (await previous.outcome) !== 'committed') throw STOPPED;
    };
    const committed = this.transactions.run(async (tx) => {
      const current = await this.publishing.shareForChunk(imp.id, tx);
      if (current?.status !== 'importing' || current.token !== delivery.token) throw STOPPED;
      // The family's data_version moves once, below, in commit order (migration DataVersionByCaller says why).
      await this.publishing.takeDataVersion(tx);
      await publish(tx, { ...bounds, inOrder, earlierCommitted });
      orderedDone();
      await earlierCommitted();
      if (!(await this.publishing.movePublishedThrough(imp.id, bounds.after, bounds.through, delivery.token, tx))) throw STOPPED;
      await this.publishing.bumpDataVersion(imp.familyId, tx);
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
    const imp = await this.publishing.findImport(familyId, importId);
    if (!imp || imp.status !== 'reverting') return { outcome: 'skipped', rows: 0 };
    // Started: the reaper now waits for the revert's own transaction, which holds the import row (LOCK_REVERT) to its end.
    await this.publishing.renewRevertHeartbeat(importId);
    try {
      await this.transactions.run(async (tx) => {
        await this.publishing.lockForRevert(familyId, importId, tx);
        await importFormat(imp.type).hooks?.beforeRevert?.(tx, imp, this.formatServices);
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
  private async removeCreated(tx: Transaction, familyId: string, importId: string): Promise<void> {
    await this.reverts.passClaimed(familyId, importId, tx);
    await this.reverts.restoreClaimed(importId, tx);
    await this.reverts.deleteCreated(familyId, importId, tx);
    await this.publishing.resetAfterRevert(importId, tx);
    await this.publishing.bumpDataVersion(familyId, tx);
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
    tx?: Transaction,
  ): Promise<boolean> {
    return this.publishing.moveStatus(imp.id, from, to, error, token, tx);
  }
}
