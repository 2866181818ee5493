import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { publishAndWait, revertAndWait } from './support/imports';
import { as, signIn } from './support/sessions';
import { Household, startTestApp, TestApp } from './support/test-app';

const NOT_FOUND = { error: 'record_not_found', message: 'The requested resource was not found' };
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe('Accounts API', () => {
  let t: TestApp;
  let home: Household;
  const get = (path: string, key: string) => request(t.server).get(`/api/v1${path}`).set('X-Api-Key', key);

  interface NewAccount {
    name: string;
    type?: string;
    classification?: string;
    balance?: string;
    cashBalance?: string;
    currency?: string;
    status?: string;
    subtype?: string | null;
    institution?: string | null;
  }
  /** An account of the family as the database holds it; returns its id. */
  async function addAccount(h: Household, a: NewAccount): Promise<string> {
    const [row] = await t.dataSource.query(
      `INSERT INTO accounts (family_id, name, accountable_type, classification, balance_minor, cash_balance_minor, currency, status, subtype, institution_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [h.familyId, a.name, a.type ?? 'Depository', a.classification ?? 'asset', a.balance ?? '0', a.cashBalance ?? '0', a.currency ?? 'USD',
        a.status ?? 'active', a.subtype ?? null, a.institution ?? null],
    );
    return row.id;
  }

  let checking: string;
  let card: string;
  let closed: string;
  let draft: string;
  let doomed: string;

  beforeAll(async () => {
    t = await startTestApp();
    home = await t.newHousehold();
    // Inserted out of name order; names of one case so that every collation orders them alike.
    card = await addAccount(home, { name: 'visa', type: 'CreditCard', classification: 'liability', balance: '123456', institution: 'First Bank' });
    checking = await addAccount(home, { name: 'checking', balance: '-4599', cashBalance: '-4599', subtype: 'checking' });
    closed = await addAccount(home, { name: 'old savings', status: 'disabled', balance: '100' });
    draft = await addAccount(home, { name: 'draft brokerage', type: 'Investment', status: 'draft' });
    doomed = await addAccount(home, { name: 'zzz leaving', status: 'pending_deletion' });
  });
  afterAll(() => t.close());

  describe('GET /accounts', () => {
    it('lists draft and active accounts by name, in the Account shape, with pagination', async () => {
      const res = await get('/accounts', home.apiKey).expect(200);
      expect(res.body.accounts.map((a: { name: string }) => a.name)).toEqual(['checking', 'draft brokerage', 'visa']);
      expect(res.body.pagination).toEqual({ page: 1, per_page: 25, total_count: 3, total_pages: 1 });
      const visa = res.body.accounts[2];
      expect(Object.keys(visa)).toEqual([
        'id', 'name', 'balance', 'balance_cents', 'cash_balance', 'cash_balance_cents', 'currency', 'classification',
        'account_type', 'subtype', 'status', 'institution_name', 'created_at', 'updated_at',
      ]);
      expect(visa).toEqual({
        id: card,
        name: 'visa',
        balance: '$1,234.56',
        balance_cents: 123456,
        cash_balance: '$1,234.56', // a card's balance is all cash
        cash_balance_cents: 123456,
        currency: 'USD',
        classification: 'liability',
        account_type: 'credit_card',
        subtype: null,
        status: 'active',
        institution_name: 'First Bank',
        created_at: ISO,
        updated_at: ISO,
      });
      expect(res.body.accounts[0]).toMatchObject({ id: checking, balance: '-$45.99', balance_cents: -4599, cash_balance_cents: -4599, account_type: 'depository', subtype: 'checking' });
      expect(res.body.accounts[1]).toMatchObject({ id: draft, status: 'draft', account_type: 'investment' });
    });

    it.each(['true', '1'])('include_disabled=%s adds disabled accounts and those pending deletion', async (value) => {
      const res = await get(`/accounts?include_disabled=${value}`, home.apiKey).expect(200);
      expect(res.body.accounts.map((a: { id: string }) => a.id)).toEqual([checking, draft, closed, card, doomed]);
      expect(res.body.pagination.total_count).toBe(5);
      expect(res.body.accounts[2]).toMatchObject({ status: 'disabled', balance: '$1.00' });
    });

    it.each(['false', '0'])('include_disabled=%s leaves them out', async (value) => {
      expect((await get(`/accounts?include_disabled=${value}`, home.apiKey).expect(200)).body.pagination.total_count).toBe(3);
    });

    it('refuses an include_disabled that is no boolean with 422 naming it', async () => {
      const res = await get('/accounts?include_disabled=yes', home.apiKey).expect(422);
      expect(res.body).toMatchObject({ error: 'validation_failed', message: 'include_disabled must be true or false' });
    });

    it('pages, showing the last page for one past the end', async () => {
      const second = await get('/accounts?per_page=2&page=2', home.apiKey).expect(200);
      expect(second.body.accounts.map((a: { id: string }) => a.id)).toEqual([card]);
      expect(second.body.pagination).toEqual({ page: 2, per_page: 2, total_count: 3, total_pages: 2 });
      const past = await get('/accounts?per_page=2&page=99', home.apiKey).expect(200);
      expect(past.body).toEqual(second.body);
      const first = await get('/accounts?per_page=2', home.apiKey).expect(200);
      expect(first.body.accounts.map((a: { id: string }) => a.id)).toEqual([checking, draft]);
    });

    it.each([
      ['per_page=500', 1, 100],
      ['per_page=0', 1, 25],
      ['per_page=-3', 1, 25],
      ['per_page=abc', 1, 25],
      ['page=0', 1, 25],
      ['page=-2', 1, 25],
      ['page=abc', 1, 25],
    ])('reads %s leniently, as the budgets list does', async (params, page, perPage) => {
      const res = await get(`/accounts?${params}`, home.apiKey).expect(200);
      expect(res.body.pagination).toEqual({ page, per_page: perPage, total_count: 3, total_pages: 1 });
    });

    it('answers the admin app session as it answers the key', async () => {
      const browser = await signIn(t.server, home.email);
      const bySession = await as(t.server, browser, 'get', '/api/v1/accounts?include_disabled=true').expect(200);
      expect(bySession.body).toEqual((await get('/accounts?include_disabled=true', home.apiKey)).body);
      const shown = await as(t.server, browser, 'get', `/api/v1/accounts/${card}`).expect(200);
      expect(shown.body.name).toBe('visa');
    });

    it('takes a read-scope key', async () => {
      const key = await t.app.get(ApiKeysService).create({ userId: home.userId, name: 'read only', scope: 'read' });
      expect((await get('/accounts', key.key).expect(200)).body.pagination.total_count).toBe(3);
      expect((await get(`/accounts/${checking}`, key.key).expect(200)).body.id).toBe(checking);
    });

    it('401 without credentials', async () => {
      const res = await request(t.server).get('/api/v1/accounts').expect(401);
      expect(res.body).toEqual({ error: 'unauthorized', message: 'Send an API key in the X-Api-Key header, or sign in.' });
      await request(t.server).get(`/api/v1/accounts/${checking}`).expect(401);
    });

    it('formats balances in the locale asked for', async () => {
      const res = await get(`/accounts/${card}?locale=de`, home.apiKey).expect(200);
      expect(res.body.balance).toBe('1.234,56\u00a0$');
      expect((await get('/accounts?locale=%%%', home.apiKey).expect(422)).body.error).toBe('validation_failed');
    });
  });

  describe('GET /accounts/{id}', () => {
    it('shows one account as the list does', async () => {
      const list = await get('/accounts', home.apiKey);
      expect((await get(`/accounts/${checking}`, home.apiKey).expect(200)).body).toEqual(list.body.accounts[0]);
    });

    it('shows a disabled account only with include_disabled', async () => {
      expect((await get(`/accounts/${closed}`, home.apiKey).expect(404)).body).toEqual(NOT_FOUND);
      expect((await get(`/accounts/${closed}?include_disabled=true`, home.apiKey).expect(200)).body.status).toBe('disabled');
    });

    it.each([
      ['a malformed id', 'not-a-uuid'],
      ['an unknown id', randomUUID()],
    ])('404 record_not_found for %s', async (_, id) => {
      expect((await get(`/accounts/${id}`, home.apiKey).expect(404)).body).toEqual(NOT_FOUND);
    });

    it("keeps another family's accounts invisible: 404 like an unknown id, absent from its list", async () => {
      const other = await t.newHousehold();
      const theirs = await addAccount(other, { name: 'checking' });
      expect((await get(`/accounts/${theirs}`, home.apiKey).expect(404)).body).toEqual(NOT_FOUND);
      expect((await get(`/accounts/${theirs}?include_disabled=true`, home.apiKey).expect(404)).body).toEqual(NOT_FOUND);
      expect((await get(`/accounts/${checking}`, other.apiKey).expect(404)).body).toEqual(NOT_FOUND);
      const ours = (await get('/accounts?include_disabled=true', home.apiKey)).body.accounts.map((a: { id: string }) => a.id);
      expect(ours).not.toContain(theirs);
      expect((await get('/accounts?include_disabled=true', other.apiKey)).body.accounts.map((a: { id: string }) => a.id)).toEqual([theirs]);
    });

    it('formats a JPY balance in whole yen and a KWD one in fils', async () => {
      const yen = await t.newHousehold({ currency: 'JPY' });
      const id = await addAccount(yen, { name: 'yucho', currency: 'JPY', balance: '1234567' });
      expect((await get(`/accounts/${id}`, yen.apiKey).expect(200)).body).toMatchObject({
        currency: 'JPY', balance: '¥1,234,567', balance_cents: 1234567, cash_balance: '¥1,234,567', cash_balance_cents: 1234567,
      });
      const fils = await addAccount(yen, { name: 'kuwait', currency: 'KWD', balance: '1234' });
      expect((await get(`/accounts/${fils}`, yen.apiKey).expect(200)).body).toMatchObject({ balance: 'KWD\u00a01.234', balance_cents: 1234 });
    });

    it('refuses, by name, a balance beyond what a _cents integer carries exactly', async () => {
      const h = await t.newHousehold();
      const id = await addAccount(h, { name: 'huge', balance: '9007199254740993' });
      const res = await get(`/accounts/${id}`, h.apiKey).expect(422);
      expect(res.body).toMatchObject({ error: 'amount_out_of_range', message: expect.stringMatching(/^balance \(\$90,071,992,547,409\.93\) is beyond/) });
    });
  });

  it('documents Accept-Language as optional in the OpenAPI document, as it is (else ?locale=, else en)', async () => {
    const doc = (await request(t.server).get('/api/v1/openapi.json').expect(200)).body;
    type Parameter = { name: string; in: string; required?: boolean };
    for (const [path, method] of [['/api/v1/accounts', 'get'], ['/api/v1/accounts/{id}', 'get'], ['/api/v1/budgets', 'get'], ['/api/v1/budget_categories/{id}', 'patch']]) {
      const header = (doc.paths[path][method].parameters as Parameter[]).filter((p) => p.in === 'header' && p.name.toLowerCase() === 'accept-language');
      expect([path, method, header.map((p) => p.required ?? false)]).toEqual([path, method, [false]]);
    }
    // Sent without it, a list answers in the default locale.
    expect((await get('/accounts', home.apiKey).expect(200)).body.accounts[2].balance).toBe('$1,234.56');
  });

  describe('balances rolled forward from the entries', () => {
    let h: Household;
    beforeEach(async () => {
      h = await t.newHousehold();
    });
    const balanceOf = async (id: string) => {
      const res = await get(`/accounts/${id}`, h.apiKey).expect(200);
      return { balance: res.body.balance_cents, cash: res.body.cash_balance_cents, unconverted: res.headers['x-balance-unconverted-entries'] };
    };
    /** An entry of the account as the database holds it: a transaction, unless `kind` makes it a valuation. */
    async function addEntry(accountId: string, e: { date: string; amount: number; currency?: string; kind?: string; parent?: string }): Promise<string> {
      const [row] = await t.dataSource.query(
        `INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency, parent_entry_id)
         VALUES ($1, $2, $3, $4, 'entry', $5, $6, $7) RETURNING id`,
        [h.familyId, accountId, e.kind ? 'Valuation' : 'Transaction', e.date, e.amount, e.currency ?? 'USD', e.parent ?? null],
      );
      await (e.kind
        ? t.dataSource.query(`INSERT INTO valuations (entry_id, kind) VALUES ($1, $2)`, [row.id, e.kind])
        : t.dataSource.query(`INSERT INTO transactions (entry_id) VALUES ($1)`, [row.id]));
      return row.id;
    }

    it("moves an imported account's opening balance by the transactions published into it, from its day on, and back on revert", async () => {
      const accounts = await publishAndWait(t, h, { type: 'AccountImport', raw_file_content: 'Account type,Name,Balance,Currency,Balance Date\nChecking,Main,1000.00,USD,2024-01-01' });
      expect(accounts.status).toBe('complete');
      const [{ id }] = (await get('/accounts', h.apiKey).expect(200)).body.accounts;
      expect(await balanceOf(id)).toEqual({ balance: 100000, cash: 100000, unconverted: undefined });
      // Signed amounts, inflows positive: the opening balance is the day's start, so its own day's purchase counts.
      const spending = await publishAndWait(t, h, {
        raw_file_content: 'Date,Amount,Description\n2024-01-01,-20.00,Coffee\n2024-02-01,500.00,Salary\n2024-02-03,-45.99,Grocer',
        account_id: id,
      });
      expect(spending.status).toBe('complete');
      expect(await balanceOf(id)).toEqual({ balance: 143401, cash: 143401, unconverted: undefined });
      expect((await get('/accounts', h.apiKey).expect(200)).body.accounts[0]).toMatchObject({ balance: '$1,434.01', cash_balance: '$1,434.01' });
      expect((await revertAndWait(t, h, spending.id)).status).toBe('pending');
      expect(await balanceOf(id)).toEqual({ balance: 100000, cash: 100000, unconverted: undefined });
    });

    it('gives an account created from a CSV column, with no opening balance, what its transactions add up to', async () => {
      await publishAndWait(t, h, { raw_file_content: 'Date,Amount,Description,Account\n2024-03-01,-45.99,Grocer,Wallet\n2024-03-02,10.00,Refund,Wallet' });
      const [{ id }] = (await get('/accounts', h.apiKey).expect(200)).body.accounts;
      expect(await balanceOf(id)).toMatchObject({ balance: -3599, cash: -3599 });
    });

    it('raises what a card owes by its purchases and lowers it by payments', async () => {
      const card = await addAccount(h, { name: 'card', type: 'CreditCard', classification: 'liability', balance: '50000' });
      await publishAndWait(t, h, { raw_file_content: 'Date,Amount,Description\n2024-03-01,-19.99,Shop\n2024-03-05,500.00,Payment', account_id: card });
      expect(await balanceOf(card)).toMatchObject({ balance: 1999, cash: 1999 });
    });

    it('starts from the latest valuation: a reconciliation is its day\'s end and wins over an opening balance of the same day', async () => {
      const id = await addAccount(h, { name: 'savings', balance: '777' });
      await addEntry(id, { date: '2024-01-01', amount: 100000, kind: 'opening_anchor' });
      await addEntry(id, { date: '2024-01-10', amount: 5000 });
      await addEntry(id, { date: '2024-02-01', amount: 200000, kind: 'reconciliation' });
      await addEntry(id, { date: '2024-02-01', amount: 300000, kind: 'opening_anchor' });
      await addEntry(id, { date: '2024-02-01', amount: 1000 }); // in the reconciled balance already
      await addEntry(id, { date: '2024-02-02', amount: 2500 });
      expect(await balanceOf(id)).toMatchObject({ balance: 197500, cash: 197500 });
    });

    it('counts a split purchase once, by its total, whatever its parts', async () => {
      const id = await addAccount(h, { name: 'split', balance: '10000' });
      const parent = await addEntry(id, { date: '2024-01-25', amount: 3000 });
      await addEntry(id, { date: '2024-01-25', amount: 2000, parent });
      await addEntry(id, { date: '2024-01-25', amount: 1000, parent });
      expect(await balanceOf(id)).toMatchObject({ balance: 7000 });
    });

    it("converts another currency's entries at their day's rate, and says how many had none instead of counting them 1:1", async () => {
      const id = await addAccount(h, { name: 'travel', balance: '100000' });
      // Rates are shared by every family (and every test on this database): these two days' are set here, whatever was there.
      await t.dataSource.query(
        `INSERT INTO exchange_rates (from_currency, to_currency, date, rate) VALUES ('GBP', 'USD', '1999-03-01', 1.1)
         ON CONFLICT (from_currency, to_currency, date) DO UPDATE SET rate = excluded.rate`,
      );
      await t.dataSource.query(`DELETE FROM exchange_rates WHERE from_currency = 'GBP' AND to_currency = 'USD' AND date = '1999-03-02'`);
      await addEntry(id, { date: '1999-03-01', amount: 1000, currency: 'GBP' });
      expect(await balanceOf(id)).toEqual({ balance: 98900, cash: 98900, unconverted: undefined });
      await addEntry(id, { date: '1999-03-02', amount: 5000, currency: 'GBP' });
      expect(await balanceOf(id)).toEqual({ balance: 98900, cash: 98900, unconverted: '1' });
      expect((await get('/accounts', h.apiKey).expect(200)).headers['x-balance-unconverted-entries']).toBe('1');
    });

    it("keeps an investment account's holdings at cost: a buy moves its cash, only the fee moves its value", async () => {
      const id = await addAccount(h, { name: 'brokerage', type: 'Investment', balance: '100000', cashBalance: '100000' });
      const [security] = await t.dataSource.query(
        `INSERT INTO securities (ticker, exchange_operating_mic, offline) VALUES ('BALTEST', '', true) ON CONFLICT (ticker, exchange_operating_mic) DO UPDATE SET offline = true RETURNING id`,
      );
      const [trade] = await t.dataSource.query(
        `INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency) VALUES ($1, $2, 'Trade', '2024-04-01', 'Buy', 50500, 'USD') RETURNING id`,
        [h.familyId, id],
      );
      await t.dataSource.query(`INSERT INTO trades (entry_id, security_id, qty, price, fee_minor, currency) VALUES ($1, $2, 5, 100, 500, 'USD')`, [trade.id, security.id]);
      await addEntry(id, { date: '2024-04-02', amount: -1200 }); // a dividend
      expect(await balanceOf(id)).toMatchObject({ balance: 100700, cash: 50700 });
    });

    it('gives a loan no cash', async () => {
      const id = await addAccount(h, { name: 'mortgage', type: 'Loan', classification: 'liability', balance: '20000000', cashBalance: '5' });
      await addEntry(id, { date: '2024-04-01', amount: -100000 });
      expect(await balanceOf(id)).toMatchObject({ balance: 19900000, cash: 0 });
    });

    it("is today's balance in the family's time zone: what is dated later counts from its day on", async () => {
      // UTC+14: from 10:00 UTC on, the family's today is UTC's tomorrow, so a balance as of UTC's today would miss one.
      await t.dataSource.query(`UPDATE families SET timezone = 'Pacific/Kiritimati' WHERE id = $1`, [h.familyId]);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
      const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const id = await addAccount(h, { name: 'current', balance: '100000' });
      await addEntry(id, { date: today, amount: 1000 });
      await addEntry(id, { date: tomorrow, amount: 20000 }); // a scheduled payment in the bank's export
      const scheduled = await addEntry(id, { date: tomorrow, amount: 3000 });
      await addEntry(id, { date: tomorrow, amount: 3000, parent: scheduled });
      await addEntry(id, { date: tomorrow, amount: 500000, kind: 'reconciliation' });
      expect(await balanceOf(id)).toEqual({ balance: 99000, cash: 99000, unconverted: undefined });
      const moveToToday = (type: string) =>
        t.dataSource.query(`UPDATE entries SET date = $3 WHERE account_id = $1 AND date = $2 AND entryable_type = $4`, [id, tomorrow, today, type]);
      await moveToToday('Transaction');
      expect(await balanceOf(id)).toMatchObject({ balance: 99000 - 20000 - 3000 });
      await moveToToday('Valuation');
      expect(await balanceOf(id)).toMatchObject({ balance: 500000 }); // today's end: the day's entries are in it
    });

  });

  describe('the README example', () => {
    it("finds the account a first import created from its Account column, and imports more into it by id", async () => {
      const h = await t.newHousehold();
      const first = await publishAndWait(t, h, {
        raw_file_content: 'Date,Amount,Description,Account,Category\n2024-03-01,-45.99,Grocer,Checking,Groceries',
      });
      expect(first.status).toBe('complete');
      const list = (await get('/accounts', h.apiKey).expect(200)).body;
      expect(list.accounts).toEqual([expect.objectContaining({ name: 'Checking', currency: 'USD', account_type: 'depository', status: 'active' })]);
      const accountId = list.accounts[0].id;

      const second = await publishAndWait(t, h, { raw_file_content: 'Date,Amount,Description\n2024-03-02,-12.00,Bakery', account_id: accountId });
      expect(second.status).toBe('complete');
      const entries = await t.dataSource.query(`SELECT name FROM entries WHERE account_id = $1 ORDER BY date`, [accountId]);
      expect(entries.map((e: { name: string }) => e.name)).toEqual(['Grocer', 'Bakery']);
      expect((await get('/accounts', h.apiKey)).body.pagination.total_count).toBe(1);
    });
  });
});
