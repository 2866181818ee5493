import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { AUDIT_QUEUE } from '../src/audit/audit-retention.queue';
import { JOB_SCHEDULES } from '../src/jobs/job-schedules';
import { startPrivateRedis, PrivateRedis } from './support/private-redis';
import { startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';

// Repeatable jobs live in the queue's store. A Redis that restarts empty (no persistence, or a failover to an empty
// replica) loses them; running workers must put them back without a restart (multi-process: scale-out-faults).

describe('job schedules: back after Redis restarts empty', () => {
  let redis: PrivateRedis;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await startTestApp({ REDIS_URL: redis.url, JOB_SCHEDULE_CHECK_SECONDS: '1' });
  });
  afterAll(async () => {
    await t.close();
    await redis.stop();
  });

  it('writes every schedule at start, and again within the check interval once an empty Redis is back', async () => {
    const audit = t.app.get<Queue>(getQueueToken(AUDIT_QUEUE));
    expect(JOB_SCHEDULES.map((s) => s.id)).toContain('audit-retention');
    const scheduled = async () => {
      const found = await audit.getJobScheduler('audit-retention');
      return found && { pattern: found.pattern, tz: found.tz, name: found.name };
    };
    expect(await until('the schedule written at start', scheduled)).toEqual({ pattern: '15 3 * * *', tz: 'UTC', name: 'retention' });

    await redis.stop();
    await redis.start();
    expect(await audit.getJobScheduler('audit-retention')).toBeUndefined();
    expect(await until('the schedule back', scheduled, 15_000)).toEqual({ pattern: '15 3 * * *', tz: 'UTC', name: 'retention' });
    // Its next run is queued again too, not only the scheduler's record.
    expect(await audit.getJobCounts('delayed')).toEqual({ delayed: 1 });
  });
});
