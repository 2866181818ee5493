import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { IMPORTS_QUEUE } from './imports.queue';

/** Every minute, the reaper looks for imports whose worker died. Scheduled by worker processes (roles all, worker). */
@Injectable()
export class ImportsReaperSchedule implements OnApplicationBootstrap {
  constructor(
    @InjectQueue(IMPORTS_QUEUE) private readonly queue: Queue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Not awaited: a queue that is down must not stop the process from starting; it is retried at the next start.
   * Upserting by id is idempotent, so every worker process may do it.
   */
  onApplicationBootstrap() {
    this.queue.on('error', (err) => this.logger.warn({ err }, 'imports queue connection error'));
    this.queue
      .upsertJobScheduler('imports-reaper', { every: 60_000 }, { name: 'reap' })
      .catch((err: unknown) => this.logger.warn({ err }, 'could not schedule the imports reaper'));
  }
}
