import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { newAccount, revertAndWait, waitForImport } from './support/imports';
import { Household, startTestApp, TestApp } from './support/test-app';

// Spreadsheets uploaded for a CSV import type (docs/api/import-formats.md#spreadsheets): an XLSX sheet, or a .xls
// that is an HTML page, read as the table it holds, then mapped as a CSV is; workbooks that cannot be read refused
// with what to do, and nothing stored.

const FIXTURES = join(__dirname, '../../../libs/domain/import-formats/fixtures/xlsx');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

describe('imports: spreadsheets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const upload = (h: Household, bytes: Buffer, filename: string, fields: Record<string, string>) => {
    const req = request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey);
    for (const [name, value] of Object.entries(fields)) req.field(name, value);
    // Sent as a browser or curl sends a file it has no type for: the bytes say what it is.
    return req.attach('file', bytes, { filename, contentType: 'application/octet-stream' });
  };
  const entries = (accountId: string) =>
    t.dataSource.query(`SELECT e.date::text AS date, e.name, e.amount_minor::int AS amount, e.notes FROM entries e WHERE e.account_id = $1 ORDER BY e.date, e.name`, [accountId]);
  const storedImports = async (h: Household) => (await t.dataSource.query(`SELECT count(*)::int AS n FROM imports WHERE family_id = $1`, [h.familyId]))[0].n;

  it('previews, publishes and reverts an XLSX statement: title rows above the header, date serials, float noise', async () => {
    const h = await t.newHousehold({ currency: 'EUR' });
    const accountId = await newAccount(t, h, 'Current', 'EUR');
    const created = await upload(h, fixture('bank-statement.xlsx'), 'statement.xlsx', {
      account_id: accountId,
      // Sent out of habit; the sheet's table is kept as CSV with commas whatever it says.
      col_sep: 'semicolon',
      date_col_label: 'Date',
      amount_col_label: 'Amount',
      name_col_label: 'Description',
      notes_col_label: 'Memo',
      currency_col_label: 'Currency',
    }).expect(201);
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({ status: 'pending', file_name: 'statement.xlsx', configuration: { col_sep: 'comma' }, stats: { rows_count: 5, invalid_rows_count: 0 } });
    const rows = await request(t.server).get(`/api/v1/imports/${id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
    expect(rows.body.data.map((r: { row_number: number; fields: Record<string, unknown> }) => [r.row_number, r.fields.date, r.fields.amount, r.fields.name, r.fields.notes])).toEqual([
      [1, '2025-12-02', '-2500', 'Salary ACME & Co', null],
      [2, '2025-12-03', '42.3', 'Albert Heijn Amsterdam', 'Groceries, weekly'],
      [3, '2025-12-05', '-0.01', 'Interest', '#N/A'],
      [4, '2025-12-06', '1234.5', 'Transfer "savings"', 'ab'],
      [5, '2025-12-08', '0.3', 'Coffee', null],
    ]);
    // Reconfigured: the stored table is read again, with its comma, whatever col_sep was sent.
    await request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ notes_col_label: 'Cleared' }).expect(200);
    await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect(await waitForImport(t.server, h.apiKey, id)).toMatchObject({ status: 'complete', error: null });
    expect(await entries(accountId)).toEqual([
      { date: '2025-12-02', name: 'Salary ACME & Co', amount: -250000, notes: 'TRUE' },
      { date: '2025-12-03', name: 'Albert Heijn Amsterdam', amount: 4230, notes: 'TRUE' },
      { date: '2025-12-05', name: 'Interest', amount: -1, notes: 'FALSE' },
      { date: '2025-12-06', name: 'Transfer "savings"', amount: 123450, notes: 'FALSE' },
      { date: '2025-12-08', name: 'Coffee', amount: 30, notes: null },
    ]);
    expect(await revertAndWait(t, h, id)).toMatchObject({ status: 'pending' });
    expect(await entries(accountId)).toEqual([]);
  });

  it('reads the sheet named; a sheet not there is 422 naming those there are, and PATCH cannot change it', async () => {
    const h = await t.newHousehold({ currency: 'EUR' });
    const accountId = await newAccount(t, h, 'Card', 'EUR');
    const missing = await upload(h, fixture('bank-statement.xlsx'), 'statement.xlsx', { account_id: accountId, sheet: 'Savings' }).expect(422);
    expect(missing.body).toMatchObject({ error: 'sheet_not_found', message: "The workbook has no sheet named 'Savings'; its sheets are 'Lookups', 'Statement', 'Card'." });
    expect(await storedImports(h)).toBe(0);
    const created = await upload(h, fixture('bank-statement.xlsx'), 'statement.xlsx', {
      account_id: accountId,
      sheet: 'Card',
      date_col_label: 'Booked',
      date_format: '%Y-%m-%d %H:%M:%S',
      name_col_label: 'Merchant',
      publish: 'true',
    }).expect(201);
    expect(await waitForImport(t.server, h.apiKey, created.body.data.id)).toMatchObject({ status: 'complete', error: null });
    expect(await entries(accountId)).toEqual([
      { date: '2025-12-02', name: 'Book shop', amount: 1999, notes: null },
      { date: '2025-12-04', name: 'Train', amount: 750, notes: null },
    ]);
    const patched = await request(t.server).patch(`/api/v1/imports/${created.body.data.id}`).set('X-Api-Key', h.apiKey).send({ sheet: 'Statement' }).expect(422);
    expect(patched.body).toMatchObject({ error: 'validation_failed', errors: ['sheet cannot be changed: upload the workbook again as a new import, naming the sheet'] });
  });

  it('reads a .xls that is an HTML page as its table, with the number and date formats of its text', async () => {
    const h = await t.newHousehold({ currency: 'EUR' });
    const accountId = await newAccount(t, h, 'Girokonto', 'EUR');
    const created = await upload(h, fixture('html-export.xls'), 'umsaetze.xls', {
      account_id: accountId,
      number_format: '1.234,56',
      date_format: '%d.%m.%Y',
      date_col_label: 'Datum',
      amount_col_label: 'Betrag',
      name_col_label: 'Empfänger',
      notes_col_label: 'Verwendungszweck',
      publish: 'true',
    }).expect(201);
    expect(await waitForImport(t.server, h.apiKey, created.body.data.id)).toMatchObject({ status: 'complete', error: null });
    expect(await entries(accountId)).toEqual([
      { date: '2025-12-02', name: 'Stadtwerke\u00a0München', amount: 8420, notes: 'Abschlag\nDezember' },
      { date: '2025-12-03', name: 'Gehalt', amount: -315000, notes: null },
      { date: '2025-12-05', name: 'REWE', amount: 2345, notes: 'Karte …1234' },
    ]);
  });

  it.each([
    ['an old binary .xls', 'legacy-biff.xls', 'statement.xls', 'invalid_file_type', /is an Excel 97-2003 workbook \(\.xls\).*save it as \.xlsx/],
    ['an XLSX cut short', 'bank-statement.xlsx:cut', 'statement.xlsx', 'invalid_xlsx', /^"statement\.xlsx" is incomplete or damaged/],
    ['a zip bomb (200 MB of sheet XML)', 'zip-bomb.xlsx', 'bomb.xlsx', 'content_too_large', /^"bomb\.xlsx"'s xl\/worksheets\/sheet1\.xml unpacks to more than 100 times its packed size, as no spreadsheet does \(a zip bomb\?\)/],
  ])('refuses %s with a clear 422 in under a second of CPU, storing nothing', async (_what, name, filename, code, message) => {
    const h = await t.newHousehold();
    const whole = fixture(name.replace(/:cut$/, ''));
    const bytes = name.endsWith(':cut') ? whole.subarray(0, Math.floor(whole.length * 0.6)) : whole;
    const rssBefore = process.memoryUsage().rss;
    const cpuBefore = process.cpuUsage();
    const res = await upload(h, bytes, filename, { date_col_label: 'Date' }).expect(422);
    // The app runs in this process: its CPU time is what the request cost, however busy the machine is.
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    expect(res.body.error).toBe(code);
    expect(res.body.message).toMatch(message);
    if (process.env.SPREADSHEET_FIGURES) console.log(filename, { cpuMs, rssGrowth: process.memoryUsage().rss - rssBefore });
    expect(cpuMs).toBeLessThan(1000);
    // What reading it may cost: the bomb is found out on its first 64 KB, inflated to no more than 6.4 MB.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 1024 * 1024);
    expect(await storedImports(h)).toBe(0);
  });

  it('says sheet applies only to an uploaded workbook', async () => {
    const h = await t.newHousehold();
    const res = await request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey).send({ raw_file_content: 'date,amount\n2025-12-01,1\n', sheet: 'Sheet1' }).expect(422);
    expect(res.body).toMatchObject({ error: 'validation_failed', errors: ['sheet names the sheet of an uploaded XLSX workbook to read: it does not apply to raw_file_content'] });
    expect(await storedImports(h)).toBe(0);
  });
});
