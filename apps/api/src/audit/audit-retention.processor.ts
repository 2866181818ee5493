import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { logged } from '../jobs/job-log';
import { AUDIT_QUEUE, RETENTION_JOB, RETENTION_SCHEDULE } from './audit-retention.queue';
import { AuditRetentionService, RetentionReport } from './audit-retention.service';

/** Runs the retention job; its return value (the report) stays on the completed job for inspection. */
@Processor(AUDIT_QUEUE)
export class AuditRetentionProcessor extends WorkerHost {
  constructor(
    private readonly retention: AuditRetentionService,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.logger.warn({ err }, 'audit worker error');
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, err: Error): void {
    this.logger.error({ err, jobId: job?.id }, 'audit retention failed; nothing was deleted that is not archived');
  }

  async process(job: Job): Promise<RetentionReport | undefined> {
    return logged(
      this.logger,
      this.config.workerName,
      job,
      {},
      async () => (job.name === RETENTION_JOB ? this.retention.run() : undefined),
      (report) => (report ? { outcome: 'complete', rows: report.purged_rows } : { outcome: 'skipped' }),
    );
  }
}

/** Schedules the daily retention job (worker processes). */
@Injectable()
export class AuditRetentionSchedule implements OnApplicationBootstrap {
  constructor(
    @InjectQueue(AUDIT_QUEUE) private readonly queue: Queue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Not awaited: a queue that is down must not stop the process from starting; upserting by id is idempotent. */
  onApplicationBootstrap() {
    this.queue.on('error', (err) => this.logger.warn({ err }, 'audit queue connection error'));
    this.queue
      .upsertJobScheduler('audit-retention', RETENTION_SCHEDULE, { name: RETENTION_JOB, opts: { removeOnComplete: 30, removeOnFail: 30 } })
      .catch((err: unknown) => this.logger.warn({ err }, 'could not schedule audit retention'));
  }
}
