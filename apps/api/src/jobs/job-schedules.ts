import { getQueueToken } from '@nestjs/bullmq';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { JobSchedulerTemplateOptions, Queue, RepeatOptions } from 'bullmq';
import type { Logger } from 'pino';
import { AUDIT_QUEUE, RETENTION_JOB, RETENTION_SCHEDULE } from '../audit/audit-retention.queue';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';

/** A repeatable job: its queue, the scheduler's id, when it repeats and the job it adds. */
export interface JobSchedule {
  queue: string;
  id: string;
  repeat: Omit<RepeatOptions, 'key'>;
  job: { name: string; opts: JobSchedulerTemplateOptions };
}

/** Every repeatable job of the service. The stuck-import reaper is no queue job (imports.processor.ts says why). */
export const JOB_SCHEDULES: JobSchedule[] = [
  { queue: AUDIT_QUEUE, id: 'audit-retention', repeat: RETENTION_SCHEDULE, job: { name: RETENTION_JOB, opts: { removeOnComplete: 30, removeOnFail: 30 } } },
];

/**
 * Keeps every job schedule in the queue while workers run (worker processes). A schedule lives in the queue's store:
 * Redis restarted without persistence, or a failover to an empty replica, loses it, and nothing would run it again
 * until a worker restarts. So each worker writes them all at start (a changed one is updated), then checks every
 * JOB_SCHEDULE_CHECK_SECONDS and whenever its queue connection is back, and writes any that is missing. Writing one
 * is idempotent (by scheduler id), so every worker may do it.
 */
@Injectable()
export class JobSchedules implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  /** Schedules being written or checked: a queue that does not answer holds one check, not one per round. */
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly moduleRef: ModuleRef,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Not awaited: a queue that is down must not stop the process from starting. */
  onApplicationBootstrap(): void {
    const queues = new Map(JOB_SCHEDULES.map((s) => [s.queue, this.moduleRef.get<Queue>(getQueueToken(s.queue), { strict: false })]));
    for (const [name, queue] of queues) {
      queue.on('error', (err) => this.logger.warn({ err, queue: name }, 'queue connection error'));
      queue.getBackend().on('ready', () => this.ensureAll(queues, 'reconnected'));
    }
    this.ensureAll(queues, 'start');
    this.timer = setInterval(() => this.ensureAll(queues, 'check'), this.config.jobScheduleCheckSeconds * 1000);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private ensureAll(queues: Map<string, Queue>, why: 'start' | 'check' | 'reconnected'): void {
    for (const schedule of JOB_SCHEDULES) {
      const key = `${schedule.queue}:${schedule.id}`;
      if (this.inFlight.has(key)) continue;
      this.inFlight.add(key);
      this.ensure(queues.get(schedule.queue)!, schedule, why === 'start')
        .catch((err: unknown) => this.logger.warn({ err, queue: schedule.queue, scheduler: schedule.id }, 'could not schedule a repeatable job'))
        .finally(() => this.inFlight.delete(key));
    }
  }

  /** Writes the schedule when `always` (start) or when the queue lacks it, saying so when it had been lost. */
  private async ensure(queue: Queue, schedule: JobSchedule, always: boolean): Promise<void> {
    if (!always && (await queue.getJobScheduler(schedule.id))) return;
    await queue.upsertJobScheduler(schedule.id, schedule.repeat, schedule.job);
    if (!always) this.logger.warn({ queue: schedule.queue, scheduler: schedule.id }, 'job schedule was missing from the queue (lost with its store); restored');
  }
}
