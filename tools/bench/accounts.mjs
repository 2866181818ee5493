// Benchmark: GET /api/v1/accounts, whose balances are rolled forward from the entries at every read, for a family with
// 1,000,000 entries over five years in 8 accounts, against a baseline measured in the same process on the same
// database: the least any such balance needs, the bare sum of each account's entry amounts (one grouped query).
// Prints the median and p99 of each over the same number of calls, and their ratio; fails unless every balance is the one
// the entries give summed one by one.
//   node tools/bench/accounts.mjs                        embedded PGlite (slow to load; the figures are for PostgreSQL)
//   DATABASE_URL=... REDIS_URL=... node tools/bench/accounts.mjs
//   BENCH_ENTRIES=200000 BENCH_CALLS=50 ...              smaller or larger runs; BENCH_KEEP=1 keeps the family
import { performance } from 'node:perf_hooks';
import { engineName, startBenchApp, timeCalls } from './bench-app.mjs';
import { seedHousehold } from './seed-household.mjs';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 50);
const WARMUP = 5;

const time = (calls, fn) => timeCalls(calls, fn, { warmup: WARMUP });

const bench = await startBenchApp();
const { base, dataSource } = bench;
let familyId;
try {
  const { family, key } = await bench.newHousehold();
  familyId = family.id;
  const seeding = performance.now();
  await seedHousehold(dataSource, family.id, { entries: ENTRIES });
  // Half the accounts start from an opening balance, as imported accounts do; one was reconciled since.
  await dataSource.query(
    `WITH e AS (
       INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency)
       SELECT family_id, id, 'Valuation', '2019-12-31'::date, 'Opening balance', 100000, currency FROM accounts WHERE family_id = $1 AND name < 'D'
       UNION ALL
       SELECT family_id, id, 'Valuation', '2023-06-30'::date, 'Reconciled', 250000, currency FROM accounts WHERE family_id = $1 AND name = 'Checking'
       RETURNING id, name)
     INSERT INTO valuations (entry_id, kind) SELECT id, CASE WHEN name = 'Reconciled' THEN 'reconciliation' ELSE 'opening_anchor' END FROM e`,
    [family.id],
  );
  await dataSource.query('VACUUM (ANALYZE) entries, valuations');
  const seedSeconds = (performance.now() - seeding) / 1000;

  const url = `${base}/api/v1/accounts?include_disabled=true`;
  const headers = { 'X-Api-Key': key };
  const sample = await (await fetch(url, { headers })).json();
  const api = await time(CALLS, async () => {
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`GET answered ${res.status}`);
    await res.json();
  });
  const sql = await time(CALLS, () => dataSource.query(`SELECT account_id, sum(amount_minor) FROM entries WHERE family_id = $1 GROUP BY account_id`, [family.id]));

  // The answer checked against the rule applied entry by entry, in the slowest plain way (the seed's entries are all
  // past, in their account's currency, with no trades or splits): the latest valuation, then every later transaction.
  const expected = await dataSource.query(
    `SELECT a.id, (coalesce(v.amount_minor, a.balance_minor) - CASE a.classification WHEN 'liability' THEN -1 ELSE 1 END *
              (SELECT coalesce(sum(e.amount_minor), 0) FROM entries e
                WHERE e.account_id = a.id AND e.entryable_type = 'Transaction'
                  AND (v.date IS NULL OR e.date > v.date OR (v.kind = 'opening_anchor' AND e.date = v.date))))::text AS balance
       FROM accounts a
       LEFT JOIN LATERAL (SELECT e.date, e.amount_minor, k.kind FROM entries e JOIN valuations k ON k.entry_id = e.id
                           WHERE e.account_id = a.id ORDER BY e.date DESC, k.kind = 'opening_anchor', e.id DESC LIMIT 1) v ON true
      WHERE a.family_id = $1`,
    [family.id],
  );
  if (expected.length !== sample.accounts.length) throw new Error(`${expected.length} accounts summed entry by entry, ${sample.accounts.length} listed`);
  for (const { id, balance } of expected) {
    const got = sample.accounts.find((a) => a.id === id);
    if (String(got?.balance_cents) !== balance) throw new Error(`account ${id}: GET answered ${got?.balance_cents}, entry by entry ${balance}`);
  }

  const ms = (value) => `${value.toFixed(2)} ms`;
  console.log(`accounts (${engineName()}): ${ENTRIES} entries over 5 years in ${sample.accounts.length} accounts (seeded in ${seedSeconds.toFixed(1)} s)`);
  console.log(`  ${sample.accounts.map((a) => `${a.name} ${a.balance}`).join('; ')} (each as summed entry by entry)`);
  console.log(`  bare sum of amounts by account   x${CALLS}: median ${ms(sql.median)}, p99 ${ms(sql.p99)}`);
  console.log(`  GET /api/v1/accounts             x${CALLS}: median ${ms(api.median)}, p99 ${ms(api.p99)}`);
  console.log(`    ratio: median ${(api.median / sql.median).toFixed(2)}, p99 ${(api.p99 / sql.p99).toFixed(2)}`);
} finally {
  if (familyId && process.env.DATABASE_URL && !process.env.BENCH_KEEP) await bench.deleteFamily(familyId);
  await bench.close();
}
