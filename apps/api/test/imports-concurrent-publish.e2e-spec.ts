import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import request from 'supertest';
import { ImportsProcessor } from '../src/imports/imports.processor';
import { IMPORTS_QUEUE } from '../src/imports/imports.queue';
import { ImportPublisher, REAPED_PUBLISH } from '../src/imports/publishing/import-publisher';
import { createImport, newAccount, waitForImport } from './support/imports';
import { Household, startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';

// Publishes of one account at once, and the reaper against a queue backlog, in one process on either engine (the
// multi-process versions are in scale-out-faults.e2e-spec.ts).

/** A bank export of `rows` rows, one a day from 2023-01-01 (so each chunk is dated after the one before), unique names. */
function bankExport(rows: number): string {
  const lines = ['date,amount,name'];
  for (let i = 0; i < rows; i++) lines.push(`${new Date(Date.UTC(2023, 0, 1 + i)).toISOString().slice(0, 10)},-${(i % 90) + 1}.25,Shop ${i}`);
  return lines.join('\n');
}

describe('imports: concurrent publishes into one account, and the reaper against a backlog', () => {
  let t: TestApp;
  // Chunks of 10 rows: a 60-row file publishes in six transactions, which two publishes at once interleave.
  beforeAll(async () => {
    t = await startTestApp({ IMPORT_CHUNK_ROWS: '10', IMPORT_STUCK_AFTER_SECONDS: '10' });
  });
  afterAll(() => t.close());

  const q = (sql: string, params: unknown[] = []) => t.dataSource.query(sql, params);
  const detail = async (h: Household, id: string) => (await request(t.server).get(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).expect(200)).body.data;
  const queue = () => t.app.get<Queue>(getQueueToken(IMPORTS_QUEUE));

  /** Per import: entries it created and rows it linked to an existing entry. */
  const outcome = (ids: string[]) =>
    q(
      `SELECT i.id, (SELECT count(*)::int FROM entries e WHERE e.import_id = i.id) AS entries,
              (SELECT count(*)::int FROM import_rows r WHERE r.import_id = i.id AND r.duplicate_of IS NOT NULL) AS linked
         FROM imports i WHERE i.id = ANY($1::uuid[])`,
      [ids],
    );

  it('stores the same bank export published twice at once once, every row of the later one linked to the earlier', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const csv = bankExport(60);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await createImport(t.server, h.apiKey, { raw_file_content: csv, account_id: account }).expect(201)).body.data.id);
    // Both importing, both delivered at once, as two workers would take them.
    await q(`UPDATE imports SET status = 'importing' WHERE id = ANY($1::uuid[])`, [ids]);
    const publisher = t.app.get(ImportPublisher);
    const results = await Promise.all(ids.map((importId) => publisher.publish({ importId, familyId: h.familyId })));

    expect(results.map((r) => r.outcome)).toEqual(['complete', 'complete']);
    const [{ total }] = await q(`SELECT count(*)::int AS total FROM entries WHERE account_id = $1`, [account]);
    expect(total).toBe(60);
    const rows = (await outcome(ids)).map(({ entries, linked }: { entries: number; linked: number }) => ({ entries, linked }));
    expect(rows).toEqual(expect.arrayContaining([{ entries: 60, linked: 0 }, { entries: 0, linked: 60 }]));
  });

  it('leaves an import whose job waits in the queue past IMPORT_STUCK_AFTER_SECONDS alone; it completes once delivered', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    await queue().pause();
    let id: string;
    try {
      id = (await createImport(t.server, h.apiKey, { raw_file_content: bankExport(15), account_id: account, publish: 'true' }).expect(201)).body.data.id;
      // A backlog: the job has waited for an hour.
      await q(`UPDATE imports SET updated_at = now() - interval '1 hour' WHERE id = $1`, [id]);
      await t.app.get(ImportsProcessor).reap();
      expect(await detail(h, id)).toMatchObject({ status: 'importing', error: null });
    } finally {
      await queue().resume();
    }
    expect(await waitForImport(t.server, h.apiKey, id)).toMatchObject({ status: 'complete', error: null });
    expect((await outcome([id]))[0]).toMatchObject({ entries: 15 });
  });

  it('fails an import whose job the queue lost, and a delivery of that job later runs nothing and says so', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    await queue().pause();
    let id: string;
    let job: { id: string; data: { importId: string; familyId: string } };
    try {
      id = (await createImport(t.server, h.apiKey, { raw_file_content: bankExport(15), account_id: account, publish: 'true' }).expect(201)).body.data.id;
      const [{ job_id: jobId }] = await q(`SELECT job_id FROM imports WHERE id = $1`, [id]);
      const queued = await queue().getJob(jobId);
      job = { id: jobId, data: queued!.data };
      // Lost, as with a Redis restarted without persistence.
      await queued!.remove();
      await q(`UPDATE imports SET updated_at = now() - interval '1 hour' WHERE id = $1`, [id]);
      await t.app.get(ImportsProcessor).reap();
      expect(await detail(h, id)).toMatchObject({ status: 'failed', error: REAPED_PUBLISH });
    } finally {
      await queue().resume();
    }

    const late = await t.app.get(ImportPublisher).publish(job.data, job.id);
    expect(late).toEqual({ outcome: 'late', rows: 0 });
    const after = await detail(h, id);
    expect(after).toMatchObject({ status: 'failed', error: `${REAPED_PUBLISH} Its queued job came back later and was not run.` });
    expect((await outcome([id]))[0]).toMatchObject({ entries: 0 });

    await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect(await waitForImport(t.server, h.apiKey, id)).toMatchObject({ status: 'complete', error: null });
  });

  // A revert held inside its transaction needs a second connection to hold it: PostgreSQL only.
  (process.env.DATABASE_URL ? it : it.skip)('neither waits for nor fails a revert that runs longer than IMPORT_STUCK_AFTER_SECONDS', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const id = (await createImport(t.server, h.apiKey, { raw_file_content: bankExport(15), account_id: account, publish: 'true' }).expect(201)).body.data.id;
    expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
    // The revert stops at the first entry it deletes, holding its import row (LOCK_REVERT) meanwhile.
    const barrier = t.dataSource.createQueryRunner();
    await barrier.connect();
    try {
      await barrier.startTransaction();
      await barrier.query(`SELECT id FROM entries WHERE import_id = $1 LIMIT 1 FOR UPDATE`, [id]);
      await request(t.server).post(`/api/v1/imports/${id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
      await until('the revert held at the barrier', async () => {
        const [{ waiting }] = await q(`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'DELETE FROM entries%'`);
        return waiting === 1;
      });
      // Past IMPORT_STUCK_AFTER_SECONDS (10) since the revert started: only its held row says it is alive.
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      const round = await Promise.race([t.app.get(ImportsProcessor).reap().then(() => 'done'), new Promise((resolve) => setTimeout(() => resolve('blocked'), 5_000))]);
      expect(round).toBe('done');
      expect((await q(`SELECT status FROM imports WHERE id = $1`, [id]))[0].status).toBe('reverting');
      await barrier.commitTransaction();
    } finally {
      await barrier.release();
    }
    expect(await waitForImport(t.server, h.apiKey, id)).toMatchObject({ status: 'pending', error: null });
  });

  it('leaves a started publish that went silent alone while its job is back in the queue, and fails it once the job is gone', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const id = (await createImport(t.server, h.apiKey, { raw_file_content: bankExport(15), account_id: account }).expect(201)).body.data.id;
    await queue().pause();
    try {
      await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      const [{ job_id: jobId }] = await q(`SELECT job_id FROM imports WHERE id = $1`, [id]);
      expect(await queue().getJobState(jobId)).toBe('waiting');
      // Started long ago and silent since: a worker that vanished mid-publish.
      await q(`UPDATE imports SET heartbeat_at = now() - interval '1 hour', updated_at = now() - interval '1 hour' WHERE id = $1`, [id]);
      await t.app.get(ImportsProcessor).reap();
      // Still waiting in the queue (a stalled job goes back there): left alone.
      expect((await detail(h, id)).status).toBe('importing');
      await queue().remove(jobId);
      await t.app.get(ImportsProcessor).reap();
      expect(await detail(h, id)).toMatchObject({ status: 'failed', error: REAPED_PUBLISH });
    } finally {
      await queue().resume();
    }
    await until('no import left importing', async () => (await detail(h, id)).status === 'failed');
  });
});
