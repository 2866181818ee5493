// Benchmark: the same transactions (100,000 by default) written as an OFX 1.02 bank statement, a CAMT.053.001.02
// statement and an MT940 statement, and as a CSV of the same rows, each posted to POST /api/v1/imports with publish
// and timed to `complete`, in one run on one database, each into an account of its own. Each statement's time is
// printed as a ratio to the CSV's (goal: at most 1.5). The statements carry the bank's transaction ids (FITID,
// AcctSvcrRef, :61: reference), stored with every entry. The four imports run BENCH_RUNS times (3) in turn, and the
// medians are compared: a single run moves by a second on a shared machine.
//   node tools/bench/import-statements.mjs               embedded PGlite + PostgreSQL-backed queue
//   DATABASE_URL=... REDIS_URL=... node tools/bench/import-statements.mjs
//   BENCH_ROWS=20000 ...                                 another number of transactions
import { engineName, importThroughApi, startBenchApp } from './bench-app.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The transactions: dates over two years, a few hundred payees, amounts in and out (cents, money in positive). */
const transactions = Array.from({ length: ROWS }, (_, i) => ({
  date: new Date(Date.UTC(2024, 0, 1) + Math.floor((i * 730) / ROWS) * 86_400_000).toISOString().slice(0, 10),
  cents: ((i * 7919) % 250_000) - 200_000,
  name: `Payee ${i % 400} ${['Market', 'Cafe', 'Fuel', 'Pharmacy', 'Online'][i % 5]}`,
  memo: `reference ${String(i).padStart(8, '0')} card ending 4242`,
  id: `TX${String(i).padStart(9, '0')}`,
}));
const decimal = (cents) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const total = transactions.reduce((sum, t) => sum + t.cents, 0);
const first = transactions[0].date;
const last = transactions.at(-1).date;
const compact = (date) => date.replaceAll('-', '');

function csv() {
  return ['Date,Amount,Description,Notes', ...transactions.map((t) => `${t.date},${decimal(t.cents)},${t.name},${t.memo}`)].join('\n') + '\n';
}

function ofx() {
  const head = ['OFXHEADER:100', 'DATA:OFXSGML', 'VERSION:102', 'SECURITY:NONE', 'ENCODING:USASCII', 'CHARSET:1252', 'COMPRESSION:NONE', 'OLDFILEUID:NONE', 'NEWFILEUID:NONE', ''];
  const body = [
    '<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260101120000<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>',
    '<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD',
    '<BANKACCTFROM><BANKID>121000248<ACCTID>4242424242<ACCTTYPE>CHECKING</BANKACCTFROM>',
    `<BANKTRANLIST><DTSTART>${compact(first)}<DTEND>${compact(last)}`,
    ...transactions.map((t) => `<STMTTRN><TRNTYPE>${t.cents < 0 ? 'DEBIT' : 'CREDIT'}<DTPOSTED>${compact(t.date)}120000<TRNAMT>${decimal(t.cents)}<FITID>${t.id}<NAME>${t.name}<MEMO>${t.memo}</STMTTRN>`),
    `</BANKTRANLIST><LEDGERBAL><BALAMT>${decimal(total)}<DTASOF>${compact(last)}</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`,
  ];
  return [...head, ...body].join('\n') + '\n';
}

function camt() {
  const balance = (code, cents, date) =>
    `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="USD">${decimal(Math.abs(cents))}</Amt><CdtDbtInd>${cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2026-01-01T00:00:00</CreDtTm></GrpHdr>',
    `<Stmt><Id>BENCH-1</Id><CreDtTm>2026-01-01T00:00:00</CreDtTm><Acct><Id><IBAN>DE02120300000000202051</IBAN></Id><Ccy>USD</Ccy></Acct>`,
    balance('OPBD', 0, first),
    balance('CLBD', total, last),
    ...transactions.map(
      (t) =>
        `<Ntry><Amt Ccy="USD">${decimal(Math.abs(t.cents))}</Amt><CdtDbtInd>${t.cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>${t.date}</Dt></BookgDt>` +
        `<AcctSvcrRef>${t.id}</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><${t.cents < 0 ? 'Cdtr' : 'Dbtr'}><Nm>${t.name}</Nm></${t.cents < 0 ? 'Cdtr' : 'Dbtr'}></RltdPties>` +
        `<RmtInf><Ustrd>${t.memo}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
    ),
    '</Stmt></BkToCstmrStmt></Document>',
  ].join('\n');
}

