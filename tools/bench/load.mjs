// Load benchmark (docs/performance.md#loadmjs-one-api-process-under-load): autocannon against one API process on PostgreSQL + Redis, the API pinned to
// core 0 and the load generator to core 1 (taskset), loopback only. Endpoints: GET /api/v1/budgets/{id} (API key, a
// household with a few thousand transactions in the month), POST /api/v1/imports (small CSV, no publish) and, as the
// baseline measured in the same run, the bare GET /api/v1/health.
//   1. max rate: closed loop, LOAD_CONNECTIONS connections for LOAD_SECONDS each;
//   2. each endpoint at 80 % of its own max rate (fixed offered load) for LOAD_SECONDS: req/s, p50, p99.
// Goals it checks: budgets at >= 50 % of the bare endpoint's max req/s, and p99 < 50 ms at 80 % of its max rate.
//   DATABASE_URL=postgres://... REDIS_URL=redis://... node tools/bench/load.mjs
//   LOAD_SECONDS=10 LOAD_CONNECTIONS=10 LOAD_ENTRIES=40000 ...   phase length, connections, entries seeded over a year
//   LOAD_KEEP=1 keeps the seeded family; LOAD_API_NODE_ARGS="--cpu-prof --cpu-prof-dir=tmp/prof" profiles the API process
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { startBenchApp } from './bench-app.mjs';
import { seedHousehold } from './seed-household.mjs';

if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
  console.error(`Usage: DATABASE_URL=postgres://user@127.0.0.1:5432/db REDIS_URL=redis://127.0.0.1:6379/0 node tools/bench/load.mjs

Runs one API process on PostgreSQL + Redis pinned to core 0 and autocannon pinned to core 1 (taskset), against
127.0.0.1 only; each phase lasts LOAD_SECONDS (default 10). Both URLs are required: the figures are for that setup.`);
  process.exit(2);
}

const SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 10);
const ENTRIES = Number(process.env.LOAD_ENTRIES ?? 40_000); // over 2024: ~3,300 in each month
const WARMUP_SECONDS = 3;
const root = new URL('../..', import.meta.url).pathname;
const cores = availableParallelism();
const pin = (core, command, args) => (cores >= 2 ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]);

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const env = {
  ...process.env,
  NODE_ENV: 'production',
  SECRET_KEY_BASE: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'warn',
  QUEUE_PREFIX: `load-${process.pid}`,
  HEARTH_ROLE: 'api', // the pinned process serves HTTP only; nothing here is published
};

// 1. Seed through an in-process app (no HTTP traffic, no workers), then close it.
const seeder = await startBenchApp(env, { listen: false });
const { dataSource } = seeder;
const { family, key } = await seeder.newHousehold('Load bench');
await seedHousehold(dataSource, family.id, { entries: ENTRIES, days: 366, start: '2024-01-01' });
const [{ id: accountId }] = await dataSource.query(`SELECT id FROM accounts WHERE family_id = $1 AND name = 'Checking'`, [family.id]);

let api;
const cleanup = async () => {
  if (api && api.exitCode === null) {
    api.kill('SIGTERM');
    await new Promise((resolve) => api.once('exit', resolve));
  }
  // Imports and their rows, entries, the family: all cascade from the family.
  if (process.env.LOAD_KEEP) console.log(`kept family ${family.id}`);
  else await seeder.deleteFamily(family.id);
  await seeder.close();
};

