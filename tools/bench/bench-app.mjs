// The compiled API in the benchmark's own process, on DATABASE_URL / REDIS_URL or the embedded engines, with a
// household whose admin holds a read-write API key. Shared by every script under tools/bench.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { buildApi } from '../build.mjs';

const require = createRequire(import.meta.url);
await buildApi();
const { requireDist } = require('../dist.cjs');
const { loadConfig } = requireDist('apps/api/src/config/config');
const { createLogger } = requireDist('apps/api/src/common/logger');
const { startRuntime } = requireDist('apps/api/src/runtime');
const { createApp } = requireDist('apps/api/src/app');
const { UsersService } = requireDist('apps/api/src/users/users.service');
const { ApiKeysService } = requireDist('apps/api/src/auth/api-keys.service');
const { DataSource } = require('typeorm');

export { requireDist };

/** The engines the figures were taken on, for the first line of a report. */
export const engineName = () =>
  process.env.DATABASE_URL ? `PostgreSQL + ${process.env.REDIS_URL ? 'Redis' : 'PostgreSQL queue'}` : 'embedded PGlite';

/**
 * Starts the app with `env` over process.env (a private queue prefix, warnings only). With `listen` it serves HTTP
 * on a free loopback port; without, it only initialises (for seeding).
 */
export async function startBenchApp(env = {}, { listen = true } = {}) {
  const config = loadConfig({ LOG_LEVEL: 'warn', DATA_DIR: 'memory://', QUEUE_PREFIX: `bench-${process.pid}`, ...process.env, ...env });
  const logger = createLogger(config.logLevel);
  const runtime = await startRuntime(config, logger);
  const app = await createApp(config, runtime, logger);
  if (listen) await app.listen(0, '127.0.0.1');
  else await app.init();
  const dataSource = app.get(DataSource);
  return {
    app,
    dataSource,
    base: listen ? `http://127.0.0.1:${app.getHttpServer().address().port}` : null,
    /** A new family (USD) with an admin and a read-write API key. */
    async newHousehold(name = 'Bench') {
      const { user, family } = await app.get(UsersService).create({
        email: `bench-${randomUUID()}@example.com`,
        password: 'bench password 123',
        role: 'admin',
        familyName: `${name} ${randomUUID()}`,
        currency: 'USD',
      });
      const { key } = await app.get(ApiKeysService).create({ userId: user.id, name: 'bench', scope: 'read_write' });
      return { user, family, key };
    },
    /** Deletes a family and everything that cascades from it, however long that takes. */
    async deleteFamily(familyId) {
      await dataSource.transaction(async (tx) => {
        await tx.query(`SET LOCAL statement_timeout = 0`);
        await tx.query(`DELETE FROM families WHERE id = $1`, [familyId]);
      });
    },
    async close() {
      await app.close();
      await runtime.stop();
    },
  };
}

/** POSTs an import with publish, then polls it until `complete`; times both. */
export async function importThroughApi(base, apiKey, body) {
  const started = performance.now();
  const res = await fetch(`${base}/api/v1/imports`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Api-Key': apiKey },
    body: JSON.stringify({ ...body, publish: 'true' }),
  });
  const created = await res.json();
  if (res.status !== 201) throw new Error(`POST answered ${res.status}: ${JSON.stringify(created)}`);
  const accepted = performance.now() - started;
  const detail = await settled(base, apiKey, created.data.id, 'importing', 'complete');
  return { total: performance.now() - started, accepted, id: created.data.id, detail };
}

/** POSTs a revert, then polls the import until it is `pending` again; returns the time taken. */
export async function revertThroughApi(base, apiKey, id) {
  const started = performance.now();
  const res = await fetch(`${base}/api/v1/imports/${id}/revert`, { method: 'POST', headers: { 'X-Api-Key': apiKey } });
  if (res.status !== 202) throw new Error(`revert answered ${res.status}: ${await res.text()}`);
  await settled(base, apiKey, id, 'reverting', 'pending');
  return performance.now() - started;
}

/** Polls the import while it is `busy`; returns its detail once `done`, and throws on any other status. */
async function settled(base, apiKey, id, busy, done) {
  for (;;) {
    const detail = (await (await fetch(`${base}/api/v1/imports/${id}`, { headers: { 'X-Api-Key': apiKey } })).json()).data;
    if (detail.status === done) return detail;
    if (detail.status !== busy) throw new Error(`import ${id} ended ${detail.status}, not ${done}: ${detail.error}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Median and p99 of `fn` over `calls` calls after `warmup` untimed ones; `before` runs untimed ahead of each timed call. */
export async function timeCalls(calls, fn, { warmup, before = async () => {} }) {
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  for (let i = 0; i < calls; i++) {
    await before();
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { median: percentile(samples, 50), p99: percentile(samples, 99) };
}
