// The faults of README.md, each against the running server with exact post-conditions. A scenario records
// checks (name, ok, detail) and the counts it saw; any failed check or a timeout fails it.
import { CHUNK_ROWS, STUCK_AFTER_SECONDS } from './harness.mjs';
import { portOpen, sleep, until } from './infra.mjs';

const SETTLE_MS = 90_000; // enough for a stalled-job redelivery (BullMQ lock 30 s) or the reaper
const REAPER_MESSAGE = /interrupted/i;

class Checks {
  constructor() {
    this.list = [];
  }
  add(name, ok, detail = '') {
    this.list.push({ name, ok: Boolean(ok), detail: typeof detail === 'string' ? detail : JSON.stringify(detail) });
    return ok;
  }
}

/** Nothing lost, nothing duplicated: the import's rows became exactly one transaction each, with the CSV's amounts. */
async function exactlyPublished(h, c, id, expected, label = 'import') {
  const s = await h.state(id);
  c.add(`${label}: status complete, no error`, s.status === 'complete' && !s.error, { status: s.status, error: s.error });
  c.add(`${label}: entries == CSV rows (${expected.rows})`, s.entries === expected.rows, { entries: s.entries });
  c.add(`${label}: transactions == CSV rows`, s.transactions === expected.rows, { transactions: s.transactions });
  c.add(`${label}: every row once (distinct names)`, s.distinctNames === expected.rows, { distinctNames: s.distinctNames });
  c.add(`${label}: amounts sum matches the CSV`, Math.abs(s.amountMinorSum) === Math.abs(expected.amountMinorSum), {
    db: s.amountMinorSum,
    csv: expected.amountMinorSum,
  });
  return s;
}

/** Committed work is whole chunks: what is in the database matches the resume point, never a part of a chunk. */
async function wholeChunks(h, c, id, expectedEntries, label) {
  const s = await h.state(id);
  const through = await h.sql(`SELECT count(*)::int AS n FROM import_rows WHERE import_id = $1 AND source_row_number <= $2`, [id, s.publishedThroughRow]);
  c.add(`${label}: ${expectedEntries} entries committed, matching the resume point`, s.entries === expectedEntries && through[0].n === expectedEntries, {
    entries: s.entries,
    rowsUpToResumePoint: through[0].n,
  });
  return s;
}

