import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { logged } from '../jobs/job-log';
import { AUDIT_QUEUE, RETENTION_JOB } from './audit-retention.queue';
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
