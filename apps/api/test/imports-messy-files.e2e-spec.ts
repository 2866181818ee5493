import request from 'supertest';
import { createImport, newAccount, publishAndWait, revertAndWait, waitForImport } from './support/imports';
import { Household, startTestApp, TestApp } from './support/test-app';

// Files as banks and apps really write them, uploaded through the HTTP API: what the rows, the published entries
// and the account's balance come to.

describe('imports: messy real-world files', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const entries = (accountId: string) =>
    t.dataSource.query(`SELECT e.date::text AS date, e.name, e.amount_minor::int AS amount FROM entries e WHERE e.account_id = $1 ORDER BY e.date`, [accountId]);

  it('publishes a European bank export whose data lines end with a separator its header line lacks (Windows-1252, CRLF)', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h, 'Girokonto', 'EUR');
    const csv = 'Buchungstag;Betrag;Verwendungszweck\r\n05.01.2024;-1.234,56;Miete Müller;\r\n\r\n06.01.2024;+2.500,00;Gehalt;\r\n';
    const res = await request(t.server)
      .post('/api/v1/imports')
      .set('X-Api-Key', h.apiKey)
      .field('account_id', accountId)
      .field('col_sep', 'semicolon')
      .field('number_format', '1.234,56')
      .field('date_format', '%d.%m.%Y')
      .field('date_col_label', 'Buchungstag')
      .field('amount_col_label', 'Betrag')
      .field('name_col_label', 'Verwendungszweck')
      .field('publish', 'true')
      .attach('file', Buffer.from(csv, 'latin1'), { filename: 'umsaetze.csv', contentType: 'text/csv' })
      .expect(201);
    expect(res.body.data.stats).toMatchObject({ rows_count: 2, invalid_rows_count: 0 });
    expect(await waitForImport(t.server, h.apiKey, res.body.data.id)).toMatchObject({ status: 'complete', error: null });
    expect(await entries(accountId)).toEqual([
      { date: '2024-01-05', name: 'Miete Müller', amount: 123456 },
      { date: '2024-01-06', name: 'Gehalt', amount: -250000 },
    ]);
  });

  it("publishes a file with Excel's separator line (sep=;) above its header", async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h, 'Girokonto', 'EUR');
    const csv = 'sep=;\r\nDatum;Betrag;Name\r\n05.01.2024;-12,34;Bäckerei\r\n';
    const created = await request(t.server)
      .post('/api/v1/imports')
      .set('X-Api-Key', h.apiKey)
      .send({ raw_file_content: csv, account_id: accountId, col_sep: 'semicolon', number_format: '1.234,56', date_format: '%d.%m.%Y', date_col_label: 'Datum', amount_col_label: 'Betrag', publish: 'true' })
      .expect(201);
    expect(created.body.data.stats).toMatchObject({ rows_count: 1, invalid_rows_count: 0 });
    expect(await waitForImport(t.server, h.apiKey, created.body.data.id)).toMatchObject({ status: 'complete', error: null });
    expect(await entries(accountId)).toEqual([{ date: '2024-01-05', name: 'Bäckerei', amount: 1234 }]);
  });

  describe('a date format told from the dates when none is given', () => {
    const importsOf = async (h: Household) =>
      (await t.dataSource.query(`SELECT count(*)::int AS count FROM imports WHERE family_id = $1`, [h.familyId]))[0].count as number;
    const rowDates = async (h: Household, id: string) =>
      (await request(t.server).get(`/api/v1/imports/${id}/rows`).set('X-Api-Key', h.apiKey).expect(200)).body.data.map((r: { fields: { date: string | null } }) => r.fields.date);
    const ambiguous = 'Date,Amount,Name\n01/02/2026,-1.00,Bakery\n03/04/2026,-2.00,Cafe\n';

    it('reads day-first dates without date_format, keeps the format and publishes the right days', async () => {
      const h = await t.newHousehold();
      const accountId = await newAccount(t, h);
      const csv = 'Date,Amount,Name\n31/10/2026,-12.50,Bakery\n01/11/2026,100.00,Refund\n';
      const done = await publishAndWait(t, h, { raw_file_content: csv, account_id: accountId });
      expect(done).toMatchObject({ status: 'complete', error: null, configuration: { date_format: '%d/%m/%Y' } });
      expect(await entries(accountId)).toEqual([
        { date: '2026-10-31', name: 'Bakery', amount: 1250 },
        { date: '2026-11-01', name: 'Refund', amount: -10000 },
      ]);
    });

    it('refuses dates that fit day first and month first with 422 ambiguous_date_format naming both, storing nothing', async () => {
      const h = await t.newHousehold();
      const accountId = await newAccount(t, h);
      const res = await createImport(t.server, h.apiKey, { raw_file_content: ambiguous, account_id: accountId }).expect(422);
      expect(res.body).toEqual({
        error: 'ambiguous_date_format',
        message: 'The dates fit both dd/mm/yyyy and mm/dd/yyyy (no day is above 12): send date_format to say which',
        errors: ['The dates fit both dd/mm/yyyy and mm/dd/yyyy (no day is above 12): send date_format to say which'],
        date_formats: ['%d/%m/%Y', '%m/%d/%Y'],
        date_sample: '01/02/2026',
      });
      expect(await importsOf(h)).toBe(0);
      // The answer to the question: the same file with the chosen format.
      const chosen = await createImport(t.server, h.apiKey, { raw_file_content: ambiguous, account_id: accountId, date_format: '%m/%d/%Y' }).expect(201);
      expect(chosen.body.data).toMatchObject({ configuration: { date_format: '%m/%d/%Y' }, stats: { rows_count: 2, invalid_rows_count: 0 } });
      expect(await rowDates(h, chosen.body.data.id)).toEqual(['2026-01-02', '2026-03-04']);
    });

    it('reads the rows again with a PATCH date_format, and tells the format again from the dates with date_format null', async () => {
      const h = await t.newHousehold();
      const accountId = await newAccount(t, h);
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'Date,Amount,Name\n31.10.2026,-1.00,A\n', account_id: accountId }).expect(201);
      const id = created.body.data.id;
      expect(created.body.data.configuration.date_format).toBe('%d.%m.%Y');
      const patch = (body: Record<string, unknown>) => request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send(body);
      const wrong = await patch({ date_format: '%Y-%m-%d' }).expect(200);
      expect(wrong.body.data).toMatchObject({ configuration: { date_format: '%Y-%m-%d' }, stats: { invalid_rows_count: 1 } });
      const again = await patch({ date_format: null }).expect(200);
      expect(again.body.data).toMatchObject({ configuration: { date_format: '%d.%m.%Y' }, stats: { invalid_rows_count: 0 } });
      expect(await rowDates(h, id)).toEqual(['2026-10-31']);
      // Keeping the format kept the stored file: its rows can be read again.
      expect((await patch({ skip_rows: [1] }).expect(200)).body.data.stats).toMatchObject({ rows_count: 0 });
    });

    it('refuses a PATCH that leaves the format to ambiguous dates, keeping the import as it was', async () => {
      const h = await t.newHousehold();
      const accountId = await newAccount(t, h);
      const created = await createImport(t.server, h.apiKey, { raw_file_content: ambiguous, account_id: accountId, date_format: '%d/%m/%Y' }).expect(201);
      const id = created.body.data.id;
      const res = await request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ date_format: null }).expect(422);
      expect(res.body).toMatchObject({ error: 'ambiguous_date_format', date_formats: ['%d/%m/%Y', '%m/%d/%Y'] });
      const shown = await request(t.server).get(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).expect(200);
      expect(shown.body.data.configuration.date_format).toBe('%d/%m/%Y');
      expect(await rowDates(h, id)).toEqual(['2026-02-01', '2026-04-03']);
    });
  });

  it('publishes a card export with Debit and Credit columns instead of an amount, and the account balance follows them', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h, 'Card');
    const csv = [
      'Transaction Date,Posted Date,Card No.,Description,Category,Debit,Credit',
      '2024-01-02,2024-01-03,1234,STARBUCKS,Dining,4.50,',
      '2024-01-04,2024-01-04,1234,PAYMENT THANK YOU,Payment,,500.00',
      '2024-01-05,2024-01-06,1234,AMAZON,Shopping,"1,234.56",',
    ].join('\r\n');
    const detail = await publishAndWait(t, h, { raw_file_content: csv, account_id: accountId, date_col_label: 'Transaction Date' });
    expect(detail).toMatchObject({ status: 'complete', error: null });
    expect(await entries(accountId)).toEqual([
      { date: '2024-01-02', name: 'STARBUCKS', amount: 450 },
      { date: '2024-01-04', name: 'PAYMENT THANK YOU', amount: -50000 },
      { date: '2024-01-05', name: 'AMAZON', amount: 123456 },
    ]);
    const accounts = (await request(t.server).get('/api/v1/accounts').set('X-Api-Key', h.apiKey).expect(200)).body.accounts;
    expect(accounts.map((a: { name: string; balance_cents: number }) => [a.name, a.balance_cents])).toEqual([['Card', 50000 - 450 - 123456]]);
  });

  it('publishes money-out and money-in columns named by outflow_col_label and inflow_col_label, and shows them', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h, 'Checking');
    const csv = 'Date,Type,Description,Withdrawal (-),Deposit (+),RunningBalance\r\n01/02/2024,ATM,CASH,$60.00,,$940.00\r\n01/03/2024,DEPOSIT,PAYROLL,,"$2,000.00","$2,940.00"\r\n';
    const sides = { outflow_col_label: 'Withdrawal (-)', inflow_col_label: 'Deposit (+)' };
    const detail = await publishAndWait(t, h, { raw_file_content: csv, account_id: accountId, date_format: '%m/%d/%Y', name_col_label: 'Description', ...sides });
    expect(detail).toMatchObject({ status: 'complete', error: null, configuration: sides });
    expect(await entries(accountId)).toEqual([
      { date: '2024-01-02', name: 'CASH', amount: 6000 },
      { date: '2024-01-03', name: 'PAYROLL', amount: -200000 },
    ]);
    // One signed amount column, or the two sides: not both, and nothing stored.
    const both = await request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey).send({ raw_file_content: csv, amount_col_label: 'RunningBalance', ...sides }).expect(422);
    expect(both.body).toMatchObject({ error: 'validation_failed', message: expect.stringContaining('amount_col_label cannot be given with outflow_col_label or inflow_col_label') });
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM imports WHERE family_id = $1`, [h.familyId]);
    expect(n).toBe(1);
  });

  /** The family's entries as they stand (id, account, date, name, amount, excluded, parent), and each account's balance. */
  const state = async (h: Household) => ({
    entries: await t.dataSource.query(
      `SELECT e.id, a.name AS account, e.date::text AS date, e.name, e.amount_minor::int AS amount, e.excluded, e.parent_entry_id AS parent, e.notes
         FROM entries e JOIN accounts a ON a.id = e.account_id WHERE e.family_id = $1 ORDER BY e.id`,
      [h.familyId],
    ),
    balances: (await request(t.server).get('/api/v1/accounts').set('X-Api-Key', h.apiKey).expect(200)).body.accounts.map((a: { name: string; balance_cents: number }) => [a.name, a.balance_cents]),
  });

  it.each([
    [
      'MintImport',
      [
        'Date,Description,Original Description,Amount,Transaction Type,Category,Account Name,Labels,Notes',
        '1/05/2024,Amazon,AMAZON MKTPLACE,"1,500.00",debit,Shopping,Chase Sapphire,Gift|Holiday,',
        '1/06/2024,Paycheck,ACME PAYROLL,"3,000.00",credit,Paycheck,Checking,,',
        '1/08/2024,Coffee,SBUX,4.50,debit,Food & Dining: Coffee Shops,Chase Sapphire,Work,morning',
        '1/08/2024,Coffee,SBUX,4.50,debit,Food & Dining: Coffee Shops,Chase Sapphire,Work,morning',
      ].join('\n'),
    ],
    [
      'YnabImport',
      [
        'Account,Flag,Date,Payee,Category Group/Category,Category Group,Category,Memo,Outflow,Inflow,Cleared',
        '💳 Visa,,03/01/2024,Costco,🏠 Household: 🛒 Groceries,🏠 Household,🛒 Groceries,,$120.00,$0.00,Cleared',
        '💰 Checking,,03/02/2024,Transfer : 💳 Visa,,,,,"$1,000.00",$0.00,Cleared',
        '💳 Visa,,03/02/2024,Transfer : 💰 Checking,,,,,$0.00,"$1,000.00",Cleared',
        '💰 Checking,,03/03/2024,Employer,Inflow: Ready to Assign,Inflow,Ready to Assign,,$0.00,"$2,345.67",Uncleared',
      ].join('\n'),
    ],
    [
      'ActualImport',
      [
        'Account,Date,Payee,Notes,Category_Group,Category,Amount,Split_Amount,Cleared',
        'Checking,2024-04-01,Employer,,Income,Salary,"1,000.00",0,true',
        'Checking,2024-04-02,Supermarket,(SPLIT INTO 2) weekly,,,0,-80.00,true',
        'Checking,2024-04-02,Supermarket,(SPLIT 1 OF 2) food,Food,Groceries,-60.00,0,true',
        'Checking,2024-04-02,Supermarket,(SPLIT 2 OF 2) soap,Home,Supplies,-20.00,0,true',
      ].join('\n'),
    ],
  ])('links a re-imported %s export to the transactions the first import made instead of doubling them; revert of either restores what was before it', async (type, csv) => {
    const h = await t.newHousehold();
    const first = await publishAndWait(t, h, { type, raw_file_content: csv });
    expect(first).toMatchObject({ status: 'complete', error: null });
    const once = await state(h);
    const again = await publishAndWait(t, h, { type, raw_file_content: csv });
    expect(again).toMatchObject({ status: 'complete', error: null });
    expect(await state(h)).toEqual(once);
    const linked = await request(t.server).get(`/api/v1/imports/${again.id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
    const ids = new Set(once.entries.map((e: { id: string }) => e.id));
    expect(linked.body.data.every((r: { duplicate_of: string | null }) => r.duplicate_of !== null && ids.has(r.duplicate_of))).toBe(true);
    // Reverting the re-import removes nothing the first import made; reverting that one then empties the family.
    expect((await revertAndWait(t, h, again.id)).status).toBe('pending');
    expect(await state(h)).toEqual(once);
    expect((await revertAndWait(t, h, first.id)).status).toBe('pending');
    expect((await state(h)).entries).toEqual([]);
  });
});
