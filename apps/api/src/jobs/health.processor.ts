import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { logged } from './job-log';

export const HEALTH_QUEUE = 'health';

/** A trivial job that proves the queue round trip (enqueue, work, complete) on the configured backend. */
@Processor(HEALTH_QUEUE)
export class HealthProcessor extends WorkerHost {
  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.logger.debug({ err }, 'health worker connection error');
  }

  async process(job: Job<{ nonce: string }>): Promise<{ nonce: string; processedAt: string }> {
    return logged(this.logger, this.config.workerName, job, {}, async () => ({ nonce: job.data.nonce, processedAt: new Date().toISOString() }), () => ({ outcome: 'complete' }));
  }
}
