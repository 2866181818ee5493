import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { Client } from 'pg';
import request from 'supertest';
import { AUDIT_QUEUE } from '../src/audit/audit-retention.queue';
import { queueConnection } from '../src/jobs/queue-connection';
import { startPrivateRedis, PrivateRedis } from './support/private-redis';
import { buildApi, freePort, Proc, scratchDatabase, started, startProcess, stop, until } from './support/service-processes';
import { Household, startTestApp, TestApp } from './support/test-app';

/**
 * Scale-out under faults, from the BUILT service: two API processes and two workers on a fresh PostgreSQL database and
 * a Redis of the test's own, which it stops and starts empty. Publishes into one account at once, a backlog behind
 * busy workers with a short stuck timeout, the job schedules after Redis comes back empty, and the workers' per-job
 * log lines. Needs DATABASE_URL (CI sets it); the embedded engine's single process is covered by
 * imports-concurrent-publish and job-schedules.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
if (!onPostgres) console.log('scale-out-faults.e2e-spec: skipped, as it needs DATABASE_URL (CI sets it)');

const CHUNK_ROWS = 500;
const STUCK_AFTER_SECONDS = 10;

/** A bank export: `rows` rows, one a day from `from`, names unique within the file. */
function bankExport(tag: string, rows: number, from = Date.UTC(2016, 0, 1)): string {
  const lines = ['date,amount,name'];
  for (let i = 0; i < rows; i++) lines.push(`${new Date(from + i * 86_400_000).toISOString().slice(0, 10)},-${(i % 300) + 1}.40,${tag} ${i}`);
  return lines.join('\n');
}

