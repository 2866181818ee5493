import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { DataSource } from 'typeorm';
import { ImportPublisher } from './publishing/import-publisher';
import { IMPORTS_QUEUE, PublishJob } from './imports.queue';

const REAPED_PUBLISH = 'The background worker was interrupted before this finished. Publish again to resume; nothing was lost or duplicated.';
// A revert runs in one transaction: an interrupted one removed nothing.
const REAPED_REVERT = 'The background worker was interrupted before this revert finished; nothing was removed. Revert again to retry.';

/** How often the reaper runs: every minute, or twice per IMPORT_STUCK_AFTER_SECONDS when that is shorter. */
export const reaperIntervalMs = (config: Pick<AppConfig, 'importStuckAfterSeconds'>) =>
  Math.min(60_000, Math.max(1_000, config.importStuckAfterSeconds * 500));

@Processor(IMPORTS_QUEUE)
export class ImportsProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private reaperTimer?: NodeJS.Timeout;

  constructor(
    private readonly publisher: ImportPublisher,
    private readonly dataSource: DataSource,
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
    this.reaperTimer = setInterval(() => {
      this.reap().catch((err: unknown) => this.logger.warn({ err }, 'imports reaper failed'));
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

  async process(job: Job<PublishJob>): Promise<void> {
    if (job.name === 'publish') return this.publisher.publish(job.data);
    if (job.name === 'revert') return this.publisher.revert(job.data);
  }

  /**
   * Marks imports whose worker vanished (no progress for IMPORT_STUCK_AFTER_SECONDS, default 15 minutes) as failed;
   * publishing again resumes from the recorded point. A publish that had committed no row leaves the family as it
   * was, as one that fails does.
   */
  async reap(): Promise<void> {
    const [reaped]: [Array<{ id: string; family_id: string; status: string; published_through_row: number }>] = await this.dataSource.query(
      `UPDATE imports SET status = CASE status WHEN 'importing' THEN 'failed' ELSE 'revert_failed' END,
              error = CASE status WHEN 'importing' THEN $2 ELSE $3 END,
              updated_at = now()
        WHERE status IN ('importing', 'reverting') AND updated_at < now() - make_interval(secs => $1)
        RETURNING id, family_id, status, published_through_row`,
      [this.config.importStuckAfterSeconds, REAPED_PUBLISH, REAPED_REVERT],
    );
    for (const imp of reaped) {
      if (imp.status !== 'failed' || imp.published_through_row !== 0) continue;
      // Left in place on an error: the next publish reuses the records, as after a failed removal in `fail`.
      await this.publisher.discardUnpublished(imp.family_id, imp.id).catch((err: unknown) => this.logger.warn({ importId: imp.id, err }, 'could not remove what the reaped publish created'));
    }
  }
}