try {
  // 2. The API process under test, pinned to core 0.
  const port = await freePort();
  const nodeArgs = (process.env.LOAD_API_NODE_ARGS ?? '').split(' ').filter(Boolean); // e.g. --cpu-prof, for profiling
  const [command, args] = pin(0, process.execPath, [...nodeArgs, '-r', join(root, 'tools/dist.cjs'), join(root, 'dist/api/apps/api/src/main.js')]);
  api = spawn(command, args, { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    const up = await fetch(`${base}/api/v1/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (tries > 300 || api.exitCode !== null) throw new Error('the API process did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const headers = { 'Content-Type': 'application/json', 'X-Api-Key': key };
  const created = await fetch(`${base}/api/v1/budgets`, { method: 'POST', headers, body: JSON.stringify({ start_date: '2024-06-01' }) });
  const budget = await created.json();
  if (created.status !== 201) throw new Error(`POST /budgets answered ${created.status}: ${JSON.stringify(budget)}`);
  await fetch(`${base}/api/v1/budgets/${budget.id}`, { method: 'PATCH', headers, body: JSON.stringify({ budgeted_spending: '50000', expected_income: '60000' }) });
  const [{ inMonth }] = await dataSource.query(
    `SELECT count(*)::int AS "inMonth" FROM entries WHERE family_id = $1 AND date BETWEEN $2 AND $3`,
    [family.id, budget.start_date, budget.end_date],
  );
  const csv = ['Date,Amount,Description', '2024-06-03,-12.50,Bakery', '2024-06-04,-40.00,Fuel', '2024-06-05,1200.00,Payroll', '2024-06-06,-8.99,Music'].join('\n');
  const endpoints = [
    { name: 'GET /api/v1/health (bare)', url: `${base}/api/v1/health`, args: [] },
    { name: 'GET /api/v1/budgets/{id}', url: `${base}/api/v1/budgets/${budget.id}`, args: ['-H', `X-Api-Key=${key}`] },
    {
      name: 'POST /api/v1/imports',
      url: `${base}/api/v1/imports`,
      args: ['-m', 'POST', '-H', `X-Api-Key=${key}`, '-H', 'Content-Type=application/json', '-b', JSON.stringify({ raw_file_content: csv, account_id: accountId, date_format: '%Y-%m-%d' })],
    },
  ];

  // 3. The load generator, pinned to core 1: autocannon's own CLI, JSON out.
  const autocannon = (endpoint, extra) => {
    const [cmd, cmdArgs] = pin(1, process.execPath, [join(root, 'node_modules/autocannon/autocannon.js'), '-j', '-c', String(CONNECTIONS), ...extra, ...endpoint.args, endpoint.url]);
    const out = execFileSync(cmd, cmdArgs, { maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
    const r = JSON.parse(out.toString());
    return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, total: r.requests.total };
  };
  console.log(`load: ${ENTRIES} transactions over 2024, ${inMonth} in ${budget.name}; ${CONNECTIONS} connections, ${SECONDS} s per phase`);
  console.log(`machine: ${cores} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, Node ${process.version}${cores >= 2 ? '' : ' (one core: no pinning)'}`);

  const results = endpoints.map((endpoint) => {
    autocannon(endpoint, ['-d', String(WARMUP_SECONDS)]);
    return { endpoint, max: autocannon(endpoint, ['-d', String(SECONDS)]) };
  });
  for (const result of results) {
    const rate = Math.max(1, Math.floor(result.max.rps * 0.8));
    result.at80 = { rate, ...autocannon(result.endpoint, ['-d', String(SECONDS), '-R', String(rate)]) };
  }

  const bare = results[0].max.rps;
  const pad = (s, n) => String(s).padEnd(n);
  const ms = (v) => `${v.toFixed(1)} ms`;
  console.log(`\n${pad('endpoint', 28)}${pad('max req/s', 11)}${pad('/ bare', 8)}${pad('80% rate', 10)}${pad('req/s', 9)}${pad('p50', 10)}${pad('p99', 10)}errors non-2xx`);
  for (const { endpoint, max, at80 } of results) {
    const bad = `${max.errors + at80.errors} ${max.non2xx + at80.non2xx}`;
    console.log(
      `${pad(endpoint.name, 28)}${pad(max.rps.toFixed(0), 11)}${pad((max.rps / bare).toFixed(2), 8)}${pad(at80.rate, 10)}${pad(at80.rps.toFixed(0), 9)}${pad(ms(at80.p50), 10)}${pad(ms(at80.p99), 10)}${bad}`,
    );
  }
  const budgets = results[1];
  const ratio = budgets.max.rps / bare;
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  console.log(`\ngoal: budgets max req/s >= 50 % of bare health: ${(ratio * 100).toFixed(1)} % -> ${verdict(ratio >= 0.5)}`);
  console.log(`goal: budgets p99 < 50 ms at 80 % of its max rate: ${ms(budgets.at80.p99)} -> ${verdict(budgets.at80.p99 < 50)}`);
  const failures = results.reduce((n, r) => n + r.max.errors + r.at80.errors + r.max.non2xx + r.at80.non2xx, 0);
  if (failures) console.log(`warning: ${failures} errors or non-2xx answers during the run`);
} finally {
  await cleanup();
}
