import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { JobOutcome, logged } from '../jobs/job-log';
import { FamilyExportsService } from './family-exports.service';
import { FAMILY_EXPORTS_QUEUE, FamilyExportJob } from './family-exports.queue';

@Processor(FAMILY_EXPORTS_QUEUE)
export class FamilyExportsProcessor extends WorkerHost {
  constructor(
    private readonly exports: FamilyExportsService,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.logger.warn({ err }, 'family exports worker error');
  }

  process(job: Job<FamilyExportJob>): Promise<JobOutcome> {
    const { exportId, familyId } = job.data;
    return logged(this.logger, this.config.workerName, job, { exportId, familyId }, () => this.exports.run(job.data));
  }
}
