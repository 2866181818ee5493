// Benchmark: a 10 MB TransactionImport CSV (about 100k rows) from POST /api/v1/imports to `complete`, against a
// baseline measured in the same run on the same database: parse the same file with papaparse and bulk-insert the
// same rows into a scratch table with INSERT ... SELECT unnest(...), in chunks of the same size. Then the same file
// again into the same account, where every row must be linked to the entry it duplicates.
// A second reference, the storage floor, writes what an import must keep with no checking, mapping or matching at
// all: each row's values as jsonb (for GET .../rows and PATCH), then an entry and a transaction per row, into copies
// of import_rows, entries and transactions with their indexes. The import's time over the floor is what the
// pipeline itself costs; the floor over the baseline is what the schema's indexes and the kept rows cost.
//   node tools/bench/import-csv.mjs                      embedded PGlite + PostgreSQL-backed queue
//   DATABASE_URL=... REDIS_URL=... node tools/bench/import-csv.mjs
//   BENCH_HISTORY=1000000 ...                            first seed another household with that many entries: the
//                                                        import's cost must not grow with the size of the tables
//   BENCH_REVERT_IMPORT_FIRST=1 ...                      revert the import before the re-import: every entry it
//                                                        created passes to the re-import, which holds it too
//   BENCH_ROWS=100000 ...                                at most that many rows (the default publish limit) instead
//                                                        of the 10 MB file's ~115k, under the default IMPORT_MAX_ROWS
import Papa from 'papaparse';
import { engineName, importThroughApi, requireDist, revertThroughApi, startBenchApp } from './bench-app.mjs';
import { seedHousehold } from './seed-household.mjs';

const MAX_BYTES = 10 * 1024 * 1024;
const CHUNK_ROWS = 5_000;

/** A bank-export-like file: dates over two years, a few hundred payees, categories, notes; just under 10 MB, or `maxRows` rows. */
function generateCsv(maxRows) {
  const payees = Array.from({ length: 400 }, (_, i) => `Payee ${i} ${['Market', 'Cafe', 'Fuel', 'Pharmacy', 'Online'][i % 5]}`);
  const categories = ['Groceries', 'Dining', 'Transport', 'Health', 'Shopping', 'Utilities', 'Income', 'Travel'];
  const lines = ['Date,Amount,Description,Category,Notes'];
  let bytes = lines[0].length + 1;
  for (let i = 0; i < maxRows; i++) {
    const day = new Date(Date.UTC(2024, 0, 1) + (i % 730) * 86_400_000).toISOString().slice(0, 10);
    const cents = ((i * 7919) % 250_000) - 20_000;
    const amount = (cents / 100).toFixed(2);
    const line = `${day},${amount},${payees[i % payees.length]},${categories[i % categories.length]},reference ${String(i).padStart(8, '0')} card ending 4242 batch ${i % 97}`;
    if (bytes + line.length + 1 > MAX_BYTES) break;
    lines.push(line);
    bytes += line.length + 1;
  }
  return { csv: lines.join('\n') + '\n', rows: lines.length - 1 };
}

async function baseline(dataSource, csv) {
  const started = performance.now();
  const { data } = Papa.parse(csv.trim(), { header: true, skipEmptyLines: 'greedy' });
  const table = `bench_baseline_${process.pid}`;
  await dataSource.query(`CREATE TABLE ${table} (date date, amount_minor bigint, name text, category text, notes text, currency text)`);
  try {
    for (let start = 0; start < data.length; start += CHUNK_ROWS) {
      const chunk = data.slice(start, start + CHUNK_ROWS);
      await dataSource.query(
        `INSERT INTO ${table} SELECT * FROM unnest($1::date[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[])`,
        [
          chunk.map((r) => r.Date),
          chunk.map((r) => Math.round(Number(r.Amount) * 100)),
          chunk.map((r) => r.Description),
          chunk.map((r) => r.Category),
          chunk.map((r) => r.Notes),
          chunk.map(() => 'USD'),
        ],
      );
    }
    return performance.now() - started;
  } finally {
    await dataSource.query(`DROP TABLE ${table}`);
  }
}

