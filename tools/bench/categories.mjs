// Benchmark: the categories of a family with 1,000,000 entries. GET /api/v1/categories/tree (every category with its
// transaction count) against the bare count of transactions by category, and a merge (DELETE with replacement_id)
// against the bare UPDATE that moves the same transactions, each measured in the same run on the same database.
//   DATABASE_URL=... REDIS_URL=... node tools/bench/categories.mjs
//   BENCH_ENTRIES=200000 BENCH_CALLS=100 ...             smaller or larger runs; BENCH_KEEP=1 keeps the family
import { performance } from 'node:perf_hooks';
import { engineName, startBenchApp, timeCalls } from './bench-app.mjs';
import { seedHousehold } from './seed-household.mjs';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const MERGES = 3;

const bench = await startBenchApp();
const { base, dataSource } = bench;
let familyId;
try {
  const { family, key } = await bench.newHousehold();
  familyId = family.id;
  const seeding = performance.now();
  await seedHousehold(dataSource, family.id, { entries: ENTRIES });
  await dataSource.query(`VACUUM ANALYZE transactions`);
  await dataSource.query(`VACUUM ANALYZE categories`);
  const seedSeconds = (performance.now() - seeding) / 1000;
  const headers = { 'X-Api-Key': key };

  const tree = await timeCalls(CALLS, async () => {
    const res = await fetch(`${base}/api/v1/categories/tree`, { headers });
    if (res.status !== 200) throw new Error(`GET answered ${res.status}`);
    await res.json();
  }, { warmup: 20 });
  const counts = await timeCalls(CALLS, () =>
    dataSource.query(`SELECT t.category_id, count(*) FROM transactions t WHERE t.category_id IN (SELECT id FROM categories WHERE family_id = $1) GROUP BY 1`, [family.id]),
  { warmup: 20 });

  // Merges: top-level categories (each with three subcategories) into another; the baseline moves the transactions of
  // as many other top-level categories (as many rows: the seed spreads them evenly) with one bare UPDATE each.
  const tops = await dataSource.query(
    `SELECT c.id, (SELECT count(*)::int FROM transactions t WHERE t.category_id = c.id) AS n FROM categories c
      WHERE c.family_id = $1 AND c.parent_id IS NULL ORDER BY c.name LIMIT $2`,
    [family.id, MERGES * 4],
  );
  const merge = [];
  const bare = [];
  let moved = 0;
  for (let i = 0; i < MERGES; i++) {
    const [from, to] = [tops[2 * i], tops[2 * i + 1]];
    let started = performance.now();
    const res = await fetch(`${base}/api/v1/categories/${from.id}?replacement_id=${to.id}`, { method: 'DELETE', headers });
    const outcome = await res.json();
    if (res.status !== 200) throw new Error(`DELETE answered ${res.status}: ${JSON.stringify(outcome)}`);
    merge.push(performance.now() - started);
    moved += outcome.transactions_moved;
    const [other, into] = [tops[2 * MERGES + 2 * i], tops[2 * MERGES + 2 * i + 1]];
    started = performance.now();
    await dataSource.query(`UPDATE transactions SET category_id = $2 WHERE category_id = $1`, [other.id, into.id]);
    bare.push(performance.now() - started);
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

  const ms = (value) => `${value.toFixed(2)} ms`;
  console.log(`categories (${engineName()}): ${ENTRIES} entries, 60 categories (seeded in ${seedSeconds.toFixed(1)} s)`);
  console.log(`  bare count by category                     x${CALLS}: median ${ms(counts.median)}, p99 ${ms(counts.p99)}`);
  console.log(`  GET /api/v1/categories/tree                x${CALLS}: median ${ms(tree.median)}, p99 ${ms(tree.p99)}`);
  console.log(`    ratio: median ${(tree.median / counts.median).toFixed(2)}, p99 ${(tree.p99 / counts.p99).toFixed(2)}`);
  console.log(`  bare UPDATE moving a category's transactions x${MERGES} (${Math.round(tops.slice(2 * MERGES).filter((_, i) => i % 2 === 0).reduce((n, c) => n + c.n, 0) / MERGES)} each): median ${ms(median(bare))}`);
  console.log(`  DELETE /api/v1/categories/{id}?replacement_id x${MERGES} (${Math.round(moved / MERGES)} transactions each): median ${ms(median(merge))}`);
  console.log(`    ratio: median ${(median(merge) / median(bare)).toFixed(2)}`);
} finally {
  if (familyId && process.env.DATABASE_URL && !process.env.BENCH_KEEP) await bench.deleteFamily(familyId);
  await bench.close();
}
