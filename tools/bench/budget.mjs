// Benchmark: GET /api/v1/budgets/{id} for a family with 1,000,000 entries over five years, against a baseline
// measured in the same process on the same database: the bare aggregate SQL behind the budget (one grouped query).
// Prints median and p99 of each over the same number of calls, and their ratios: for reads of unchanged data (the
// API reuses its computation) and for reads each after a change (every GET recomputes).
//   node tools/bench/budget.mjs                          embedded PGlite (slow to load; the figures are for PostgreSQL)
//   DATABASE_URL=... REDIS_URL=... node tools/bench/budget.mjs
//   BENCH_ENTRIES=200000 BENCH_CALLS=200 ...             smaller or larger runs; BENCH_KEEP=1 keeps the family
import { performance } from 'node:perf_hooks';
import { engineName, requireDist, startBenchApp, timeCalls } from './bench-app.mjs';
import { seedHousehold } from './seed-household.mjs';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const WARMUP = 20;
const DAYS = 1826; // 2020-01-01 .. 2024-12-31
const { BudgetsRepository } = requireDist('apps/api/src/budgets/budgets.repository');

const time = (calls, fn, before) => timeCalls(calls, fn, { warmup: WARMUP, before });

const bench = await startBenchApp();
const { app, base, dataSource } = bench;
let familyId;
try {
  const { family, key } = await bench.newHousehold();
  familyId = family.id;
  const seeding = performance.now();
  await seedHousehold(dataSource, family.id, { entries: ENTRIES, days: DAYS, start: '2020-01-01' });
  const seedSeconds = (performance.now() - seeding) / 1000;

  const headers = { 'Content-Type': 'application/json', 'X-Api-Key': key };
  const created = await fetch(`${base}/api/v1/budgets`, { method: 'POST', headers, body: JSON.stringify({ start_date: '2023-06-15' }) });
  const budget = await created.json();
  if (created.status !== 201) throw new Error(`POST /budgets answered ${created.status}: ${JSON.stringify(budget)}`);
  await fetch(`${base}/api/v1/budgets/${budget.id}`, { method: 'PATCH', headers, body: JSON.stringify({ budgeted_spending: '50000', expected_income: '60000' }) });

  const url = `${base}/api/v1/budgets/${budget.id}`;
  const sample = await (await fetch(url, { headers })).json();
  const get = async () => {
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`GET answered ${res.status}`);
    await res.json();
  };
  // Unchanged data: the API reuses its computation while the family's data_version is the same.
  const api = await time(CALLS, get);
  // Changed data before every call (what any write does through the triggers): each GET recomputes.
  const changed = await time(CALLS, get, () => dataSource.query(`UPDATE families SET data_version = data_version + 1 WHERE id = $1`, [family.id]));
  const repository = app.get(BudgetsRepository);
  const period = { startDate: budget.start_date, endDate: budget.end_date };
  const sql = await time(CALLS, () => repository.activity(family.id, period, 'USD', null));
  const [{ inPeriod }] = await dataSource.query(
    `SELECT count(*)::int AS "inPeriod" FROM entries WHERE family_id = $1 AND date BETWEEN $2 AND $3`,
    [family.id, period.startDate, period.endDate],
  );

  const ms = (value) => `${value.toFixed(2)} ms`;
  console.log(`budget (${engineName()}): ${ENTRIES} entries over 5 years (seeded in ${seedSeconds.toFixed(1)} s), ${inPeriod} in ${sample.name}`);
  console.log(`  actual_spending ${sample.actual_spending}, actual_income ${sample.actual_income}`);
  console.log(`  bare aggregate SQL                         x${CALLS}: median ${ms(sql.median)}, p99 ${ms(sql.p99)}`);
  console.log(`  GET /api/v1/budgets/{id}, data unchanged   x${CALLS}: median ${ms(api.median)}, p99 ${ms(api.p99)}`);
  console.log(`    ratio: median ${(api.median / sql.median).toFixed(2)}, p99 ${(api.p99 / sql.p99).toFixed(2)}`);
  console.log(`  GET /api/v1/budgets/{id}, data changed     x${CALLS}: median ${ms(changed.median)}, p99 ${ms(changed.p99)}`);
  console.log(`    ratio: median ${(changed.median / sql.median).toFixed(2)}, p99 ${(changed.p99 / sql.p99).toFixed(2)}`);
} finally {
  if (familyId && process.env.DATABASE_URL && !process.env.BENCH_KEEP) await bench.deleteFamily(familyId);
  await bench.close();
}