const { timeOrderedId } = requireDist('apps/api/src/common/time-ordered-id');

/** The storage floor (see the top of this file), in chunks of the import's size; the copies are dropped after. */
async function storageFloor(dataSource, csv, familyId, accountId) {
  const started = performance.now();
  const { data } = Papa.parse(csv.trim(), { header: true, skipEmptyLines: 'greedy' });
  const spent = { import_rows: 0, entries: 0, transactions: 0 };
  const timed = async (table, query) => {
    const at = performance.now();
    await query;
    spent[table] += performance.now() - at;
  };
  const tables = ['import_rows', 'entries', 'transactions'].map((t) => [t, `bench_floor_${t}_${process.pid}`]);
  const [rowsCopy, entriesCopy, transactionsCopy] = tables.map(([, copy]) => copy);
  for (const [table, copy] of tables) await dataSource.query(`CREATE TABLE ${copy} (LIKE ${table} INCLUDING ALL)`);
  try {
    const importId = timeOrderedId();
    for (let start = 0; start < data.length; start += CHUNK_ROWS) {
      const chunk = data.slice(start, start + CHUNK_ROWS);
      const numbers = chunk.map((_, i) => start + i + 1);
      await timed('import_rows', dataSource.query(
        `INSERT INTO ${rowsCopy} (import_id, source_row_number, "values") SELECT $1, n, v::jsonb FROM unnest($2::int[], $3::text[]) AS r(n, v)`,
        [importId, numbers, chunk.map((r) => JSON.stringify({ date: r.Date, amount: r.Amount, name: r.Description, category: r.Category, notes: r.Notes }))],
      ));
      const ids = chunk.map(() => timeOrderedId());
      await timed('entries', dataSource.query(
        `INSERT INTO ${entriesCopy} (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, notes, import_id)
         SELECT id, $1, $2, 'Transaction', d, n, a, 'USD', x, $3 FROM unnest($4::uuid[], $5::date[], $6::text[], $7::bigint[], $8::text[]) AS r(id, d, n, a, x)`,
        [familyId, accountId, importId, ids, chunk.map((r) => r.Date), chunk.map((r) => r.Description), chunk.map((r) => Math.round(Number(r.Amount) * 100)), chunk.map((r) => r.Notes)],
      ));
      await timed('transactions', dataSource.query(`INSERT INTO ${transactionsCopy} (entry_id, kind) SELECT id, 'standard' FROM unnest($1::uuid[]) AS r(id)`, [ids]));
    }
    return { ms: performance.now() - started, spent };
  } finally {
    for (const [, copy] of tables) await dataSource.query(`DROP TABLE ${copy}`);
  }
}

