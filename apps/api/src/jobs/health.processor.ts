import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';

export const HEALTH_QUEUE = 'health';

/** A trivial job that proves the queue round trip (enqueue, work, complete) on the configured backend. */
@Processor(HEALTH_QUEUE)
export class HealthProcessor extends WorkerHost {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {
    super();
  }

  @OnWorkerEvent('error')
  onError(err: Error): void {
    this.logger.debug({ err }, 'health worker connection error');
  }

  async process(job: Job<{ nonce: string }>): Promise<{ nonce: string; processedAt: string }> {
    return { nonce: job.data.nonce, processedAt: new Date().toISOString() };
  }
}
