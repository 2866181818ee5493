import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { FamilyExportsService } from './family-exports.service';
import { FAMILY_EXPORTS_QUEUE, FamilyExportJob } from './family-exports.queue';

@Processor(FAMILY_EXPORTS_QUEUE)
export class FamilyExportsProcessor extends WorkerHost {
  constructor(
    private readonly exports: FamilyExportsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.logger.warn({ err }, 'family exports worker error');
  }

  process(job: Job<FamilyExportJob>): Promise<void> {
    return this.exports.run(job.data);
  }
}