function mt940() {
  const yymmdd = (date) => compact(date).slice(2);
  const amount = (cents) => decimal(Math.abs(cents)).replace('.', ',');
  const mark = (cents) => (cents < 0 ? 'D' : 'C');
  return [
    ':20:BENCH',
    ':25:DE02120300000000202051',
    ':28C:00001/001',
    `:60F:C${yymmdd(first)}USD0,00`,
    ...transactions.flatMap((t) => [`:61:${yymmdd(t.date)}${mark(t.cents)}${amount(t.cents)}NTRF${t.id}`, `:86:${t.name} ${t.memo}`]),
    `:62F:${mark(total)}${yymmdd(last)}USD${amount(total)}`,
    '-',
  ].join('\r\n') + '\r\n';
}

const bench = await startBenchApp({ IMPORT_MAX_BYTES: String(100 * 1024 * 1024), IMPORT_MAX_ROWS: String(Math.max(ROWS, 100_000)) });
const { base, dataSource } = bench;
const { family, key } = await bench.newHousehold();
try {
  const files = [
    ['CSV (TransactionImport)', 'TransactionImport', csv(), { date_format: '%Y-%m-%d' }],
    ['OFX 1.02 (OfxImport)', 'OfxImport', ofx(), {}],
    ['CAMT.053 (CamtImport)', 'CamtImport', camt(), {}],
    ['MT940 (Mt940Import)', 'Mt940Import', mt940(), {}],
  ];
  const results = files.map(([label, , content]) => ({ label, bytes: Buffer.byteLength(content), accepted: [], total: [] }));
  // A small import first, so that no format's time includes the app's first-use warm-up.
  const [{ id: warmAccount }] = await dataSource.query(
    `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, 'Warm-up', 'Depository', 'asset', 'USD') RETURNING id`,
    [family.id],
  );
  await importThroughApi(base, key, { raw_file_content: 'Date,Amount,Description\n2024-01-02,1.00,Warm-up\n', account_id: warmAccount, date_format: '%Y-%m-%d' });
  for (let run = 0; run < RUNS; run++) {
    for (const [k, [label, type, content, fields]] of files.entries()) {
      const [{ id: accountId }] = await dataSource.query(
        `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, $2, 'Depository', 'asset', 'USD') RETURNING id`,
        [family.id, `${label} ${run + 1}`],
      );
      const timed = await importThroughApi(base, key, { type, raw_file_content: content, account_id: accountId, ...fields });
      // Its transactions; a statement into a new account also gives it the opening balance its stated balances imply.
      const [{ count, sum }] = await dataSource.query(`SELECT count(*)::int AS count, COALESCE(sum(amount_minor), 0)::bigint AS sum FROM entries WHERE import_id = $1 AND entryable_type = 'Transaction'`, [timed.id]);
      if (count !== ROWS || Number(sum) !== -total) throw new Error(`${label}: expected ${ROWS} entries summing to ${-total}, found ${count} summing to ${sum}`);
      results[k].accepted.push(timed.accepted);
      results[k].total.push(timed.total);
    }
  }
  const csvMs = median(results[0].total);
  const seconds = (ms) => (ms / 1000).toFixed(2);
  console.log(`import-statements (${engineName()}): ${ROWS} transactions per file, POST /api/v1/imports to complete, median of ${RUNS} runs`);
  for (const r of results) {
    console.log(
      `  ${r.label.padEnd(24)} ${(r.bytes / 1024 / 1024).toFixed(1).padStart(5)} MB  201 in ${seconds(median(r.accepted))} s, complete in ${seconds(median(r.total))} s` +
        ` (${seconds(Math.min(...r.total))}-${seconds(Math.max(...r.total))})  ratio to CSV ${(median(r.total) / csvMs).toFixed(2)}`,
    );
  }
} finally {
  await bench.deleteFamily(family.id);
  await bench.close();
}
