import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';

export const HEALTH_QUEUE = 'health';

/** A trivial job that proves the queue round trip (enqueue, work, complete) on the configured backend. */
@Processor(HEALTH_QUEUE)
export class HealthProcessor extends WorkerHost {
  async process(job: Job<{ nonce: string }>): Promise<{ nonce: string; processedAt: string }> {
    return { nonce: job.data.nonce, processedAt: new Date().toISOString() };
  }
}
