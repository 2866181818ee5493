// Benchmark: publishing throughput with one worker process, then two, on the same files in one sitting.
//   DATABASE_URL=postgres://... REDIS_URL=redis://... node tools/bench/workers.mjs
//   BENCH_FILES=8 BENCH_ROWS=10000   files per round and rows per file (each file into its own account)
// The API runs in this process (HEARTH_ROLE=api); the workers are the built service (HEARTH_ROLE=worker), as
// `npm run start:worker` runs it. Each round uploads the files without publishing, then publishes them all at once and
// times from the first publish request to the last import complete: rows per second. The database is a scratch one
// on DATABASE_URL's server, dropped at the end; queues live under a prefix of their own.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Redis from 'ioredis';
import pg from 'pg';
import { startBenchApp } from './bench-app.mjs';

if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
  console.error('workers.mjs needs DATABASE_URL and REDIS_URL: worker processes share one PostgreSQL and one Redis');
  process.exit(2);
}
const FILES = Number(process.env.BENCH_FILES ?? 8);
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const root = join(import.meta.dirname, '../..');
const run = randomUUID().slice(0, 8);
const prefix = `bench-workers-${run}`;

const admin = new URL(process.env.DATABASE_URL);
const scratch = new URL(process.env.DATABASE_URL);
scratch.pathname = `/hearth_bench_workers_${run}`;
const adminSql = async (sql) => {
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};
await adminSql(`CREATE DATABASE ${scratch.pathname.slice(1)}`);

const env = { ...process.env, DATABASE_URL: scratch.toString(), QUEUE_PREFIX: prefix, IMPORT_MAX_ROWS: String(Math.max(ROWS, 10_000)) };
const bench = await startBenchApp({ ...env, HEARTH_ROLE: 'api' });
const workers = [];

/** Starts a worker process and waits until it runs. */
async function startWorker(name) {
  const child = spawn(process.execPath, ['-r', join(root, 'tools/dist.cjs'), join(root, 'dist/api/apps/api/src/main.js')], {
    cwd: root,
    env: { ...env, HEARTH_ROLE: 'worker', LOG_LEVEL: 'info', WORKER_NAME: name },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  workers.push(child);
  // Its start line, at info; after that its log (a line per job) is read and dropped.
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      if (out === null) return;
      out += chunk;
      if (out.includes('Hearth worker running')) {
        out = null;
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it ran: ${out}`)));
  });
}

/** A bank export of ROWS rows over two years, names unique to the file. */
function bankExport(file) {
  const lines = ['Date,Amount,Description,Category'];
  for (let i = 0; i < ROWS; i++) {
    const day = new Date(Date.UTC(2023, 0, 1) + (i % 730) * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${day},${(((i * 7919) % 250_000) - 20_000) / 100},Payee ${file}-${i % 400},${['Groceries', 'Dining', 'Travel', 'Income'][i % 4]}`);
  }
  return lines.join('\n');
}
const files = Array.from({ length: FILES }, (_, f) => bankExport(f));

const api = async (method, path, key, body) => {
  const res = await fetch(`${bench.base}/api/v1${path}`, {
    method,
    headers: { 'X-Api-Key': key, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
};

/** One round: the files uploaded, then published at once; returns rows per second. */
async function round(label) {
  const { family, key } = await bench.newHousehold(label);
  const ids = [];
  for (const [f, csv] of files.entries()) {
    const [{ id: accountId }] = await bench.dataSource.query(
      `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, $2, 'Depository', 'asset', 'USD') RETURNING id`,
      [family.id, `Account ${f}`],
    );
    ids.push((await api('POST', '/imports', key, { raw_file_content: csv, account_id: accountId, date_format: '%Y-%m-%d' })).data.id);
  }
  const started = performance.now();
  await Promise.all(ids.map((id) => api('POST', `/imports/${id}/publish`, key)));
  for (;;) {
    const statuses = await bench.dataSource.query(`SELECT status FROM imports WHERE id = ANY($1::uuid[])`, [ids]);
    const failed = statuses.filter((s) => !['importing', 'complete'].includes(s.status));
    if (failed.length) throw new Error(`${failed.length} imports ended ${failed[0].status}`);
    if (statuses.every((s) => s.status === 'complete')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  const [{ entries }] = await bench.dataSource.query(`SELECT count(*)::int AS entries FROM entries WHERE family_id = $1`, [family.id]);
  if (entries !== FILES * ROWS) throw new Error(`expected ${FILES * ROWS} entries, found ${entries}`);
  // The next round starts from the same tables, their dead rows gone.
  await bench.deleteFamily(family.id);
  await bench.dataSource.query('VACUUM (ANALYZE) import_rows, imports, entries, transactions, taggings');
  return { seconds, rowsPerSecond: (FILES * ROWS) / seconds };
}

try {
  await startWorker('bench-worker-1');
  const one = await round('One worker');
  await startWorker('bench-worker-2');
  const two = await round('Two workers');
  console.log(`workers (PostgreSQL + Redis): ${FILES} files of ${ROWS} rows, each into its own account, published at once`);
  console.log(`  1 worker:  ${one.seconds.toFixed(2)} s, ${Math.round(one.rowsPerSecond)} rows/s`);
  console.log(`  2 workers: ${two.seconds.toFixed(2)} s, ${Math.round(two.rowsPerSecond)} rows/s`);
  console.log(`  ratio (2 workers / 1 worker): ${(two.rowsPerSecond / one.rowsPerSecond).toFixed(2)}`);
} finally {
  for (const child of workers) child.kill('SIGTERM');
  await Promise.all(workers.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null)));
  await bench.close();
  await adminSql(`DROP DATABASE IF EXISTS ${scratch.pathname.slice(1)} WITH (FORCE)`);
  const redis = new Redis(process.env.REDIS_URL);
  for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 })) if (keys.length) await redis.del(...keys);
  redis.disconnect();
}