/** A failed import must say so truthfully, with a user-facing message that tells how to go on. */
function truthfulFailure(c, data, label) {
  return c.add(`${label}: failed with a user-facing error that says to publish again`, data.status === 'failed' && /publish again/i.test(data.error ?? '') && !/SELECT|INSERT|QueryFailed|ECONN|at \w+ \(/.test(data.error ?? ''), {
    status: data.status,
    error: data.error,
  });
}

async function publishAndComplete(h, c, id, label = 'publish again') {
  const res = await h.api('POST', `/api/v1/imports/${id}/publish`);
  c.add(`${label}: 202`, res.status === 202, { status: res.status, body: res.body });
  const data = await h.waitSettled(id, SETTLE_MS);
  return data;
}

/** Rows 1..split in account A, the rest in account B: a lock on B stops the worker inside chunk 2. */
async function twoAccountImport(h, tag, rows, split) {
  const a = `${tag} A`;
  const b = `${tag} B`;
  const accountA = await h.newAccount(a);
  const accountB = await h.newAccount(b);
  const created = await h.createImport(tag, rows, (i) => (i <= split ? a : b));
  if (created.res.status !== 201) throw new Error(`create ${tag}: ${created.res.status} ${JSON.stringify(created.res.body)}`);
  return { ...created, accountA, accountB };
}

const lockAccount = (h, accountId) => h.holdLock(`SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]);

/** A worker killed or failed mid-publish: it recovers by itself (stalled-job redelivery) or the reaper fails it truthfully. */
async function recoverAfterInterruption(h, c, id, expected, label) {
  const settled = await h.waitSettled(id, SETTLE_MS);
  let recovered = settled.status === 'complete' ? 'redelivered job completed it' : `status ${settled.status}`;
  if (settled.status !== 'complete') {
    truthfulFailure(c, settled, label);
    const again = await publishAndComplete(h, c, id);
    recovered = `${settled.status} (${REAPER_MESSAGE.test(settled.error ?? '') ? 'reaper' : 'worker'}), publish again -> ${again.status}`;
  }
  await exactlyPublished(h, c, id, expected);
  return recovered;
}

/**
 * Publishes `imp` with the worker stopped at a row lock on `lockedAccount`, lets `moveOn` advance it to the barrier it
 * is killed at (the lock itself by default), kills the worker with -9 there, restarts it, and checks that the import
 * was still importing with `committedAtKill` rows committed and then recovers exactly.
 */
async function killWorkerMidPublish(h, c, imp, { lockedAccount, committedAtKill, moveOn = async (barrier) => barrier }) {
  const first = await lockAccount(h, lockedAccount);
  const pub = await h.api('POST', `/api/v1/imports/${imp.id}/publish`);
  c.add('publish: 202', pub.status === 202, pub.status);
  await h.blockedBy(first.pid);
  const barrier = await moveOn(first);
  await h.killWorker();
  // The crash comes before the worker's waiting statement (after the last chunk: the status update) was sent.
  await h.terminateBlockedBy(barrier.pid);
  await barrier.release();
  await sleep(500);
  const s = await wholeChunks(h, c, imp.id, committedAtKill, 'after kill -9');
  c.add('after kill -9: still importing (no worker has said otherwise)', s.status === 'importing', s.status);
  await h.restartWorker();
  const note = `${s.entries} rows committed at the kill; ` + (await recoverAfterInterruption(h, c, imp.id, imp.expected, 'after restart'));
  return { id: imp.id, expected: imp.expected, note, state: await h.state(imp.id) };
}

export const SCENARIOS = [
  {
    key: 'redis-stop-at-publish',
    title: 'Redis stopped at publish, then started again (J108)',
    async run(h, c) {
      const tag = 'redis-down';
      await h.newAccount(`${tag} acct`);
      const a = await h.createImport(`${tag} later`, 3 * CHUNK_ROWS, () => `${tag} acct`);
      c.add('import created while Redis is up: 201 pending', a.res.status === 201 && a.res.body.data.status === 'pending', a.res.status);
      await h.redis.stop();
      const pub = await h.api('POST', `/api/v1/imports/${a.id}/publish`);
      c.add('publish with Redis down: 500 publish_failed with import_id within 3 s', pub.status === 500 && pub.body.error === 'publish_failed' && pub.body.import_id === a.id && pub.ms < 3_000, {
        status: pub.status,
        body: pub.body,
        ms: pub.ms,
      });
      const b = await h.createImport(`${tag} at create`, 50, () => `${tag} acct`, { publish: 'true' });
      c.add('create with publish=true and Redis down: 500 publish_failed with import_id within 3 s', b.res.status === 500 && b.res.body.error === 'publish_failed' && Boolean(b.id) && b.res.ms < 3_000, {
        status: b.res.status,
        body: b.res.body,
        ms: b.res.ms,
      });
      for (const [label, id] of [['published import', a.id], ['created import', b.id]]) {
        if (!id) continue;
        const s = await h.state(id);
        c.add(`${label}: back to pending with nothing written`, s.status === 'pending' && s.entries === 0, s);
      }
      await h.redis.start();
      await h.waitHealthy();
      await h.waitWorkers(h.workerNames().length);
      await sleep(2_000); // a job the client buffered while Redis was down would run now
      for (const [label, id] of [['published import', a.id], ['created import', b.id]]) {
        if (!id) continue;
        const s = await h.state(id);
        c.add(`${label}: still pending after Redis returned (no ghost job ran it)`, s.status === 'pending' && s.entries === 0, s);
      }
      await publishAndComplete(h, c, a.id, 'publish again after Redis returned');
      if (b.id) await publishAndComplete(h, c, b.id, 'publish the created import after Redis returned');
      if (b.id) await exactlyPublished(h, c, b.id, b.expected, 'created import');
      const note = `publish answered ${pub.status} in ${pub.ms} ms, create+publish ${b.res.status} in ${b.res.ms} ms; both published once Redis returned`;
      return { id: a.id, expected: a.expected, note, state: await exactlyPublished(h, c, a.id, a.expected, 'published import') };
    },
  },
  {
    key: 'postgres-restart-mid-import',
    title: 'PostgreSQL restarted (immediate) mid-import (J110)',
    async run(h, c) {
      const imp = await twoAccountImport(h, 'pg-restart', 5 * CHUNK_ROWS, CHUNK_ROWS);
      const barrier = await lockAccount(h, imp.accountB);
      const pub = await h.api('POST', `/api/v1/imports/${imp.id}/publish`);
      c.add('publish: 202', pub.status === 202, pub.status);
      await h.blockedBy(barrier.pid);
      await wholeChunks(h, c, imp.id, CHUNK_ROWS, 'worker inside chunk 2');
      h.postgres.restartImmediate();
      const kept = await until('PostgreSQL back', () => h.state(imp.id), 30_000, 100);
      await barrier.release();
      const settled = await h.waitSettled(imp.id, SETTLE_MS);
      const after = await wholeChunks(h, c, imp.id, settled.status === 'complete' ? imp.expected.rows : CHUNK_ROWS, 'after the restart');
      let note = `${kept.entries} rows kept after the restart; settled ${settled.status}`;
      if (settled.status !== 'complete') {
        truthfulFailure(c, settled, 'after the restart');
        c.add('after the restart: settled by the worker, not left for the reaper', !REAPER_MESSAGE.test(settled.error ?? ''), settled.error);
        note += ` (${after.entries} rows kept)`;
        const again = await publishAndComplete(h, c, imp.id);
        note += `, publish again -> ${again.status}`;
      }
      return { id: imp.id, expected: imp.expected, note, state: await exactlyPublished(h, c, imp.id, imp.expected) };
    },
  },
  {
    key: 'kill9-before-chunk-commit',
    title: 'kill -9 of the worker inside chunk 1, before its commit (J111)',
    async run(h, c) {
      const imp = await twoAccountImport(h, 'kill-before', 4 * CHUNK_ROWS, CHUNK_ROWS);
      return killWorkerMidPublish(h, c, imp, { lockedAccount: imp.accountA, committedAtKill: 0 });
    },
  },
  {
    key: 'kill9-after-chunk-commit',
    title: 'kill -9 of the worker after chunk 1 committed, inside chunk 2 (J111)',
    async run(h, c) {
      const imp = await twoAccountImport(h, 'kill-after', 4 * CHUNK_ROWS, CHUNK_ROWS);
      return killWorkerMidPublish(h, c, imp, { lockedAccount: imp.accountB, committedAtKill: CHUNK_ROWS });
    },
  },
  {
    key: 'kill9-after-last-commit',
    title: 'kill -9 of the worker after the last chunk committed, before the status update (J112)',
    async run(h, c) {
      const rows = 3 * CHUNK_ROWS;
      const imp = await twoAccountImport(h, 'kill-last', rows, rows - CHUNK_ROWS);
      return killWorkerMidPublish(h, c, imp, {
        lockedAccount: imp.accountB, // the worker inside the last chunk (it holds the import row)
        committedAtKill: rows,
        // Queue behind the worker for the imports table: a table lock queue is fair (a row lock is not: the worker
        // would relock the row's new version first), so once the last chunk commits, the worker waits for us.
        async moveOn(first) {
          const second = await h.holdLock(`LOCK TABLE imports IN EXCLUSIVE MODE`, []);
          await until('the second barrier to queue behind the worker', async () => (await h.sql(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`, [second.pid])).length, 10_000, 50);
          await first.release();
          await second.locked;
          await h.blockedBy(second.pid);
          return second;
        },
      });
    },
  },
  {
    key: 'duplicate-delivery',
    title: 'duplicate job delivery: the same publish job enqueued twice, two workers (J113, J115)',
    async run(h, c) {
      const tag = 'duplicate';
      const rows = 4 * CHUNK_ROWS;
      // The account and categories are created at publish: two publishers racing would create them twice.
      const imp = await h.createImport(tag, rows, () => `${tag} new account`);
      if (imp.res.status !== 201) throw new Error(`create: ${imp.res.status}`);
      await h.startWorker('worker2');
      // Both publishers stop at their first write (the new account references the family row).
      const barrier = await h.holdLock(`SELECT id FROM families WHERE id = $1 FOR UPDATE`, [h.familyId]);
      const pub = await h.api('POST', `/api/v1/imports/${imp.id}/publish`);
      c.add('publish: 202', pub.status === 202, pub.status);
      const data = { importId: imp.id, familyId: h.familyId };
      const first = await h.queue.add('publish', data, { jobId: `dup-${imp.id}` });
      const again = await h.queue.add('publish', data, { jobId: `dup-${imp.id}` });
      c.add('the same jobId enqueued twice is one job', first.id === again.id, { first: first.id, again: again.id });
      // Both publishers waiting on the barrier; the later one has taken the publish over, and the earlier stops at
      // its first chunk. Released well within IMPORT_STUCK_AFTER_SECONDS so the reaper does not take a waiting
      // publisher for a lost one.
      await h.blockedBy(barrier.pid, 1, 4_000);
      const waiting = async () =>
        (await h.sql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1`, [barrier.pid]))[0].n;
      const blocked = await until('both publishers waiting', async () => ((await waiting()) >= 2 ? 2 : 0), 3_000, 50).catch(waiting);
      await barrier.release();
      const settled = await h.waitSettled(imp.id, SETTLE_MS);
      const jobs = await h.publishJobs(imp.id);
      const accounts = await h.sql(`SELECT count(*)::int AS n FROM accounts WHERE family_id = $1 AND name = $2`, [h.familyId, `${tag} new account`]);
      c.add('the account named in the CSV exists once', accounts[0].n === 1, { accounts: accounts[0].n });
      c.add('two deliveries of the job, both settled', jobs.length === 2, jobs.map((j) => j.id));
      await h.stopProcess('worker2');
      return {
        id: imp.id,
        expected: imp.expected,
        note: `${blocked} publishers waiting at the barrier; ${jobs.length} jobs; status ${settled.status}`,
        state: await exactlyPublished(h, c, imp.id, imp.expected),
      };
    },
  },
  {
    key: 'parallel-publish-20',
    title: '20 parallel publishes of one import (J114)',
    async run(h, c) {
      const tag = 'parallel';
      await h.newAccount(`${tag} acct`);
      const imp = await h.createImport(tag, 3 * CHUNK_ROWS, () => `${tag} acct`);
      const responses = await Promise.all(Array.from({ length: 20 }, () => h.api('POST', `/api/v1/imports/${imp.id}/publish`)));
      const accepted = responses.filter((r) => r.status === 202).length;
      const refused = responses.filter((r) => [409, 422].includes(r.status) && r.body.import_id === imp.id && typeof r.body.error === 'string');
      c.add('exactly one 202', accepted === 1, responses.map((r) => r.status).join(' '));
      c.add('the other 19 refused with 409/422, an error code and import_id', refused.length === 19, [...new Set(responses.map((r) => `${r.status} ${r.body.error}`))]);
      await h.waitSettled(imp.id, SETTLE_MS);
      const jobs = await h.publishJobs(imp.id);
      c.add('one publish job in the queue', jobs.length === 1, { jobs: jobs.length });
      return { id: imp.id, expected: imp.expected, note: `1 accepted, ${refused.length} refused (${refused[0]?.status} ${refused[0]?.body.error})`, state: await exactlyPublished(h, c, imp.id, imp.expected) };
    },
  },
  {
    key: 'revert-after-partial-failure',
    title: 'revert after a partial failure (worker connection killed in chunk 2) (J110, J116)',
    async run(h, c) {
      const imp = await twoAccountImport(h, 'revert-partial', 4 * CHUNK_ROWS, CHUNK_ROWS);
      const barrier = await lockAccount(h, imp.accountB);
      const pub = await h.api('POST', `/api/v1/imports/${imp.id}/publish`);
      c.add('publish: 202', pub.status === 202, pub.status);
      // Chunk 2 and chunk 3, which starts beside it once chunk 1 commits, both wait at the barrier: end both.
      await h.blockedBy(barrier.pid, 2);
      await h.terminateBlockedBy(barrier.pid);
      await barrier.release();
      const failed = await h.waitSettled(imp.id, SETTLE_MS);
      truthfulFailure(c, failed, 'partial failure');
      await wholeChunks(h, c, imp.id, CHUNK_ROWS, 'partial failure');
      c.add('partial failure: status_detail says it can be reverted', failed.status_detail?.revertable === true, failed.status_detail);
      const revert = await h.api('POST', `/api/v1/imports/${imp.id}/revert`);
      c.add('revert of the partially published import: 202', revert.status === 202, { status: revert.status, body: revert.body });
      let note = `failed with ${CHUNK_ROWS} rows kept; revert ${revert.status}`;
      if (revert.status === 202) {
        const reverted = await h.waitSettled(imp.id, SETTLE_MS);
        const s = await h.state(imp.id);
        c.add('after revert: pending, 0 entries, resume point reset', reverted.status === 'pending' && s.entries === 0 && s.publishedThroughRow === 0, s);
        const untouched = await h.sql(`SELECT count(*)::int AS n FROM accounts WHERE id = ANY($1)`, [[imp.accountA, imp.accountB]]);
        c.add('after revert: the accounts it did not create are kept', untouched[0].n === 2, untouched[0]);
        note += ` -> ${reverted.status}`;
      }
      const again = await publishAndComplete(h, c, imp.id);
      note += `, publish again -> ${again.status}`;
      return { id: imp.id, expected: imp.expected, note, state: await exactlyPublished(h, c, imp.id, imp.expected) };
    },
  },
  {
    key: 'lost-job-reaper',
    title: `job lost with a Redis restart (no persistence), cleared by the reaper (J117; IMPORT_STUCK_AFTER_SECONDS=${STUCK_AFTER_SECONDS})`,
    async run(h, c) {
      // The worker is busy on import X (held at a barrier) while Y's job waits in Redis; Redis restarts empty.
      const x = await twoAccountImport(h, 'busy', 2 * CHUNK_ROWS, 2 * CHUNK_ROWS);
      await h.newAccount('lost acct');
      const y = await h.createImport('lost', 2 * CHUNK_ROWS, () => 'lost acct');
      const barrier = await lockAccount(h, x.accountA);
      c.add('publish X: 202', (await h.api('POST', `/api/v1/imports/${x.id}/publish`)).status === 202);
      await h.blockedBy(barrier.pid);
      c.add('publish Y: 202', (await h.api('POST', `/api/v1/imports/${y.id}/publish`)).status === 202);
      c.add("Y's job waits in the queue", (await h.publishJobs(y.id)).length === 1);
      await h.redis.stop();
      await h.redis.start();
      await barrier.release();
      await h.waitHealthy();
      await h.waitSettled(x.id, SETTLE_MS);
      await exactlyPublished(h, c, x.id, x.expected, 'busy import X');
      const started = Date.now();
      const reaped = await h.waitSettled(y.id, (STUCK_AFTER_SECONDS + 60) * 1000);
      const seconds = Math.round((Date.now() - started) / 1000);
      c.add(`Y reaped within ${STUCK_AFTER_SECONDS} s + the reaper interval`, seconds <= STUCK_AFTER_SECONDS * 3, { seconds });
      truthfulFailure(c, reaped, 'lost job');
      const s = await h.state(y.id);
      c.add('lost job: nothing written', s.entries === 0, s);
      const again = await publishAndComplete(h, c, y.id);
      return { id: y.id, expected: y.expected, note: `reaped after ${seconds}s -> ${reaped.status}, publish again -> ${again.status}`, state: await exactlyPublished(h, c, y.id, y.expected) };
    },
  },
];

export { Checks, exactlyPublished, portOpen };