const { csv, rows } = generateCsv(Number(process.env.BENCH_ROWS ?? Infinity));
// The whole 10 MB file is more rows than the default limit publishes.
const bench = await startBenchApp(process.env.BENCH_ROWS ? {} : { IMPORT_MAX_ROWS: '200000' });
const { base, dataSource } = bench;
const { family, key } = await bench.newHousehold();
const history = Number(process.env.BENCH_HISTORY ?? 0);
const neighbour = history > 0 ? (await bench.newHousehold('Neighbour')).family : null;
try {
  if (neighbour) {
    await seedHousehold(dataSource, neighbour.id, { entries: history });
    await dataSource.query('VACUUM ANALYZE'); // a settled database, not one still busy absorbing the seed
  }
  const [{ id: accountId }] = await dataSource.query(
    `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, 'Bench checking', 'Depository', 'asset', 'USD') RETURNING id`,
    [family.id],
  );
  const baselineMs = await baseline(dataSource, csv);
  const { ms: floorMs, spent } = await storageFloor(dataSource, csv, family.id, accountId);
  const body = { raw_file_content: csv, account_id: accountId, date_format: '%Y-%m-%d' };
  const run = await importThroughApi(base, key, body);
  const [{ count }] = await dataSource.query(`SELECT count(*)::int AS count FROM entries WHERE import_id = $1`, [run.id]);
  if (count !== rows) throw new Error(`expected ${rows} entries, found ${count}`);
  // The same export again: every row must be recognised as a duplicate of the first import's entries.
  const again = await importThroughApi(base, key, body);
  const [{ created, linked }] = await dataSource.query(
    `SELECT (SELECT count(*)::int FROM entries WHERE import_id = $1) AS created,
            (SELECT count(*)::int FROM import_rows WHERE import_id = $1 AND duplicate_of IS NOT NULL) AS linked`,
    [again.id],
  );
  if (created !== 0 || linked !== rows) throw new Error(`re-import created ${created} entries and linked ${linked} of ${rows} rows`);
  // Both taken back, the re-import first (it gives back what it claimed), then the import with its entries; or the
  // import first, whose entries the re-import then holds, then the re-import with them.
  const importFirst = process.env.BENCH_REVERT_IMPORT_FIRST === '1';
  const revertMs = importFirst ? await revertThroughApi(base, key, run.id) : 0;
  if (importFirst) {
    const [{ passed }] = await dataSource.query(`SELECT count(*)::int AS passed FROM entries WHERE import_id = $1`, [again.id]);
    if (passed !== rows) throw new Error(`reverting the import passed ${passed} of ${rows} entries to the re-import`);
  }
  const revertAgainMs = await revertThroughApi(base, key, again.id);
  const revertImportMs = importFirst ? revertMs : await revertThroughApi(base, key, run.id);
  const [{ left }] = await dataSource.query(`SELECT count(*)::int AS left FROM entries WHERE account_id = $1`, [accountId]);
  if (left !== 0) throw new Error(`revert left ${left} entries`);
  console.log(`import-csv (${engineName()}): ${rows} rows, ${(Buffer.byteLength(csv) / 1024 / 1024).toFixed(2)} MB${history ? `, ${history} entries of another household already stored` : ''}`);
  console.log(`  POST /api/v1/imports answered 201 in ${(run.accepted / 1000).toFixed(2)} s (parse, validate, store rows)`);
  console.log(`  POST to complete: ${(run.total / 1000).toFixed(2)} s (${Math.round(rows / (run.total / 1000))} rows/s)`);
  console.log(`  baseline (papaparse + unnest into one table): ${(baselineMs / 1000).toFixed(2)} s`);
  console.log(`  ratio: ${(run.total / baselineMs).toFixed(2)}`);
  console.log(`  storage floor (rows as jsonb, entries and transactions with their indexes, nothing checked): ${(floorMs / 1000).toFixed(2)} s, ${(floorMs / baselineMs).toFixed(2)}x the baseline; the import takes ${(run.total / floorMs).toFixed(2)}x the floor`);
  console.log(`    of which inserting into ${Object.entries(spent).map(([table, ms]) => `${table} ${(ms / 1000).toFixed(2)} s`).join(', ')}`);
  console.log(`  re-import of the same file (every row a duplicate, linked not inserted): ${(again.total / 1000).toFixed(2)} s, ratio ${(again.total / baselineMs).toFixed(2)}`);
  console.log(
    importFirst
      ? `  revert: the import (${rows} entries passed to the re-import) ${(revertImportMs / 1000).toFixed(2)} s, then the re-import (${rows} entries deleted) ${(revertAgainMs / 1000).toFixed(2)} s`
      : `  revert: the re-import ${(revertAgainMs / 1000).toFixed(2)} s, then the import (${rows} entries deleted) ${(revertImportMs / 1000).toFixed(2)} s`,
  );
} finally {
  // The next run starts from the same database: the family's rows deleted, and vacuumed away, as autovacuum may be off
  // or behind, and dead import rows of earlier runs would slow the next import
  // (docs/performance.md#statistics-and-autovacuum).
  for (const f of [family, neighbour]) if (f) await bench.deleteFamily(f.id);
  await dataSource.query('VACUUM (ANALYZE) import_rows, imports, entries, transactions, taggings');
  await bench.close();
}
