import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { JobOutcome, logged } from '../jobs/job-log';
import { ImportPublisher, REAPED_PUBLISH, REAPED_REVERT } from './publishing/import-publisher';
import { ImportIdempotencyKeys } from './import-idempotency';
import { IMPORTS_QUEUE, PublishJob } from './imports.queue';
import { ImportsRepository, StaleWork } from './imports.repository';

/** How often the reaper runs: every minute, or twice per IMPORT_STUCK_AFTER_SECONDS when that is shorter. */
export const reaperIntervalMs = (config: Pick<AppConfig, 'importStuckAfterSeconds'>) =>
  Math.min(60_000, Math.max(1_000, config.importStuckAfterSeconds * 500));

/** How long the reaper waits for the queue to say where the jobs are; a queue that does not answer fails nothing. */
const JOB_STATE_DEADLINE_MS = 2_500;

/** States of a job the queue will still deliver: its import waits in a backlog, nothing is lost. */
const COMING = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * True when the work's runner is gone: its job is not coming any more (finished, failed for good, or lost with a
 * Redis that restarted empty), or was delivered and then stopped renewing the heartbeat. A job just taken by a worker
 * that has not started yet is left to the queue: a worker that dies there has its job put back by the others.
 */
function runnerVanished(work: StaleWork, state: string | undefined): boolean {
  if (!work.jobId || !state) return true;
  if (COMING.has(state)) return false;
  if (state === 'active') return work.started;
  return true;
}

@Processor(IMPORTS_QUEUE)
export class ImportsProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private reaperTimer?: NodeJS.Timeout;

  constructor(
    private readonly publisher: ImportPublisher,
    private readonly imports: ImportsRepository,
    private readonly idempotencyKeys: ImportIdempotencyKeys,
    @InjectQueue(IMPORTS_QUEUE) private readonly queue: Queue<PublishJob>,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  /**
   * Every worker process reaps on a plain timer, not a queue job: the reaper exists for jobs the queue lost, so it
   * must not depend on the queue (a Redis restart without persistence drops job schedulers).
   */
  onApplicationBootstrap(): void {
    let reaping = false;
    this.reaperTimer = setInterval(() => {
      // One round at a time: a round waiting on a database or queue that does not answer is not joined by more.
      if (reaping) return;
      reaping = true;
      this.reap()
        .catch((err: unknown) => this.logger.warn({ err }, 'imports reaper failed'))
        .finally(() => (reaping = false));
    }, reaperIntervalMs(this.config));
    this.reaperTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.reaperTimer);
  }

  /** A lost queue connection is logged; the worker reconnects by itself. */
  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.logger.warn({ err }, 'imports worker error');
  }

  async process(job: Job<PublishJob>): Promise<JobOutcome> {
    const { importId, familyId } = job.data;
    return logged(this.logger, this.config.workerName, job, { importId, familyId }, async () => {
      if (job.name === 'publish') return this.publisher.publish(job.data, job.id);
      if (job.name === 'revert') return this.publisher.revert(job.data);
      return { outcome: 'skipped' };
    });
  }

  /**
   * Fails the imports whose runner vanished: importing or reverting with no progress and no heartbeat for
   * IMPORT_STUCK_AFTER_SECONDS (default 15 minutes), whose job the queue no longer holds or whose worker stopped
   * renewing the heartbeat. An import whose job waits behind others is left alone however long the backlog. Publishing
   * again resumes from the recorded point; a publish that had committed no row leaves the family as it was, as one
   * that fails does. Expired idempotency keys go on the same round.
   */
  async reap(): Promise<void> {
    await this.idempotencyKeys.deleteExpired();
    const seconds = this.config.importStuckAfterSeconds;
    const stale = await this.imports.staleWork(seconds);
    if (!stale.length) return;
    const states = await this.jobStates(stale);
    if (!states) return;
    const vanished = stale.filter((work) => runnerVanished(work, work.jobId ? states.get(work.jobId) : undefined));
    const reaped = await this.imports.failStale(vanished.map((work) => work.id), seconds, REAPED_PUBLISH, REAPED_REVERT);
    for (const imp of reaped) {
      this.logger.warn({ importId: imp.id, familyId: imp.familyId, status: imp.status }, 'reaped an import whose worker vanished');
      if (imp.status !== 'failed' || imp.publishedThroughRow !== 0) continue;
      // Left in place on an error: the next publish reuses the records, as after a failed removal in `fail`.
      await this.publisher.discardUnpublished(imp.familyId, imp.id).catch((err: unknown) => this.logger.warn({ importId: imp.id, err }, 'could not remove what the reaped publish created'));
    }
  }

  /** The queue's state of each work's job, or null when the queue does not answer in time (Redis down). */
  private async jobStates(stale: StaleWork[]): Promise<Map<string, string> | null> {
    const ids = stale.flatMap((work) => (work.jobId ? [work.jobId] : []));
    const asked = Promise.all(ids.map(async (id) => [id, await this.queue.getJobState(id)] as const));
    asked.catch(() => undefined); // answered after the deadline, or failed: nothing waits for it
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), JOB_STATE_DEADLINE_MS)));
    try {
      const states = await Promise.race([asked, deadline]);
      if (!states) this.logger.warn({ imports: stale.length }, 'imports reaper: the queue did not answer; nothing reaped this round');
      return states && new Map(states);
    } catch (err) {
      this.logger.warn({ err }, 'imports reaper: the queue could not say where the jobs are; nothing reaped this round');
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}
