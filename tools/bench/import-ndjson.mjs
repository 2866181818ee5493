// Benchmark: a 100,000-record ServiceImport NDJSON file (just under 10 MB) from POST /api/v1/imports to `complete`,
// against a baseline measured in the same run on the same database: JSON.parse the same lines and bulk-insert the
// same transaction rows into a scratch table with INSERT ... SELECT unnest(...), in chunks of the publish chunk size.
//   node tools/bench/import-ndjson.mjs                      embedded PGlite + PostgreSQL-backed queue
//   DATABASE_URL=... REDIS_URL=... node tools/bench/import-ndjson.mjs
import { randomUUID } from 'node:crypto';
import { engineName, importThroughApi, startBenchApp } from './bench-app.mjs';

const MAX_BYTES = 10 * 1024 * 1024;
const RECORDS = 100_000;
const CHUNK_ROWS = 5_000;

/**
 * A household's history: 3 accounts with opening anchors, 40 categories, 20 tags, 30 merchants, and transactions
 * for the rest (two years of dates, every 7th categorised), compact enough to stay under the 10 MB limit.
 */
function generateNdjson() {
  const lines = [];
  const push = (type, data) => lines.push(JSON.stringify({ type, data }));
  for (let a = 0; a < 3; a++) push('Account', { id: `a${a}`, name: `Account ${a}`, balance: '1000.00', currency: 'USD', accountable_type: 'Depository' });
  for (let a = 0; a < 3; a++) push('Valuation', { id: `v${a}`, account_id: `a${a}`, date: '2023-12-31', amount: '1000.00', kind: 'opening_anchor' });
  for (let c = 0; c < 40; c++) push('Category', { id: `c${c}`, name: `Category ${c}` });
  for (let t = 0; t < 20; t++) push('Tag', { id: `g${t}`, name: `Tag ${t}` });
  for (let m = 0; m < 30; m++) push('Merchant', { id: `m${m}`, name: `Merchant ${m}` });
  for (let i = 0; lines.length < RECORDS; i++) {
    const date = new Date(Date.UTC(2024, 0, 1) + (i % 730) * 86_400_000).toISOString().slice(0, 10);
    const data = { id: i.toString(36), account_id: `a${i % 3}`, date, amount: (((i * 7919) % 250_000) - 20_000) / 100 };
    if (i % 7 === 0) data.category_id = `c${i % 40}`;
    push('Transaction', data);
  }
  const text = lines.join('\n');
  if (Buffer.byteLength(text) > MAX_BYTES) throw new Error(`generated ${Buffer.byteLength(text)} bytes, over the 10 MB limit`);
  return { text, records: lines.length, transactions: lines.filter((l) => l.startsWith('{"type":"Transaction"')).length };
}

async function baseline(dataSource, text) {
  const started = performance.now();
  const rows = text.split('\n').map((l) => JSON.parse(l)).filter((r) => r.type === 'Transaction').map((r) => r.data);
  const table = `bench_ndjson_baseline_${process.pid}`;
  await dataSource.query(`CREATE TABLE ${table} (id uuid, account text, date date, amount_minor bigint, category text, currency text)`);
  try {
    for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
      const chunk = rows.slice(start, start + CHUNK_ROWS);
      await dataSource.query(
        `INSERT INTO ${table} SELECT * FROM unnest($1::uuid[], $2::text[], $3::date[], $4::bigint[], $5::text[], $6::text[])`,
        [
          chunk.map(() => randomUUID()),
          chunk.map((r) => r.account_id),
          chunk.map((r) => r.date),
          chunk.map((r) => Math.round(r.amount * 100)),
          chunk.map((r) => r.category_id ?? null),
          chunk.map(() => 'USD'),
        ],
      );
    }
    return performance.now() - started;
  } finally {
    await dataSource.query(`DROP TABLE ${table}`);
  }
}

const bench = await startBenchApp();
const { base, dataSource } = bench;
try {
  const { key } = await bench.newHousehold();
  const { text, records, transactions } = generateNdjson();
  const baselineMs = await baseline(dataSource, text);
  const run = await importThroughApi(base, key, { type: 'ServiceImport', raw_file_content: text });
  const [{ count }] = await dataSource.query(`SELECT count(*)::int AS count FROM entries WHERE import_id = $1 AND entryable_type = 'Transaction'`, [run.id]);
  if (count !== transactions) throw new Error(`expected ${transactions} transactions, found ${count}`);
  console.log(`import-ndjson (${engineName()}): ${records} records (${transactions} transactions), ${(Buffer.byteLength(text) / 1024 / 1024).toFixed(2)} MB`);
  console.log(`  POST /api/v1/imports answered 201 in ${(run.accepted / 1000).toFixed(2)} s (parse, plan, store rows, preflight, queue)`);
  console.log(`  POST to complete: ${(run.total / 1000).toFixed(2)} s (${Math.round(records / (run.total / 1000))} records/s), readback ${run.detail.verification.readback.status}`);
  console.log(`  baseline (JSON.parse + unnest of the transactions into one table): ${(baselineMs / 1000).toFixed(2)} s`);
  console.log(`  ratio: ${(run.total / baselineMs).toFixed(2)}`);
} finally {
  await bench.close();
}