(onPostgres ? describe : describe.skip)('scale-out under faults: two API processes, two workers, a Redis that restarts empty', () => {
  const run = randomUUID().slice(0, 8);
  const prefix = `faults-${run}`;
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let redis: PrivateRedis;
  const procs: Proc[] = [];
  let apis: string[] = [];
  let workers: Proc[] = [];
  let t: TestApp;
  /** Import ids and the X-Request-Id each was queued with, for the log lines. */
  const queuedBy = new Map<string, string>();

  beforeAll(async () => {
    buildApi();
    database = await scratchDatabase(process.env.DATABASE_URL!, `hearth_faults_${run}`);
    redis = await startPrivateRedis();
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: prefix,
      HOST: '127.0.0.1',
      IMPORT_CHUNK_ROWS: String(CHUNK_ROWS),
      IMPORT_STUCK_AFTER_SECONDS: String(STUCK_AFTER_SECONDS),
      JOB_SCHEDULE_CHECK_SECONDS: '2',
    };
    const ports = [await freePort(), await freePort()];
    const api = ports.map((port, i) => startProcess(`api ${i}`, { ...env, HEARTH_ROLE: 'api', PORT: String(port), LOG_LEVEL: 'warn' }));
    workers = ['worker-a', 'worker-b'].map((name) => startProcess(name, { ...env, HEARTH_ROLE: 'worker', LOG_LEVEL: 'info', WORKER_NAME: name }));
    procs.push(...api, ...workers);
    apis = ports.map((port) => `http://127.0.0.1:${port}`);
    await Promise.all([...api.map((proc, i) => started(proc, apis[i])), ...workers.map((proc) => started(proc))]);
    t = await startTestApp({ DATABASE_URL: database.url, REDIS_URL: redis.url, HEARTH_ROLE: 'api', QUEUE_PREFIX: prefix });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(procs.map(stop));
    await t?.close();
    await redis?.stop();
    await database?.drop();
  }, 60_000);

  const q = (sql: string, params: unknown[] = []) => t.dataSource.query(sql, params);
  /** The workers' log lines saying a schedule was missing from the queue and written again. */
  const restoredLines = () =>
    workers.flatMap((w) => w.logLines()).filter((l) => l.scheduler === 'audit-retention' && String(l.msg).includes('restored')).length;

  /** POST /imports with publish through API `api`, tagged with a request id; returns the import id. */
  async function publish(h: Household, api: number, body: Record<string, unknown>, requestId: string): Promise<string> {
    const res = await request(apis[api]).post('/api/v1/imports').set('X-Api-Key', h.apiKey).set('X-Request-Id', requestId).send({ ...body, publish: 'true' });
    expect([requestId, res.status]).toEqual([requestId, 201]);
    queuedBy.set(res.body.data.id, requestId);
    return res.body.data.id;
  }

  /**
   * Holds `accounts` FOR UPDATE while `start` runs and until `waiters` sessions wait for a lock (workers stopped inside
   * their first chunk, whose entry inserts check the account, or waiting for a publish ahead of them), then runs `meanwhile`
   * and lets them all go.
   */
  async function holdingAccounts(accounts: string[], waiters: number, start: () => Promise<unknown>, meanwhile: () => Promise<void> = async () => undefined) {
    const barrier = new Client({ connectionString: database!.url });
    await barrier.connect();
    try {
      await barrier.query('BEGIN');
      await barrier.query(`SELECT id FROM accounts WHERE id = ANY($1::uuid[]) FOR UPDATE`, [accounts]);
      await start();
      await until(`${waiters} workers held`, async () => {
        const [{ waiting }] = await q(`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        return waiting >= waiters;
      }, 30_000);
      await meanwhile();
      await barrier.query('COMMIT');
    } finally {
      await barrier.end();
    }
  }

  const statuses = async (ids: string[]): Promise<string[]> =>
    (await q(`SELECT status FROM imports WHERE id = ANY($1::uuid[]) ORDER BY id`, [ids])).map((r: { status: string }) => r.status);
  const settled = (ids: string[], timeoutMs: number) =>
    until('the imports to finish', async () => (await statuses(ids)).every((s) => !['pending', 'importing'].includes(s)), timeoutMs);

  it('stores one bank export published twice at once through both APIs once, every row of the later one linked', async () => {
    const h = await t.newHousehold();
    const [{ id: account }] = await q(
      `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, 'Checking', 'Depository', 'asset', 'USD') RETURNING id`,
      [h.familyId],
    );
    const rows = 4 * CHUNK_ROWS;
    const body = { raw_file_content: bankExport('Card', rows), account_id: account, date_format: '%Y-%m-%d' };
    const ids: string[] = await Promise.all(
      [0, 1].map(async (api) => (await request(apis[api]).post('/api/v1/imports').set('X-Api-Key', h.apiKey).send(body).expect(201)).body.data.id),
    );
    // Both publishes let in at once: each worker's first statement on the account waits behind this lock, then both go.
    await holdingAccounts([account], 2, () =>
      Promise.all(
        ids.map(async (id, api) => {
          const requestId = `double-${api}-${run}`;
          await request(apis[api]).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).set('X-Request-Id', requestId).expect(202);
          queuedBy.set(id, requestId);
        }),
      ),
    );
    await settled(ids, 90_000);
    expect(await statuses(ids)).toEqual(['complete', 'complete']);

    const [{ entries, sum }] = await q(`SELECT count(*)::int AS entries, sum(amount_minor)::bigint AS sum FROM entries WHERE account_id = $1`, [account]);
    const expectedSum = Array.from({ length: rows }, (_, i) => ((i % 300) + 1) * 100 + 40).reduce((a, b) => a + b, 0);
    expect({ entries, sum: Math.abs(Number(sum)) }).toEqual({ entries: rows, sum: expectedSum });
    const perImport = await q(
      `SELECT (SELECT count(*)::int FROM entries e WHERE e.import_id = i.id) AS entries,
              (SELECT count(*)::int FROM import_rows r WHERE r.import_id = i.id AND r.duplicate_of IS NOT NULL) AS linked
         FROM imports i WHERE i.id = ANY($1::uuid[])`,
      [ids],
    );
    expect(perImport).toEqual(expect.arrayContaining([{ entries: rows, linked: 0 }, { entries: 0, linked: rows }]));
  });

  it('completes 12 imports queued behind two busy workers for longer than IMPORT_STUCK_AFTER_SECONDS', async () => {
    const h = await t.newHousehold();
    const account = async (name: string) =>
      (await q(`INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, $2, 'Depository', 'asset', 'USD') RETURNING id`, [h.familyId, name]))[0].id as string;
    const [busyA, busyB, target] = [await account('Busy A'), await account('Busy B'), await account('Target')];
    const queued: string[] = [];
    let busy: string[] = [];
    await holdingAccounts([busyA, busyB], 2, async () => {
      busy = await Promise.all(
        [busyA, busyB].map((acct, i) => publish(h, i, { raw_file_content: bankExport(`Busy ${i}`, 50), account_id: acct }, `busy-${i}-${run}`)),
      );
    }, async () => {
      for (let i = 0; i < 12; i++) queued.push(await publish(h, i % 2, { raw_file_content: bankExport(`Queued ${i}`, 40, Date.UTC(2024, i, 1)), account_id: target }, `queued-${i}-${run}`));
      // Held past the stuck timeout and two reaper rounds (every 5 s): the reaper must see a backlog, not lost work.
      await new Promise((resolve) => setTimeout(resolve, (STUCK_AFTER_SECONDS + 12) * 1000));
      expect(await statuses([...busy, ...queued])).toEqual(Array(14).fill('importing'));
    });
    await settled([...busy, ...queued], 120_000);
    expect(await statuses([...busy, ...queued])).toEqual(Array(14).fill('complete'));
    const [{ entries }] = await q(`SELECT count(*)::int AS entries FROM entries WHERE family_id = $1`, [h.familyId]);
    expect(entries).toBe(2 * 50 + 12 * 40);
  }, 180_000);

  it('has the audit-retention schedule back within seconds after Redis restarts empty, and keeps serving', async () => {
    const audit = new Queue(AUDIT_QUEUE, { connection: queueConnection({ backend: 'redis', url: redis.url }) as never, prefix });
    audit.on('error', () => undefined); // refused while Redis is down, as expected
    try {
      const scheduled = async () => Boolean(await audit.getJobScheduler('audit-retention'));
      expect(await until('the schedule written by the workers at start', scheduled, 10_000)).toBe(true);
      const marker = new Redis(redis.url);
      await marker.set(`${prefix}:marker`, 'before the restart');
      marker.disconnect();
      const restoredBefore = restoredLines();
      await redis.stop();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await redis.start();
      const after = new Redis(redis.url);
      try {
        expect(await after.get(`${prefix}:marker`)).toBeNull(); // it came back empty
      } finally {
        after.disconnect();
      }
      expect(await until('the schedule back', scheduled, 20_000)).toBe(true);
      // Put back by a worker, which says so.
      await until('a worker to log the schedule it restored', async () => restoredLines() > restoredBefore, 10_000);
    } finally {
      await audit.close();
    }
    // Both API processes and the workers are back on the new Redis: an import published through each completes.
    const h = await t.newHousehold();
    const [{ id: account }] = await q(
      `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, 'After', 'Depository', 'asset', 'USD') RETURNING id`,
      [h.familyId],
    );
    const ids = [];
    for (const api of [0, 1]) ids.push(await publish(h, api, { raw_file_content: bankExport(`After ${api}`, 20), account_id: account }, `after-${api}-${run}`));
    await settled(ids, 60_000);
    expect(await statuses(ids)).toEqual(['complete', 'complete']);
  }, 90_000);

  it('logs one line at the start and one at the end of every job, in the worker that ran it, with the request that queued it', async () => {
    const ids = [...queuedBy.keys()];
    const jobIds = new Map<string, string>(
      (await q(`SELECT id, job_id FROM imports WHERE id = ANY($1::uuid[])`, [ids])).map((r: { id: string; job_id: string }) => [r.id, r.job_id]),
    );
    const lines = workers.flatMap((w) => w.logLines().filter((l) => l.queue === 'imports' && ids.includes(l.importId as string)));
    const ranBy = new Set<string>();
    expect(ids.length).toBeGreaterThanOrEqual(2 + 2 + 12);
    for (const id of ids) {
      const mine = lines.filter((l) => l.importId === id);
      const start = mine.find((l) => l.msg === 'job started');
      const end = mine.find((l) => l.msg === 'job finished');
      expect({ id, start, end }).toEqual({
        id,
        start: expect.objectContaining({ queue: 'imports', job: 'publish', jobId: jobIds.get(id), familyId: expect.any(String), requestId: queuedBy.get(id), worker: expect.stringMatching(/^worker-[ab]$/) }),
        end: expect.objectContaining({ jobId: jobIds.get(id), requestId: queuedBy.get(id), worker: start?.worker, durationMs: expect.any(Number), rows: expect.any(Number), outcome: 'complete' }),
      });
      ranBy.add(start!.worker as string);
      // Written by the process named in the line.
      expect(workers.find((w) => w.name === start!.worker)!.logLines()).toContain(start);
    }
    expect([...ranBy].sort()).toEqual(['worker-a', 'worker-b']);
  });
});
