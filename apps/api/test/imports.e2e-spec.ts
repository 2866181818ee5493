import request from 'supertest';
import { addOpeningBalance, bankQifWithout, budgetSpending, createImport, newAccount, openingBalances, publishAndWait, revertAndWait, waitForImport } from './support/imports';
import { until } from './support/until';
import { localDateIn } from '@hearth/domain/budget-math';
import { ImportPublisher } from '../src/imports/publishing/import-publisher';
import type { DataSource } from 'typeorm';
import { startTestApp, TestApp } from './support/test-app';

/** A transaction entered by hand (USD): the entry with its transaction row, in one statement; returns the entry id. */
async function enterByHand(dataSource: DataSource, familyId: string, accountId: string, t: { date: string; name: string; amountMinor: number }): Promise<string> {
  const [row] = await dataSource.query(
    `WITH e AS (INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency)
                VALUES ($1, $2, 'Transaction', $3, $4, $5, 'USD') RETURNING id)
     INSERT INTO transactions (entry_id) SELECT id FROM e RETURNING entry_id AS id`,
    [familyId, accountId, t.date, t.name, t.amountMinor],
  );
  return row.id;
}

describe('imports: CSV types through the HTTP API, publish and revert', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const count = async (sql: string, params: unknown[]) => Number((await t.dataSource.query(sql, params))[0].count);
  const entries = (familyId: string) =>
    t.dataSource.query(
      `SELECT e.date::text AS date, e.name, e.amount_minor::int AS amount, e.currency, e.notes, c.name AS category, a.name AS account,
              (SELECT string_agg(g.name, '|' ORDER BY g.name) FROM taggings tg JOIN tags g ON g.id = tg.tag_id WHERE tg.entry_id = e.id) AS tags
         FROM entries e JOIN accounts a ON a.id = e.account_id
         LEFT JOIN transactions tr ON tr.entry_id = e.id LEFT JOIN categories c ON c.id = tr.category_id
        WHERE e.family_id = $1 ORDER BY e.date, e.name`,
      [familyId],
    );

  it('creates a TransactionImport, reports its detail, publishes it into the account and reverts it', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h);
    const csv = [
      'Date,Amount,Description,Category,Tags,Notes',
      '2024-03-01,-45.99,Grocer,Food:Groceries,weekly|food,first',
      '2024-03-02,2500.00,Payroll,Income,,',
      '2024-03-03,"(12.50)",Cafe,Food:Coffee,food,',
    ].join('\n');
    const created = await createImport(t.server, h.apiKey, {
      raw_file_content: csv,
      account_id: accountId,
      date_col_label: 'Date',
      amount_col_label: 'Amount',
      name_col_label: 'Description',
      date_format: '%Y-%m-%d',
    }).expect(201);
    const detail = created.body.data;
    expect(detail).toMatchObject({
      type: 'TransactionImport',
      status: 'pending',
      account_id: accountId,
      error: null,
      status_detail: { uploaded: true, configured: true, terminal: false, cleaned: true, publishable: true, revertable: false },
      configuration: { date_col_label: 'Date', amount_col_label: 'Amount', name_col_label: 'Description', date_format: '%Y-%m-%d', number_format: '1,234.56', signage_convention: 'inflows_positive' },
      stats: { rows_count: 3, valid_rows_count: 3, invalid_rows_count: 0, mappings_count: 5, unassigned_mappings_count: 0 },
    });
    expect(detail.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(detail.verification).toBeUndefined();

    const queued = await request(t.server).post(`/api/v1/imports/${detail.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect(queued.body.data.status).toBe('importing');
    const done = await waitForImport(t.server, h.apiKey, detail.id);
    expect(done).toMatchObject({ status: 'complete', status_detail: { terminal: true, publishable: false, revertable: true } });

    // inflows_positive: a negative CSV amount is money out (positive entry), parentheses are negative.
    expect(await entries(h.familyId)).toEqual([
      { date: '2024-03-01', name: 'Grocer', amount: 4599, currency: 'USD', notes: 'first', category: 'Groceries', account: 'Checking', tags: 'food|weekly' },
      { date: '2024-03-02', name: 'Payroll', amount: -250000, currency: 'USD', notes: null, category: 'Income', account: 'Checking', tags: null },
      { date: '2024-03-03', name: 'Cafe', amount: 1250, currency: 'USD', notes: null, category: 'Coffee', account: 'Checking', tags: 'food' },
    ]);
    const [groceries] = await t.dataSource.query(`SELECT p.name AS parent FROM categories c JOIN categories p ON p.id = c.parent_id WHERE c.family_id = $1 AND c.name = 'Groceries'`, [h.familyId]);
    expect(groceries.parent).toBe('Food');

    await request(t.server).post(`/api/v1/imports/${detail.id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
    const reverted = await waitForImport(t.server, h.apiKey, detail.id);
    expect(reverted.status).toBe('pending');
    expect(await entries(h.familyId)).toEqual([]);
    expect(await count(`SELECT count(*) FROM categories WHERE family_id = $1`, [h.familyId])).toBe(0);
    expect(await count(`SELECT count(*) FROM tags WHERE family_id = $1`, [h.familyId])).toBe(0);
    expect(await count(`SELECT count(*) FROM accounts WHERE family_id = $1`, [h.familyId])).toBe(1);

    // The same rows publish again after a revert.
    await request(t.server).post(`/api/v1/imports/${detail.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await waitForImport(t.server, h.apiKey, detail.id)).status).toBe('complete');
    expect(await entries(h.familyId)).toHaveLength(3);
  });

  it("converts each row's amount by its own currency's minor unit (JPY none, KWD three digits)", async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h);
    const csv = ['Date,Amount,Description,Currency', '2024-03-01,-1200,Ramen,JPY', '2024-03-02,-1.234,Souk,KWD', '2024-03-03,-9.99,Diner,'].join('\n');
    const done = await publishAndWait(t, h, { raw_file_content: csv, account_id: accountId, currency_col_label: 'Currency', date_format: '%Y-%m-%d' });
    expect(done.status).toBe('complete');
    expect((await entries(h.familyId)).map((e: { name: string; amount: number; currency: string }) => [e.name, e.amount, e.currency])).toEqual([
      ['Ramen', 1200, 'JPY'],
      ['Souk', 1234, 'KWD'],
      ['Diner', 999, 'USD'], // no currency: the account's
    ]);
  });

  it('publishes a statement with title lines above its header, found or named by header_row (a form field too)', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h);
    const csv = ['Account name: ,Main ****0123,,,,', 'Account balance: ,63.86,,,,', 'Date,Transactions,Debits,Credits,Balance', '', '04 Nov 2009,Direct Debit,18.75,,902.74', '05 Nov 2009,Salary,,100.00,1002.74'].join('\n');
    const found = await publishAndWait(t, h, { raw_file_content: csv, account_id: accountId, date_format: '%d %b %Y', name_col_label: 'Transactions' });
    expect(found.status).toBe('complete');
    expect((await entries(h.familyId)).map((e: { date: string; name: string; amount: number }) => [e.date, e.name, e.amount])).toEqual([
      ['2009-11-04', 'Direct Debit', 1875],
      ['2009-11-05', 'Salary', -10000],
    ]);
    const form = await request(t.server)
      .post('/api/v1/imports')
      .set('X-Api-Key', h.apiKey)
      .field('account_id', accountId)
      .field('date_format', '%d %b %Y')
      .field('header_row', '3')
      .attach('file', Buffer.from(csv), { filename: 'statement.csv', contentType: 'text/csv' })
      .expect(201);
    expect(form.body.data.configuration).toMatchObject({ header_row: 3, has_header: true });
    expect(form.body.data.stats).toMatchObject({ rows_count: 2, valid_rows_count: 2 });
  });

  it('publishes a file without a header line (has_header false), its columns named by number', async () => {
    const h = await t.newHousehold({ currency: 'EUR' });
    const accountId = await newAccount(t, h, 'Girokonto', 'EUR');
    const csv = ['18.09.2017;"HOFER DANKT 0527";18.09.2017;-33,87;EUR;;', '19.09.2017;Gehalt;19.09.2017;1.200,00;EUR;;'].join('\n');
    const done = await publishAndWait(t, h, {
      raw_file_content: csv, account_id: accountId, has_header: false, col_sep: 'semicolon', number_format: '1.234,56', date_format: '%d.%m.%Y',
      date_col_label: '1', name_col_label: '2', amount_col_label: '4', currency_col_label: '5',
    });
    expect(done.status).toBe('complete');
    expect((await entries(h.familyId)).map((e: { date: string; name: string; amount: number }) => [e.date, e.name, e.amount])).toEqual([
      ['2017-09-18', 'HOFER DANKT 0527', 3387],
      ['2017-09-19', 'Gehalt', -120000],
    ]);
  });

  it('creates the accounts a multi-account file names, matching existing ones by name', async () => {
    const h = await t.newHousehold({ currency: 'EUR' });
    await newAccount(t, h, 'Girokonto', 'EUR');
    const csv = ['Datum;Betrag;Konto;Name', '15.01.2024;-1.234,56;Girokonto;Miete', '16.01.2024;20,00;Sparkonto;Zinsen'].join('\n');
    const done = await publishAndWait(t, h, {
      raw_file_content: csv,
      col_sep: 'semicolon',
      number_format: '1.234,56',
      date_format: '%d.%m.%Y',
      date_col_label: 'Datum',
      amount_col_label: 'Betrag',
      account_col_label: 'Konto',
    });
    expect(done.status).toBe('complete');
    expect(await entries(h.familyId)).toEqual([
      expect.objectContaining({ date: '2024-01-15', name: 'Miete', amount: 123456, currency: 'EUR', account: 'Girokonto' }),
      expect.objectContaining({ date: '2024-01-16', name: 'Zinsen', amount: -2000, currency: 'EUR', account: 'Sparkonto' }),
    ]);
    expect(await count(`SELECT count(*) FROM accounts WHERE family_id = $1`, [h.familyId])).toBe(2);
  });

  it('skips transactions that already exist instead of duplicating them', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h);
    const csv = 'date,amount,name\n2024-05-01,-10.00,Coffee\n2024-05-01,-10.00,Coffee\n2024-05-02,-3.00,Bus';
    const first = await publishAndWait(t, h, { raw_file_content: csv, account_id: accountId, date_col_label: 'date', amount_col_label: 'amount' });
    expect(first.status).toBe('complete');
    const overlap = 'date,amount,name,notes\n2024-05-01,-10.00,Coffee,seen\n2024-05-02,-3.00,Bus,\n2024-05-03,-7.00,Lunch,';
    const second = await publishAndWait(t, h, { raw_file_content: overlap, account_id: accountId, date_col_label: 'date', amount_col_label: 'amount' });
    expect(second.status).toBe('complete');
    const rows = await entries(h.familyId);
    expect(rows.map((r: { name: string }) => r.name)).toEqual(['Coffee', 'Coffee', 'Bus', 'Lunch']);
    expect(rows.filter((r: { notes: string }) => r.notes === 'seen')).toHaveLength(1);
    // Reverting the second import removes only what it created.
    await request(t.server).post(`/api/v1/imports/${second.id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
    await waitForImport(t.server, h.apiKey, second.id);
    expect((await entries(h.familyId)).map((r: { name: string }) => r.name)).toEqual(['Coffee', 'Coffee', 'Bus']);
  });

  it('links a row to a matching entry made by hand, only in the import account', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h);
    const other = await newAccount(t, h, 'Savings');
    // A rent payment of 500 entered by hand.
    const rentByHand = (account: string, date: string) => enterByHand(t.dataSource, h.familyId, account, { date, name: 'Rent', amountMinor: 50000 });
    const rentId = await rentByHand(accountId, '2024-06-10');
    // The same transaction in another account of the family is no duplicate, and does not widen this account's span.
    await rentByHand(other, '2024-06-09');
    const csv = 'date,amount,name\n2024-06-09,-500.00,Rent\n2024-06-10,-500.00,Rent\n2024-06-11,-500.00,Rent';
    const done = await publishAndWait(t, h, { raw_file_content: csv, account_id: accountId, date_col_label: 'date', amount_col_label: 'amount' });
    expect(done.status).toBe('complete');
    const rows = await t.dataSource.query(`SELECT source_row_number AS n, duplicate_of FROM import_rows WHERE import_id = $1 ORDER BY 1`, [done.id]);
    expect(rows).toEqual([{ n: 1, duplicate_of: null }, { n: 2, duplicate_of: rentId }, { n: 3, duplicate_of: null }]);
    expect(await count(`SELECT count(*) FROM entries WHERE account_id = $1`, [accountId])).toBe(3);
  });

  it('publishes a Mint export (debit/credit magnitudes, labels) into accounts named in the file', async () => {
    const h = await t.newHousehold();
    const csv = [
      'Date,Description,Original Description,Amount,Transaction Type,Category,Account Name,Labels,Notes',
      '01/05/2024,Whole Foods,WHOLEFDS,85.20,debit,Groceries,Chase Checking,food,',
      '01/06/2024,Paycheck,ACME PAYROLL,"3,000.00",credit,Paycheck,Chase Checking,,monthly',
    ].join('\n');
    const done = await publishAndWait(t, h, { type: 'MintImport', raw_file_content: csv });
    expect(done.status).toBe('complete');
    expect(done.configuration).toMatchObject({ date_col_label: 'Date', account_col_label: 'Account Name', date_format: '%m/%d/%Y' });
    expect(await entries(h.familyId)).toEqual([
      { date: '2024-01-05', name: 'Whole Foods', amount: 8520, currency: 'USD', notes: null, category: 'Groceries', account: 'Chase Checking', tags: 'food' },
      { date: '2024-01-06', name: 'Paycheck', amount: -300000, currency: 'USD', notes: 'monthly', category: 'Paycheck', account: 'Chase Checking', tags: null },
    ]);
  });

  it("checks a Mint row's amount against the currency of the account it names, at upload and again at publish", async () => {
    const h = await t.newHousehold();
    await newAccount(t, h, 'Yen Card', 'JPY');
    const header = 'Date,Description,Original Description,Amount,Transaction Type,Category,Account Name,Labels,Notes';
    const csv = [
      header,
      '01/05/2024,Ramen,RAMEN,"1,200.50",debit,,Yen Card,,',
      '01/06/2024,Sushi,SUSHI,"3,000",debit,,Yen Card,,',
      '01/07/2024,Grocer,GROCER,85.20,debit,,Chase Checking,,',
      '01/08/2024,Misread,MISREAD,1.234,debit,,Chase Checking,,',
    ].join('\n');
    const refused = await createImport(t.server, h.apiKey, { type: 'MintImport', raw_file_content: csv, publish: 'true' }).expect(422);
    expect(refused.body).toMatchObject({ error: 'not_publishable', import_id: expect.any(String) });
    // Yen Card exists in JPY; Chase Checking will be created in the family's USD.
    const rows = await request(t.server).get(`/api/v1/imports/${refused.body.import_id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
    expect(rows.body.data.map((r: { errors: string[] }) => r.errors)).toEqual([
      ["Row 1: Amount '1200.50' is finer than the JPY minor unit: JPY amounts have 0 decimals (check number_format and the currency)"],
      [],
      [],
      ["Row 4: Amount '1.234' is finer than the USD minor unit: USD amounts have 2 decimals (check number_format and the currency)"],
    ]);
    const detail = await request(t.server).get(`/api/v1/imports/${refused.body.import_id}`).set('X-Api-Key', h.apiKey).expect(200);
    expect(detail.body.data.stats).toMatchObject({ rows_count: 4, invalid_rows_count: 2 });

    // Valid at upload; by publish the family has moved to yen, which the new account would take.
    const cents = await createImport(t.server, h.apiKey, { type: 'MintImport', raw_file_content: [header, csv.split('\n')[3]].join('\n') }).expect(201);
    await t.dataSource.query(`UPDATE families SET currency = 'JPY' WHERE id = $1`, [h.familyId]);
    await request(t.server).post(`/api/v1/imports/${cents.body.data.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    const failed = await waitForImport(t.server, h.apiKey, cents.body.data.id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.error).toBe(
      "1 rows have amounts their account's currency cannot hold: Row 1: Amount '85.20' is finer than the JPY minor unit: JPY amounts have 0 decimals (check number_format and the currency)",
    );
    expect(await count(`SELECT count(*) FROM accounts WHERE family_id = $1 AND name = 'Chase Checking'`, [h.familyId])).toBe(0);
    await t.dataSource.query(`UPDATE families SET currency = 'USD' WHERE id = $1`, [h.familyId]);
    await request(t.server).post(`/api/v1/imports/${cents.body.data.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await waitForImport(t.server, h.apiKey, cents.body.data.id)).status).toBe('complete');
    expect(await entries(h.familyId)).toEqual([expect.objectContaining({ name: 'Grocer', amount: 8520, currency: 'USD', account: 'Chase Checking' })]);
  });

  it('publishes an Actual Budget export with category groups as parents', async () => {
    const h = await t.newHousehold();
    const csv = [
      'Account,Date,Payee,Notes,Category_Group,Category,Amount,Split_Amount,Cleared',
      'Checking,2024-02-01,Landlord,,Housing,Rent,-1500.00,0,Cleared',
      'Checking,2024-02-02,,Starting balance,,,2000.00,0,Reconciled',
    ].join('\n');
    const done = await publishAndWait(t, h, { type: 'ActualImport', raw_file_content: csv });
    expect(done.status).toBe('complete');
    expect(await entries(h.familyId)).toEqual([
      expect.objectContaining({ date: '2024-02-01', name: 'Landlord', amount: 150000, category: 'Rent', account: 'Checking' }),
      expect.objectContaining({ date: '2024-02-02', name: 'Starting balance', amount: -200000, category: null, account: 'Checking' }),
    ]);
    const [rent] = await t.dataSource.query(`SELECT p.name AS parent FROM categories c JOIN categories p ON p.id = c.parent_id WHERE c.family_id = $1 AND c.name = 'Rent'`, [h.familyId]);
    expect(rent.parent).toBe('Housing');
  });

  describe('Actual splits', () => {
    const actualCsv = (...rows: string[]) => ['Account,Date,Payee,Notes,Category,Amount,Split_Amount,Cleared', ...rows].join('\n');
    const ledger = (familyId: string) =>
      t.dataSource.query(
        `SELECT e.name, e.amount_minor::int AS amount, e.notes, e.excluded, c.name AS category, p.name AS parent, p.amount_minor::int AS parent_amount
           FROM entries e JOIN transactions tr ON tr.entry_id = e.id LEFT JOIN categories c ON c.id = tr.category_id LEFT JOIN entries p ON p.id = e.parent_entry_id
          WHERE e.family_id = $1 ORDER BY e.date, e.parent_entry_id NULLS FIRST, e.amount_minor DESC`,
        [familyId],
      );

    it('publishes a split as one transaction of its total with its parts as split children, counted once by budgets; revert removes them', async () => {
      const h = await t.newHousehold();
      const csv = actualCsv(
        'Checking,2024-03-05,Costco,(SPLIT INTO 2) weekly shop,,0,-100.00,Cleared',
        'Checking,2024-03-05,Costco,(SPLIT 1 OF 2) food,Food: Groceries,-70.00,0,Cleared',
        'Checking,2024-03-05,Costco,(SPLIT 2 OF 2) ,Home: Supplies,-30.00,0,Cleared',
        'Checking,2024-03-06,Cafe,,Food: Coffee,-4.50,0,Cleared',
      );
      const done = await publishAndWait(t, h, { type: 'ActualImport', raw_file_content: csv });
      expect(done).toMatchObject({ status: 'complete', stats: { rows_count: 4, valid_rows_count: 4, invalid_rows_count: 0 } });
      expect(await ledger(h.familyId)).toEqual([
        { name: 'Costco', amount: 10000, notes: 'weekly shop', excluded: true, category: null, parent: null, parent_amount: null },
        { name: 'Costco', amount: 7000, notes: 'food', excluded: false, category: 'Groceries', parent: 'Costco', parent_amount: 10000 },
        { name: 'Costco', amount: 3000, notes: null, excluded: false, category: 'Supplies', parent: 'Costco', parent_amount: 10000 },
        { name: 'Cafe', amount: 450, notes: null, excluded: false, category: 'Coffee', parent: null, parent_amount: null },
      ]);
      // The rows endpoint reports the parent row with the split's total and each part with its parent's row.
      const rows = await request(t.server).get(`/api/v1/imports/${done.id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
      expect(rows.body.data.map((r: { fields: Record<string, unknown> }) => [r.fields.amount, r.fields.split_count ?? null, r.fields.split_of ?? null])).toEqual([
        ['100.00', 2, null], ['70.00', null, 1], ['30.00', null, 1], ['4.50', null, null],
      ]);

      expect(await budgetSpending(t, h, '2024-03-01', ['Groceries', 'Supplies', 'Food', 'Home'])).toEqual({ total: 10450, byCategory: [7000, 3000, 7450, 3000] });

      expect((await revertAndWait(t, h, done.id)).status).toBe('pending');
      expect(await count(`SELECT count(*) FROM entries WHERE family_id = $1`, [h.familyId])).toBe(0);
      expect(await count(`SELECT count(*) FROM transactions tr WHERE NOT EXISTS (SELECT 1 FROM entries e WHERE e.id = tr.entry_id)`, [])).toBe(0);
    });

    it('refuses at upload a split whose parts do not add up to its total, naming its row', async () => {
      const h = await t.newHousehold();
      const csv = actualCsv(
        'Checking,2024-03-06,Cafe,,Food: Coffee,-4.50,0,Cleared',
        'Checking,2024-03-05,Costco,(SPLIT INTO 2),,0,-100.00,Cleared',
        'Checking,2024-03-05,Costco,(SPLIT 1 OF 2),Food: Groceries,-70.00,0,Cleared',
        'Checking,2024-03-05,Costco,(SPLIT 2 OF 2),Home: Supplies,-20.00,0,Cleared',
      );
      const created = await createImport(t.server, h.apiKey, { type: 'ActualImport', raw_file_content: csv }).expect(201);
      expect(created.body.data.stats).toMatchObject({ rows_count: 4, invalid_rows_count: 1 });
      const rows = await request(t.server).get(`/api/v1/imports/${created.body.data.id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
      expect(rows.body.data.filter((r: { valid: boolean }) => !r.valid).map((r: { errors: string[] }) => r.errors)).toEqual([
        ["Row 2: its split rows add up to 90.00, not to the split's total 100.00"],
      ]);
      await request(t.server).post(`/api/v1/imports/${created.body.data.id}/publish`).set('X-Api-Key', h.apiKey).expect(422);
    });

    it("lets a bank line claim a split's parent but not its part, and passes the claimed parent to that import as a plain transaction when the Actual import is reverted", async () => {
      const h = await t.newHousehold();
      const csv = actualCsv(
        'Checking,2024-03-05,Costco,(SPLIT INTO 2) weekly shop,,0,-100.00,Cleared',
        'Checking,2024-03-05,Costco,(SPLIT 1 OF 2) food,Food: Groceries,-70.00,0,Cleared',
        'Checking,2024-03-05,Costco,(SPLIT 2 OF 2) ,Home: Supplies,-30.00,0,Cleared',
      );
      const actual = await publishAndWait(t, h, { type: 'ActualImport', raw_file_content: csv });
      expect(actual.status).toBe('complete');
      const [{ id: account }] = await t.dataSource.query(`SELECT id FROM accounts WHERE family_id = $1`, [h.familyId]);
      // One bank file holds the purchase (the split's total), another a 70.00 at Costco the same day (a part's amount).
      const bank = (amount: string) => ({ raw_file_content: `date,amount,name\n2024-03-05,${amount},Costco`, account_id: account, date_col_label: 'date', amount_col_label: 'amount' });
      const whole = await publishAndWait(t, h, bank('-100.00'));
      const part = await publishAndWait(t, h, bank('-70.00'));
      expect([whole.status, part.status]).toEqual(['complete', 'complete']);
      // The purchase is the split's parent; a part is a share of it, not a bank line, so the 70.00 is a purchase of its own.
      const claimed = await t.dataSource.query(
        `SELECT r.import_id, e.amount_minor::int AS amount FROM import_rows r JOIN entries e ON e.id = r.duplicate_of WHERE e.family_id = $1`,
        [h.familyId],
      );
      expect(claimed).toEqual([{ import_id: whole.id, amount: 10000 }]);
      expect(await count(`SELECT count(*) FROM entries WHERE family_id = $1`, [h.familyId])).toBe(4);

      // Each bank file's transaction stays, as that import's own and counted, as if the bank file had come alone.
      expect((await revertAndWait(t, h, actual.id)).status).toBe('pending');
      const left = await t.dataSource.query(
        `SELECT amount_minor::int AS amount, excluded, parent_entry_id, import_id FROM entries WHERE family_id = $1 ORDER BY amount_minor DESC`,
        [h.familyId],
      );
      expect(left).toEqual([
        { amount: 10000, excluded: false, parent_entry_id: null, import_id: whole.id },
        { amount: 7000, excluded: false, parent_entry_id: null, import_id: part.id },
      ]);
      // Reverting either bank import takes its own transaction only.
      expect((await revertAndWait(t, h, whole.id)).status).toBe('pending');
      expect(await t.dataSource.query(`SELECT amount_minor::int AS amount, import_id FROM entries WHERE family_id = $1`, [h.familyId])).toEqual([{ amount: 7000, import_id: part.id }]);
    });
  });

  describe('one leaf under several parents ("Food: Other", "Travel: Other")', () => {
    const categoryTree = (familyId: string) =>
      t.dataSource.query(`SELECT c.name, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id WHERE c.family_id = $1 ORDER BY c.name`, [familyId]);
    const categoryMappings = (importId: string) =>
      t.dataSource.query(`SELECT key, mappable_id IS NOT NULL AS matched FROM import_mappings WHERE import_id = $1 AND type = 'category' ORDER BY key`, [importId]);
    const ynab = (...rows: string[]) => ['Account,Flag,Date,Payee,Category Group/Category,Category Group,Category,Memo,Outflow,Inflow,Cleared', ...rows].join('\n');

    it('files each under its qualified name and parent, creates nothing when the file comes again, and revert removes them', async () => {
      const h = await t.newHousehold();
      const csv = ynab(
        'Visa,,03/10/2024,Snack Bar,Food: Other,Food,Other,,$5.00,$0.00,Cleared',
        'Visa,,03/11/2024,Ferry,Travel: Other,Travel,Other,,$40.00,$0.00,Cleared',
        'Visa,,03/12/2024,Grocer,Food: Groceries,Food,Groceries,,$20.00,$0.00,Cleared',
      );
      const first = await publishAndWait(t, h, { type: 'YnabImport', raw_file_content: csv });
      expect(first.status).toBe('complete');
      expect(await categoryTree(h.familyId)).toEqual([
        { name: 'Food', parent: null },
        { name: 'Food: Other', parent: 'Food' },
        { name: 'Groceries', parent: 'Food' },
        { name: 'Travel', parent: null },
        { name: 'Travel: Other', parent: 'Travel' },
      ]);
      expect((await entries(h.familyId)).map((e: { name: string; category: string }) => [e.name, e.category])).toEqual([
        ['Snack Bar', 'Food: Other'],
        ['Ferry', 'Travel: Other'],
        ['Grocer', 'Groceries'],
      ]);

      // Again, in another row order: every key is matched at upload, and publishing creates nothing.
      const again = ynab(
        'Visa,,03/13/2024,Taxi,Travel: Other,Travel,Other,,$9.00,$0.00,Cleared',
        'Visa,,03/14/2024,Kiosk,Food: Other,Food,Other,,$2.00,$0.00,Cleared',
        'Visa,,03/15/2024,Market,Food: Groceries,Food,Groceries,,$7.00,$0.00,Cleared',
      );
      const second = await createImport(t.server, h.apiKey, { type: 'YnabImport', raw_file_content: again }).expect(201);
      expect(await categoryMappings(second.body.data.id)).toEqual([
        { key: 'Food: Groceries', matched: true },
        { key: 'Food: Other', matched: true },
        { key: 'Travel: Other', matched: true },
      ]);
      await request(t.server).post(`/api/v1/imports/${second.body.data.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      expect((await waitForImport(t.server, h.apiKey, second.body.data.id)).status).toBe('complete');
      expect((await categoryTree(h.familyId)).length).toBe(5);
      expect((await entries(h.familyId)).map((e: { name: string; category: string }) => [e.name, e.category]).slice(3)).toEqual([
        ['Taxi', 'Travel: Other'],
        ['Kiosk', 'Food: Other'],
        ['Market', 'Groceries'],
      ]);

      expect((await revertAndWait(t, h, second.body.data.id)).status).toBe('pending');
      expect((await revertAndWait(t, h, first.id)).status).toBe('pending');
      expect(await categoryTree(h.familyId)).toEqual([]);
    });

    it('sends a leaf whose existing category has another parent to "Parent: Leaf", and revert removes only that', async () => {
      const h = await t.newHousehold();
      await t.dataSource.query(
        `WITH food AS (INSERT INTO categories (family_id, name) VALUES ($1, 'Food') RETURNING id) INSERT INTO categories (family_id, name, parent_id) SELECT $1, 'Other', id FROM food`,
        [h.familyId],
      );
      const csv = ynab('Visa,,03/10/2024,Ferry,Travel: Other,Travel,Other,,$40.00,$0.00,Cleared', 'Visa,,03/11/2024,Snack Bar,Food: Other,Food,Other,,$5.00,$0.00,Cleared');
      const created = await createImport(t.server, h.apiKey, { type: 'YnabImport', raw_file_content: csv }).expect(201);
      expect(await categoryMappings(created.body.data.id)).toEqual([
        { key: 'Food: Other', matched: true },
        { key: 'Travel: Other', matched: false },
      ]);
      await request(t.server).post(`/api/v1/imports/${created.body.data.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
      expect(await categoryTree(h.familyId)).toEqual([
        { name: 'Food', parent: null },
        { name: 'Other', parent: 'Food' },
        { name: 'Travel', parent: null },
        { name: 'Travel: Other', parent: 'Travel' },
      ]);
      expect((await entries(h.familyId)).map((e: { name: string; category: string }) => [e.name, e.category])).toEqual([
        ['Ferry', 'Travel: Other'],
        ['Snack Bar', 'Other'],
      ]);
      expect((await revertAndWait(t, h, created.body.data.id)).status).toBe('pending');
      expect(await categoryTree(h.familyId)).toEqual([
        { name: 'Food', parent: null },
        { name: 'Other', parent: 'Food' },
      ]);
    });

    it('places a key again at publish when the family got another parent\'s leaf after the upload', async () => {
      const h = await t.newHousehold();
      const created = await createImport(t.server, h.apiKey, { type: 'YnabImport', raw_file_content: ynab('Visa,,03/10/2024,Ferry,Travel: Other,Travel,Other,,$40.00,$0.00,Cleared') }).expect(201);
      expect(await categoryMappings(created.body.data.id)).toEqual([{ key: 'Travel: Other', matched: false }]);
      await t.dataSource.query(
        `WITH food AS (INSERT INTO categories (family_id, name) VALUES ($1, 'Food') RETURNING id) INSERT INTO categories (family_id, name, parent_id) SELECT $1, 'Other', id FROM food`,
        [h.familyId],
      );
      await request(t.server).post(`/api/v1/imports/${created.body.data.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
      expect((await entries(h.familyId)).map((e: { category: string }) => e.category)).toEqual(['Travel: Other']);
      expect((await categoryTree(h.familyId)).map((c: { name: string }) => c.name)).toEqual(['Food', 'Other', 'Travel', 'Travel: Other']);
    });

    it('keeps mapping "Parent: Leaf" to a leaf of no parent, under every parent, and leaves it (and the parents) as they are', async () => {
      const h = await t.newHousehold();
      const [other] = await t.dataSource.query(`INSERT INTO categories (family_id, name) VALUES ($1, 'Other') RETURNING id`, [h.familyId]);
      const csv = ynab('Visa,,03/10/2024,Ferry,Travel: Other,Travel,Other,,$40.00,$0.00,Cleared', 'Visa,,03/11/2024,Snack Bar,Food: Other,Food,Other,,$5.00,$0.00,Cleared');
      const done = await publishAndWait(t, h, { type: 'YnabImport', raw_file_content: csv });
      expect(done.status).toBe('complete');
      expect(await t.dataSource.query(`SELECT DISTINCT category_id FROM transactions t JOIN entries e ON e.id = t.entry_id WHERE e.family_id = $1`, [h.familyId])).toEqual([
        { category_id: other.id },
      ]);
      // Matched at upload, so publishing creates nothing, not even the parents.
      expect(await categoryTree(h.familyId)).toEqual([{ name: 'Other', parent: null }]);
    });

    it('refuses at upload a row whose qualified name would be longer than a category name can be', async () => {
      const h = await t.newHousehold();
      const parent = 'P'.repeat(195);
      const csv = ynab(`Visa,,03/10/2024,Ferry,${parent}: Other,${parent},Other,,$40.00,$0.00,Cleared`, 'Visa,,03/11/2024,Snack Bar,Food: Other,Food,Other,,$5.00,$0.00,Cleared');
      const created = await createImport(t.server, h.apiKey, { type: 'YnabImport', raw_file_content: csv }).expect(201);
      expect(created.body.data.stats).toMatchObject({ invalid_rows_count: 1, mappings_count: 2 });
      const rows = await request(t.server).get(`/api/v1/imports/${created.body.data.id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
      expect(rows.body.data.map((r: { errors: string[] }) => r.errors)).toEqual([
        [`Row 1: Category '${'P'.repeat(40)}…' is too long: 'Other' is under another parent too, so this one would be named '${'P'.repeat(40)}…' (202 characters), and category names can have at most 200 characters`],
        [],
      ]);
    });
  });

  it('takes a category with an empty side of "Parent: Leaf" for the plain name on the other side', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h);
    const [snacks] = await t.dataSource.query(`INSERT INTO categories (family_id, name) VALUES ($1, 'Snacks') RETURNING id`, [h.familyId]);
    const csv = ['date,amount,name,category', '2024-03-01,-1,Bread,Food:', '2024-03-02,-2,Chips, : Snacks', '2024-03-03,-3,Rent,Home: Rent'].join('\n');
    const created = await createImport(t.server, h.apiKey, { raw_file_content: csv, account_id: accountId }).expect(201);
    const mappings = await t.dataSource.query(`SELECT key, mappable_id FROM import_mappings WHERE import_id = $1 ORDER BY key`, [created.body.data.id]);
    expect(mappings).toEqual([
      { key: ': Snacks', mappable_id: snacks.id },
      { key: 'Food:', mappable_id: null },
      { key: 'Home: Rent', mappable_id: null },
    ]);
    await request(t.server).post(`/api/v1/imports/${created.body.data.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
    expect((await entries(h.familyId)).map((e: { name: string; category: string }) => [e.name, e.category])).toEqual([
      ['Bread', 'Food'],
      ['Chips', 'Snacks'],
      ['Rent', 'Rent'],
    ]);
    const categories = await t.dataSource.query(
      `SELECT c.name, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id WHERE c.family_id = $1 ORDER BY c.name`,
      [h.familyId],
    );
    expect(categories).toEqual([
      { name: 'Food', parent: null },
      { name: 'Home', parent: null },
      { name: 'Rent', parent: 'Home' },
      { name: 'Snacks', parent: null },
    ]);

    // Nothing on either side names no category: a row error, and no mapping.
    const empty = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,category\n2024-03-04,-4, : ', account_id: accountId }).expect(201);
    expect(empty.body.data.stats).toMatchObject({ invalid_rows_count: 1, mappings_count: 0 });
    const rows = await request(t.server).get(`/api/v1/imports/${empty.body.data.id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
    expect(rows.body.data[0].errors).toEqual(["Row 1: category ':' names no category"]);
  });

  it('publishes a YNAB register export with Outflow and Inflow columns', async () => {
    const h = await t.newHousehold();
    const csv = [
      'Account,Flag,Date,Payee,Category Group/Category,Category Group,Category,Memo,Outflow,Inflow,Cleared',
      'Visa,,03/10/2024,Hardware Store,Home: Repairs,Home,Repairs,nails,"$1,020.50",$0.00,Cleared',
      'Visa,,03/11/2024,Refund Co,Home: Repairs,Home,Repairs,,$0.00,$20.00,Cleared',
      'Visa,,03/12/2024,Transfer : Checking,,,,,$0.00,$300.00,Cleared',
    ].join('\n');
    const done = await publishAndWait(t, h, { type: 'YnabImport', raw_file_content: csv });
    expect(done.status).toBe('complete');
    expect(await entries(h.familyId)).toEqual([
      expect.objectContaining({ date: '2024-03-10', name: 'Hardware Store', amount: 102050, notes: 'nails', category: 'Repairs', account: 'Visa' }),
      expect.objectContaining({ date: '2024-03-11', name: 'Refund Co', amount: -2000, category: 'Repairs', account: 'Visa' }),
      expect.objectContaining({ date: '2024-03-12', name: 'Transfer : Checking', amount: -30000, category: null, account: 'Visa' }),
    ]);
    // The transfer moved money between the family's accounts: budgets leave it out.
    const kinds = await t.dataSource.query(`SELECT e.name, t.kind FROM entries e JOIN transactions t ON t.entry_id = e.id WHERE e.family_id = $1 ORDER BY e.date`, [h.familyId]);
    expect(kinds.map((k: { kind: string }) => k.kind)).toEqual(['standard', 'standard', 'funds_movement']);
  });

  it('publishes a YNAB4 register export, filing each row under its master category', async () => {
    const h = await t.newHousehold();
    const csv = [
      '"Account","Flag","Check Number","Date","Payee","Category","Master Category","Sub Category","Memo","Outflow","Inflow","Cleared","Running Balance"',
      '"Checking","","","03/01/2024","Grocer","Everyday Expenses: Groceries","Everyday Expenses","Groceries","","$45.10","$0.00","C","-$45.10"',
      '"Checking","","","03/02/2024","Boss","Income: Available this month","Income","Available this month","","$0.00","$1,000.00","C","$954.90"',
    ].join('\n');
    const done = await publishAndWait(t, h, { type: 'YnabImport', raw_file_content: csv });
    expect(done.status).toBe('complete');
    expect(await entries(h.familyId)).toEqual([
      expect.objectContaining({ name: 'Grocer', amount: 4510, category: 'Groceries', account: 'Checking' }),
      expect.objectContaining({ name: 'Boss', amount: -100000, category: 'Available this month', account: 'Checking' }),
    ]);
    const parents = await t.dataSource.query(
      `SELECT c.name, p.name AS parent FROM categories c JOIN categories p ON p.id = c.parent_id WHERE c.family_id = $1 ORDER BY c.name`,
      [h.familyId],
    );
    expect(parents).toEqual([
      { name: 'Available this month', parent: 'Income' },
      { name: 'Groceries', parent: 'Everyday Expenses' },
    ]);
  });

  it("reads a YNAB export in the date format it was written in when date_format names it, else in YNAB's US default", async () => {
    const h = await t.newHousehold();
    const header = 'Account,Flag,Date,Payee,Category Group/Category,Category Group,Category,Memo,Outflow,Inflow,Cleared';
    const csv = [header, 'Visa,,25/03/2024,Bakery,Food: Bread,Food,Bread,,£4.20,£0.00,Cleared'].join('\n');
    const us = await createImport(t.server, h.apiKey, { type: 'YnabImport', raw_file_content: csv }).expect(201);
    expect(us.body.data).toMatchObject({ configuration: { date_format: '%m/%d/%Y' }, stats: { invalid_rows_count: 1 } });
    const uk = await createImport(t.server, h.apiKey, { type: 'YnabImport', raw_file_content: csv, date_format: '%d/%m/%Y' }).expect(201);
    expect(uk.body.data).toMatchObject({ configuration: { date_format: '%d/%m/%Y' }, stats: { invalid_rows_count: 0 } });
    // PATCH too: the US import read again with the day first.
    const patched = await request(t.server).patch(`/api/v1/imports/${us.body.data.id}`).set('X-Api-Key', h.apiKey).send({ date_format: '%d/%m/%Y' }).expect(200);
    expect(patched.body.data).toMatchObject({ configuration: { date_format: '%d/%m/%Y' }, stats: { invalid_rows_count: 0 } });
  });

  it('publishes trades, creating offline securities for unknown tickers', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h, 'Brokerage');
    const csv = 'date,ticker,exchange_operating_mic,currency,qty,price,name\n2024-05-15,aapl,XNAS,USD,10,150.25,\n2024-05-16,MSFT,,USD,-2,400.10,Trim';
    const done = await publishAndWait(t, h, { type: 'TradeImport', raw_file_content: csv, account_id: accountId });
    expect(done.status).toBe('complete');
    const trades = await t.dataSource.query(
      `SELECT e.name, e.amount_minor::int AS amount, t.qty::text AS qty, t.investment_activity_label AS label, s.ticker, s.exchange_operating_mic AS mic, s.offline
         FROM trades t JOIN entries e ON e.id = t.entry_id JOIN securities s ON s.id = t.security_id WHERE e.family_id = $1 ORDER BY e.date`,
      [h.familyId],
    );
    expect(trades).toEqual([
      { name: 'Buy AAPL', amount: 150250, qty: '10.00000000', label: 'Buy', ticker: 'AAPL', mic: 'XNAS', offline: true },
      { name: 'Trim', amount: -80020, qty: '-2.00000000', label: 'Sell', ticker: 'MSFT', mic: '', offline: true },
    ]);
  });

  it('refuses a trade at a negative price as a row error and stores nothing; a trade at price 0 (a grant) publishes at amount 0', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h, 'Brokerage');
    const stored = () => t.dataSource.query(
      `SELECT e.name, e.amount_minor::int AS amount, t.qty::text AS qty, t.price::text AS price FROM trades t JOIN entries e ON e.id = t.entry_id WHERE e.family_id = $1 ORDER BY e.date`,
      [h.familyId],
    );
    const refused = await createImport(t.server, h.apiKey, { type: 'TradeImport', account_id: accountId, raw_file_content: 'date,ticker,qty,price\n2024-05-15,AAPL,10,-150.25', publish: 'true' }).expect(422);
    expect(refused.body).toMatchObject({ error: 'not_publishable', errors: ['1 rows are invalid', "Row 1: price '-150.25' must not be negative"] });
    expect(await stored()).toEqual([]);

    const done = await publishAndWait(t, h, { type: 'TradeImport', raw_file_content: 'date,ticker,qty,price,name\n2024-05-15,ACME,25,0,RSU grant', account_id: accountId });
    expect(done.status).toBe('complete');
    expect(await stored()).toEqual([{ name: 'RSU grant', amount: 0, qty: '25.00000000', price: '0.0000000000' }]);
  });

  it('refuses, as a row error, a balance in fils beyond what the _cents fields carry, so no account breaks the accounts list', async () => {
    const h = await t.newHousehold();
    const csv = 'Account type,Name,Balance,Currency\nChecking,Vault,9999999999999.999,KWD\nChecking,Main,10.000,KWD';
    const res = await createImport(t.server, h.apiKey, { type: 'AccountImport', raw_file_content: csv, publish: 'true' }).expect(422);
    expect(res.body).toMatchObject({ error: 'not_publishable', import_id: expect.any(String) });
    const rows = await request(t.server).get(`/api/v1/imports/${res.body.import_id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
    expect(rows.body.data.map((r: { errors: string[] }) => r.errors)).toEqual([
      ["Row 1: balance '9999999999999.999' is beyond the largest KWD amount Hearth stores (9007199254740.991) (check number_format and the currency)"],
      [],
    ]);
    await request(t.server).get('/api/v1/accounts').set('X-Api-Key', h.apiKey).expect(200);
  });

  it('reads a whole number of dinars of thirteen digits (it was a 500) and refuses one beyond the largest as a row error', async () => {
    const h = await t.newHousehold();
    const csv = 'Account type,Name,Balance,Currency\nChecking,Vault,9999999999999,KWD\nChecking,Main,1234567890123,KWD';
    const res = await createImport(t.server, h.apiKey, { type: 'AccountImport', raw_file_content: csv }).expect(201);
    const rows = await request(t.server).get(`/api/v1/imports/${res.body.data.id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
    expect(rows.body.data.map((r: { errors: string[] }) => r.errors)).toEqual([
      ["Row 1: balance '9999999999999' is beyond the largest KWD amount Hearth stores (9007199254740.991) (check number_format and the currency)"],
      [],
    ]);
  });

  it('imports accounts with opening balances, waiting for an unknown account type to be mapped', async () => {
    const h = await t.newHousehold();
    const csv = 'Account type,Name,Balance,Currency,Balance Date\nChecking,Main,1000.00,USD,2024-01-01\nCredit Card,Visa,250.10,USD,\nPiggy,Jar,5,USD,';
    const res = await createImport(t.server, h.apiKey, { type: 'AccountImport', raw_file_content: csv, publish: 'true' }).expect(422);
    expect(res.body).toMatchObject({ error: 'not_publishable', import_id: expect.any(String) });
    expect(res.body.errors).toEqual(['1 values are not mapped (see PATCH mappings)', "account_type 'Piggy' is not mapped"]);
    const id = res.body.import_id;
    const patched = await request(t.server)
      .patch(`/api/v1/imports/${id}`)
      .set('X-Api-Key', h.apiKey)
      .send({ mappings: [{ type: 'account_type', key: 'Piggy', value: 'OtherAsset' }] })
      .expect(200);
    expect(patched.body.data.stats).toMatchObject({ mappings_count: 3, unassigned_mappings_count: 0 });
    // A later PATCH parses the rows again and keeps the account type chosen.
    const reparsed = await request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ date_format: '%Y-%m-%d' }).expect(200);
    expect(reparsed.body.data).toMatchObject({ stats: { unassigned_mappings_count: 0 }, status_detail: { publishable: true } });
    await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
    const accounts = await t.dataSource.query(
      `SELECT name, accountable_type AS type, classification, balance_minor::int AS balance FROM accounts WHERE family_id = $1 ORDER BY name`,
      [h.familyId],
    );
    expect(accounts).toEqual([
      { name: 'Jar', type: 'OtherAsset', classification: 'asset', balance: 500 },
      { name: 'Main', type: 'Depository', classification: 'asset', balance: 100000 },
      { name: 'Visa', type: 'CreditCard', classification: 'liability', balance: 25010 },
    ]);
    expect(await count(`SELECT count(*) FROM valuations v JOIN entries e ON e.id = v.entry_id WHERE e.family_id = $1 AND v.kind = 'opening_anchor'`, [h.familyId])).toBe(3);
  });

  it('keeps mapping choices when a later PATCH parses the rows again, while their value is in the rows and their record exists', async () => {
    const h = await t.newHousehold();
    const checking = await newAccount(t, h);
    const spare = await newAccount(t, h, 'Spare');
    const csv = 'Date,Amount,Name,Account,Category,Notes\n2024-01-01,5,Coffee,Wallet,Food,hot\n2024-01-02,6,Tea,Purse,Drinks,\n2024-01-03,7,Cake,Jar,Food,';
    const created = await createImport(t.server, h.apiKey, { raw_file_content: csv, account_col_label: 'Account', category_col_label: 'Category' }).expect(201);
    const id = created.body.data.id;
    const patch = (body: Record<string, unknown>) => request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send(body).expect(200);
    const mappings = () =>
      t.dataSource.query(`SELECT type, key, mappable_id AS id, create_when_empty AS create FROM import_mappings WHERE import_id = $1 ORDER BY type, key`, [id]);
    await patch({
      mappings: [
        { type: 'account', key: 'Wallet', value: checking },
        { type: 'account', key: 'Jar', value: spare },
        { type: 'category', key: 'Food', create_when_empty: false },
      ],
    });
    await t.dataSource.query(`DELETE FROM accounts WHERE id = $1`, [spare]);
    // Choices stay; this request's own mappings apply on top; a deleted record's value is matched by name again.
    await patch({ notes_col_label: 'Notes', mappings: [{ type: 'account', key: 'Purse', value: checking }] });
    expect(await mappings()).toEqual([
      { type: 'account', key: 'Jar', id: null, create: true },
      { type: 'account', key: 'Purse', id: checking, create: false },
      { type: 'account', key: 'Wallet', id: checking, create: false },
      { type: 'category', key: 'Drinks', id: null, create: true },
      { type: 'category', key: 'Food', id: null, create: false },
    ]);
    // A value no longer in the rows takes its choice away with it.
    await patch({ category_col_label: 'Name' });
    expect((await mappings()).filter((m: { type: string }) => m.type === 'category').map((m: { key: string; create: boolean }) => [m.key, m.create])).toEqual([
      ['Cake', true],
      ['Coffee', true],
      ['Tea', true],
    ]);
    await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
    expect((await entries(h.familyId)).map((e: { name: string; account: string; notes: string | null }) => [e.name, e.account, e.notes])).toEqual([
      ['Coffee', 'Checking', 'hot'],
      ['Tea', 'Checking', null],
      ['Cake', 'Jar', null],
    ]);
  });

  it('imports categories with parents, merchants and rules', async () => {
    const h = await t.newHousehold();
    const categories = 'name,color,parent_category,lucide_icon\nFood,#f97316,,utensils\nGroceries,#407706,Food,shopping-bag\nTravel,,,plane';
    expect((await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: categories })).status).toBe('complete');
    const cats = await t.dataSource.query(
      `SELECT c.name, c.color, c.lucide_icon AS icon, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id WHERE c.family_id = $1 ORDER BY c.name`,
      [h.familyId],
    );
    expect(cats).toEqual([
      { name: 'Food', color: '#f97316', icon: 'utensils', parent: null },
      { name: 'Groceries', color: '#f97316', icon: 'shopping-bag', parent: 'Food' },
      { name: 'Travel', color: '#737373', icon: 'plane', parent: null },
    ]);
    const merchants = 'name,color,website_url\nAcme,#123456,https://acme.example\nBolt,,';
    expect((await publishAndWait(t, h, { type: 'MerchantImport', raw_file_content: merchants })).status).toBe('complete');
    expect(await count(`SELECT count(*) FROM merchants WHERE family_id = $1`, [h.familyId])).toBe(2);
    const conditions = JSON.stringify([{ condition_type: 'transaction_name', operator: 'like', value: 'uber' }]);
    const actions = JSON.stringify([{ action_type: 'set_transaction_category', value: 'Taxi' }]);
    const rules = `name,resource_type,active,effective_date,conditions,actions\nRides,transaction,true,2024-01-01,"${conditions.replace(/"/g, '""')}","${actions.replace(/"/g, '""')}"`;
    expect((await publishAndWait(t, h, { type: 'RuleImport', raw_file_content: rules })).status).toBe('complete');
    const [rule] = await t.dataSource.query(`SELECT name, active, actions FROM rules WHERE family_id = $1`, [h.familyId]);
    const [taxi] = await t.dataSource.query(`SELECT id FROM categories WHERE family_id = $1 AND name = 'Taxi'`, [h.familyId]);
    expect(rule).toEqual({ name: 'Rides', active: true, actions: [{ action_type: 'set_transaction_category', value: taxi.id }] });
  });

  it("accepts rows dated up to the family's today in its time zone, not UTC's", async () => {
    const now = new Date();
    const utcToday = now.toISOString().slice(0, 10);
    // At any hour, one of these is a day ahead of (Kiritimati, UTC+14) or behind (Pago Pago, UTC-11) UTC's date.
    for (const timezone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const h = await t.newHousehold();
      await t.dataSource.query(`UPDATE families SET timezone = $2 WHERE id = $1`, [h.familyId, timezone]);
      const localToday = localDateIn(now, timezone);
      const accountId = await newAccount(t, h);
      for (const date of [localToday, utcToday]) {
        const res = await createImport(t.server, h.apiKey, { raw_file_content: `date,amount\n${date},1`, account_id: accountId, date_col_label: 'date', amount_col_label: 'amount' }).expect(201);
        const rows = await request(t.server).get(`/api/v1/imports/${res.body.data.id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
        expect({ timezone, date, valid: rows.body.data[0].valid }).toEqual({ timezone, date, valid: date <= localToday });
      }
    }
  });

  it("dates an opening balance given without a balance date two years before the family's today, not UTC's", async () => {
    const now = new Date();
    for (const timezone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const h = await t.newHousehold();
      await t.dataSource.query(`UPDATE families SET timezone = $2 WHERE id = $1`, [h.familyId, timezone]);
      const localToday = localDateIn(now, timezone);
      expect((await publishAndWait(t, h, { type: 'AccountImport', raw_file_content: 'Account type,Name,Balance\nChecking,Main,10.00' })).status).toBe('complete');
      const [{ date }] = await t.dataSource.query(`SELECT date::text AS date FROM entries WHERE family_id = $1 AND entryable_type = 'Valuation'`, [h.familyId]);
      // 29 February goes back to the 28th, as Sure's 2.years.ago does.
      const twoYearsBack = `${Number(localToday.slice(0, 4)) - 2}${localToday.slice(4) === '-02-29' ? '-02-28' : localToday.slice(4)}`;
      expect({ timezone, date }).toEqual({ timezone, date: twoYearsBack });
    }
  });

  it('lists imports newest first with filters and pagination, and shows rows with their errors', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h);
    for (let i = 0; i < 3; i++) {
      await createImport(t.server, h.apiKey, { raw_file_content: `date,amount\n2024-01-0${i + 1},1`, account_id: accountId, date_col_label: 'date', amount_col_label: 'amount' }).expect(201);
    }
    const bad = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount\n2024-13-01,abc\n2024-01-01,5', account_id: accountId, date_col_label: 'date', amount_col_label: 'amount' }).expect(201);
    const page = await request(t.server).get('/api/v1/imports?per_page=2&page=2').set('X-Api-Key', h.apiKey).expect(200);
    expect(page.body.meta).toEqual({ current_page: 2, next_page: null, prev_page: 1, total_pages: 2, total_count: 4, per_page: 2 });
    const first = await request(t.server).get('/api/v1/imports?per_page=1').set('X-Api-Key', h.apiKey).expect(200);
    expect(first.body.data[0].id).toBe(bad.body.data.id);
    const filtered = await request(t.server).get('/api/v1/imports?type=MintImport').set('X-Api-Key', h.apiKey).expect(200);
    expect(filtered.body.data).toEqual([]);
    await request(t.server).get('/api/v1/imports?per_page=500').set('X-Api-Key', h.apiKey).expect(422);
    await request(t.server).get('/api/v1/imports?status=weird').set('X-Api-Key', h.apiKey).expect(422);

    expect(bad.body.data.stats).toMatchObject({ rows_count: 2, valid_rows_count: 1, invalid_rows_count: 1 });
    expect(bad.body.data.status_detail).toMatchObject({ configured: true, cleaned: false, publishable: false });
    const rows = await request(t.server).get(`/api/v1/imports/${bad.body.data.id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
    expect(rows.body.data[0]).toMatchObject({
      row_number: 1,
      valid: false,
      errors: ["Row 1: date '2024-13-01' does not match the date format %Y-%m-%d", "Row 1: amount 'abc' is not a number in the format 1,234.56"],
    });
    expect(rows.body.data[1]).toMatchObject({ row_number: 2, valid: true, errors: [], fields: expect.objectContaining({ date: '2024-01-01', amount: '-5' }) });
  });
});

describe('imports: publishing in chunks of two', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ IMPORT_CHUNK_ROWS: '2' });
  });
  afterAll(() => t.close());

  it('keeps an Actual split in its parent\'s chunk: a chunk boundary falling among its parts cuts nothing', async () => {
    const h = await t.newHousehold();
    // Rows 1-2 make the first chunk; row 3 would start the second but is a part of row 2's split.
    const csv = [
      'Account,Date,Payee,Notes,Category,Amount,Split_Amount,Cleared',
      'Checking,2024-03-04,Cafe,,Coffee,-4.50,0,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT INTO 3),,0,-100.00,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 1 OF 3),Groceries,-70.00,0,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 2 OF 3),Supplies,-20.00,0,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 3 OF 3),Supplies,-10.00,0,Cleared',
      'Checking,2024-03-06,Bakery,,Groceries,-3.00,0,Cleared',
    ].join('\n');
    const res = await createImport(t.server, h.apiKey, { type: 'ActualImport', raw_file_content: csv, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, res.body.data.id)).status).toBe('complete');
    const split = await t.dataSource.query(
      `SELECT e.amount_minor::int AS amount, e.excluded, (SELECT array_agg(c.amount_minor::int ORDER BY c.amount_minor DESC) FROM entries c WHERE c.parent_entry_id = e.id) AS parts
         FROM entries e WHERE e.family_id = $1 AND e.parent_entry_id IS NULL ORDER BY e.date`,
      [h.familyId],
    );
    expect(split).toEqual([
      { amount: 450, excluded: false, parts: null },
      { amount: 10000, excluded: true, parts: [7000, 2000, 1000] },
      { amount: 300, excluded: false, parts: null },
    ]);
  });

  it("keeps a QIF split in its total's chunk, and a re-import claims it whole", async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h);
    // Rows 1-2 make the first chunk (the cafe, the split's total); its parts, rows 3-5, would start the second.
    const qif = '!Type:Bank\nD03/04/2024\nT-4.50\nPCafe\n^\nD03/05/2024\nT-100.00\nPCostco\nL--Split--\nSGroceries\n$-70.00\nSSupplies\n$-20.00\nSSupplies\n$-10.00\n^\nD03/06/2024\nT-3.00\nPBakery\n^\n';
    const split = () =>
      t.dataSource.query(
        `SELECT e.amount_minor::int AS amount, e.excluded, (SELECT array_agg(c.amount_minor::int ORDER BY c.amount_minor DESC) FROM entries c WHERE c.parent_entry_id = e.id) AS parts
           FROM entries e WHERE e.family_id = $1 AND e.parent_entry_id IS NULL ORDER BY e.date`,
        [h.familyId],
      );
    const expected = [
      { amount: 450, excluded: false, parts: null },
      { amount: 10000, excluded: true, parts: [7000, 2000, 1000] },
      { amount: 300, excluded: false, parts: null },
    ];
    const first = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: qif, account_id: accountId });
    expect(first.status).toBe('complete');
    expect(await split()).toEqual(expected);
    const again = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: qif, account_id: accountId });
    expect(again.status).toBe('complete');
    expect(await split()).toEqual(expected);
    const claims = await t.dataSource.query(`SELECT count(*)::int AS count FROM import_rows WHERE import_id = $1 AND duplicate_of IS NOT NULL`, [again.id]);
    expect(claims).toEqual([{ count: 6 }]);
  });

  it('lets identical rows in later chunks claim only the identical entries not claimed before, oldest first', async () => {
    const h = await t.newHousehold();
    const [{ id: accountId }] = await t.dataSource.query(
      `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, 'Checking', 'Depository', 'asset', 'USD') RETURNING id`,
      [h.familyId],
    );
    const coffee = { date: '2024-05-01', name: 'Coffee', amountMinor: 350 };
    const byHand = [];
    for (let i = 0; i < 3; i++) byHand.push(await enterByHand(t.dataSource, h.familyId, accountId, coffee));
    // Five rows in chunks of two: rows 1-2 claim the two oldest entries, row 3 the third, rows 4-5 are new.
    const csv = ['date,amount,name', ...Array.from({ length: 4 }, () => '2024-05-01,-3.50,Coffee'), '2024-05-02,-3.50,Coffee'].join('\n');
    const res = await createImport(t.server, h.apiKey, { raw_file_content: csv, account_id: accountId, date_col_label: 'date', amount_col_label: 'amount', publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, res.body.data.id)).status).toBe('complete');
    const rows = await t.dataSource.query(`SELECT source_row_number AS n, duplicate_of FROM import_rows WHERE import_id = $1 ORDER BY 1`, [res.body.data.id]);
    expect(rows.map((r: { duplicate_of: string | null }) => r.duplicate_of)).toEqual([...byHand, null, null]);
    const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM entries WHERE account_id = $1 AND name = 'Coffee'`, [accountId]);
    expect(count).toBe(5);
  });

  it("counts in a QIF stock split the file's trades dated before it that come after it in the file", async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h);
    // In chunks of two the buy of March 2 (row 3) would come after the split (row 2) was booked on 10 shares.
    const qif = '!Type:Invst\nD03/01/2024\nNBuy\nYAAPL\nI100\nQ10\nT1000\n^\nD03/05/2024\nNStkSplit\nYAAPL\nQ20\n^\nD03/02/2024\nNBuy\nYAAPL\nI100\nQ5\nT500\n^\n';
    const imp = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: qif, account_id: accountId });
    expect(imp.status).toBe('complete');
    const splits = await t.dataSource.query(`SELECT tr.qty::float AS qty FROM entries e JOIN trades tr ON tr.entry_id = e.id WHERE e.account_id = $1 AND tr.investment_activity_label = 'Other'`, [accountId]);
    expect(splits).toEqual([{ qty: 15 }]);
  });

  it("moves the account's opening balance once, to before the file's earliest row in any chunk, and revert puts it back", async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h);
    await addOpeningBalance(t, h, accountId, '2024-06-01', 5000);
    // Chunk 1 reaches back to March, chunk 2 to February, chunk 3 not at all; no Opening Balance record.
    const qif = bankQifWithout(['03/01/2024', '07/01/2024', '07/02/2024', '02/10/2024', '07/03/2024']);
    const imp = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: qif, account_id: accountId });
    expect(imp.status).toBe('complete');
    expect(await openingBalances(t, accountId)).toEqual([{ date: '2024-02-09', amount: 5000 }]);
    expect((await revertAndWait(t, h, imp.id)).status).toBe('pending');
    expect(await openingBalances(t, accountId)).toEqual([{ date: '2024-06-01', amount: 5000 }]);
  });

  it('commits chunks in file order: a failing chunk stops the one beside it, and publishing again resumes after the last commit', async () => {
    const h = await t.newHousehold();
    const accountId = await newAccount(t, h);
    // A fault in the database itself: inserting the entry of row 3 fails, once, while the trigger exists.
    const fault = `poison_${h.familyId.replace(/-/g, '')}`;
    await t.dataSource.query(`CREATE FUNCTION ${fault}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`);
    await t.dataSource.query(`CREATE TRIGGER ${fault} BEFORE INSERT ON entries FOR EACH ROW WHEN (NEW.name = '${fault}') EXECUTE FUNCTION ${fault}()`);
    const names = ['Rent', 'Power', fault, 'Water', 'Phone', 'Bus', 'Gym', 'Books'];
    const csv = ['date,amount,name', ...names.map((name, i) => `2024-06-0${i + 1},-${i + 1}.00,${name}`)].join('\n');
    const res = await createImport(t.server, h.apiKey, { raw_file_content: csv, account_id: accountId, date_col_label: 'date', amount_col_label: 'amount', publish: 'true' }).expect(201);
    const id = res.body.data.id;
    try {
      expect(await waitForImport(t.server, h.apiKey, id)).toMatchObject({ status: 'failed', error: expect.stringContaining('publish again to resume') });
      const committed = async () =>
        (await t.dataSource.query(`SELECT name FROM entries WHERE import_id = $1 ORDER BY date`, [id])).map((r: { name: string }) => r.name);
      // Chunk 1 committed; chunk 2 failed and chunk 3, which may have run beside it, rolled back.
      expect(await committed()).toEqual(['Rent', 'Power']);
      const [{ through }] = await t.dataSource.query(`SELECT published_through_row AS through FROM imports WHERE id = $1`, [id]);
      expect(through).toBe(2);
      await t.dataSource.query(`DROP TRIGGER ${fault} ON entries`);
      await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      expect(await committed()).toEqual(names);
    } finally {
      await t.dataSource.query(`DROP TRIGGER IF EXISTS ${fault} ON entries`);
      await t.dataSource.query(`DROP FUNCTION ${fault}()`);
    }
  });
  it('keeps, after a later chunk fails, what its mappings created for the whole file until a revert removes it all; publishing again then creates it once', async () => {
    const h = await t.newHousehold();
    const records = async () => ({
      accounts: await t.dataSource.query(`SELECT name, import_id FROM accounts WHERE family_id = $1 ORDER BY name`, [h.familyId]),
      categories: await t.dataSource.query(`SELECT name, import_id FROM categories WHERE family_id = $1 ORDER BY name`, [h.familyId]),
      tags: await t.dataSource.query(`SELECT name, import_id FROM tags WHERE family_id = $1 ORDER BY name`, [h.familyId]),
    });
    const fault = `poison_${h.familyId.replace(/-/g, '')}`;
    await t.dataSource.query(`CREATE FUNCTION ${fault}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`);
    await t.dataSource.query(`CREATE TRIGGER ${fault} BEFORE INSERT ON entries FOR EACH ROW WHEN (NEW.name = '${fault}') EXECUTE FUNCTION ${fault}()`);
    // Chunk 1 (rows 1-2) names Savings, Early and early; chunk 2 (rows 3-4), which fails at row 3, Spare, Late and late.
    const csv = [
      'date,amount,name,account,category,tags',
      '2024-06-01,-1.00,Rent,Savings,Early,early',
      '2024-06-02,-2.00,Power,Savings,Early,',
      `2024-06-03,-3.00,${fault},Spare,Late,late`,
      '2024-06-04,-4.00,Water,Spare,Late,late',
    ].join('\n');
    const res = await createImport(t.server, h.apiKey, { raw_file_content: csv, date_col_label: 'date', amount_col_label: 'amount', publish: 'true' }).expect(201);
    const id = res.body.data.id;
    const names = async () => (await t.dataSource.query(`SELECT name FROM entries WHERE import_id = $1 ORDER BY date`, [id])).map((r: { name: string }) => r.name);
    try {
      const failed = await waitForImport(t.server, h.apiKey, id);
      expect({ status: failed.status, revertable: failed.status_detail.revertable }).toEqual({ status: 'failed', revertable: true });
      expect(await names()).toEqual(['Rent', 'Power']);
      // Every mapping was resolved before chunk 1: chunk 2's records stay too, the import's own, for a resume or a revert.
      expect(await records()).toEqual({
        accounts: [{ name: 'Savings', import_id: id }, { name: 'Spare', import_id: id }],
        categories: [{ name: 'Early', import_id: id }, { name: 'Late', import_id: id }],
        tags: [{ name: 'early', import_id: id }, { name: 'late', import_id: id }],
      });
      // The configuration cannot change under the published rows.
      await request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ date_format: '%Y-%m-%d' }).expect(409);

      expect((await revertAndWait(t, h, id)).status).toBe('pending');
      expect(await names()).toEqual([]);
      expect(await records()).toEqual({ accounts: [], categories: [], tags: [] });

      await t.dataSource.query(`DROP TRIGGER ${fault} ON entries`);
      await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      expect(await names()).toEqual(['Rent', 'Power', fault, 'Water']);
      expect(await records()).toEqual({
        accounts: [{ name: 'Savings', import_id: id }, { name: 'Spare', import_id: id }],
        categories: [{ name: 'Early', import_id: id }, { name: 'Late', import_id: id }],
        tags: [{ name: 'early', import_id: id }, { name: 'late', import_id: id }],
      });
    } finally {
      await t.dataSource.query(`DROP TRIGGER IF EXISTS ${fault} ON entries`);
      await t.dataSource.query(`DROP FUNCTION ${fault}()`);
    }
  });

  /** A pending import of `names` (chunks of two) in a new account, moved to importing as a publish request does. */
  async function importingImport(names: string[]) {
    const h = await t.newHousehold();
    const [{ id: accountId }] = await t.dataSource.query(
      `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, 'Checking', 'Depository', 'asset', 'USD') RETURNING id`,
      [h.familyId],
    );
    const csv = ['date,amount,name', ...names.map((name, i) => `2024-07-0${i + 1},-${i + 1}.00,${name}`)].join('\n');
    const res = await createImport(t.server, h.apiKey, { raw_file_content: csv, account_id: accountId, date_col_label: 'date', amount_col_label: 'amount' }).expect(201);
    const id = res.body.data.id;
    await t.dataSource.query(`UPDATE imports SET status = 'importing' WHERE id = $1`, [id]);
    const committed = async () => (await t.dataSource.query(`SELECT name FROM entries WHERE import_id = $1 ORDER BY date`, [id])).map((r: { name: string }) => r.name);
    const state = async () => (await t.dataSource.query(`SELECT status, published_through_row AS through, publish_token AS token FROM imports WHERE id = $1`, [id]))[0];
    return { h, accountId, id, job: { importId: id, familyId: h.familyId }, committed, state };
  }

  it('stops a delivery whose publish a later delivery took over: it commits nothing more and leaves the outcome to the later one', async () => {
    const names = ['Handover', 'Power', 'Rent', 'Water', 'Phone', 'Bus'];
    const { id, job, committed, state } = await importingImport(names);
    // While row 1 is written, a later delivery takes the publish over (with a fresh token, as a delivery does). In
    // chunk 1: on PostgreSQL, a chunk before it would wait behind this transaction's hold on the import row.
    const takeover = `takeover_${id.replace(/-/g, '')}`;
    await t.dataSource.query(
      `CREATE FUNCTION ${takeover}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN UPDATE imports SET publish_token = gen_random_uuid() WHERE id = NEW.import_id; RETURN NEW; END $$`,
    );
    await t.dataSource.query(`CREATE TRIGGER ${takeover} BEFORE INSERT ON entries FOR EACH ROW WHEN (NEW.name = 'Handover') EXECUTE FUNCTION ${takeover}()`);
    const publisher = t.app.get(ImportPublisher);
    try {
      await publisher.publish(job);
    } finally {
      await t.dataSource.query(`DROP TRIGGER ${takeover} ON entries`);
      await t.dataSource.query(`DROP FUNCTION ${takeover}()`);
    }
    // The superseded delivery rolled back chunk 1 (and chunk 2 beside it) and marked nothing.
    expect(await committed()).toEqual([]);
    expect(await state()).toMatchObject({ status: 'importing', through: 0 });
    await publisher.publish(job);
    expect(await committed()).toEqual(names);
    expect(await state()).toMatchObject({ status: 'complete', through: 6 });
  });

  // Two deliveries at once need a second connection to hold them at a barrier: PostgreSQL only.
  (process.env.DATABASE_URL ? it : it.skip)('lets only the later of two concurrent deliveries commit: each row once, completed by the one that took over', async () => {
    const names = ['Rent', 'Power', 'Water', 'Phone', 'Bus', 'Gym'];
    const { accountId, job, committed, state } = await importingImport(names);
    const publisher = t.app.get(ImportPublisher);
    // The barrier: every entry insert checks its account FOR KEY SHARE, which waits behind FOR UPDATE.
    const barrier = await t.dataSource.createQueryRunner();
    await barrier.connect();
    await barrier.startTransaction();
    await barrier.query(`SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]);
    let first: Promise<unknown> | undefined;
    let second: Promise<unknown> | undefined;
    try {
      first = publisher.publish(job);
      const held = await until('the first delivery to hold the publish', async () => (await state()).token);
      second = publisher.publish(job);
      await until('the second delivery to take it over', async () => (await state()).token !== held);
    } finally {
      await barrier.rollbackTransaction();
      await barrier.release();
    }
    await Promise.all([first, second]);
    expect(await committed()).toEqual(names);
    expect(await state()).toMatchObject({ status: 'complete', through: 6 });
  });
});
