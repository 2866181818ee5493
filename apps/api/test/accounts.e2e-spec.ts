import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { BudgetFixtures } from './support/budgets';
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
        'account_type', 'subtype', 'status', 'institution_name', 'created_at', 'updated_at', 'closed_at',
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
        closed_at: null,
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

describe('Accounts written by hand: create, edit, close, delete, valuations', () => {
  type Method = 'get' | 'post' | 'patch' | 'delete';
  let t: TestApp;
  let home: Household;
  let other: Household;
  let readKey: string;
  const api = (method: Method, path: string, key = home.apiKey) => request(t.server)[method](`/api/v1${path}`).set('X-Api-Key', key);
  const balance = async (id: string): Promise<number> => (await api('get', `/accounts/${id}?include_disabled=true`).expect(200)).body.balance_cents;
  const open = async (fields: Record<string, unknown>, key = home.apiKey) => (await api('post', '/accounts', key).send({ account_type: 'depository', ...fields }).expect(201)).body;
  const DAY = (n: number) => `2026-11-${String(n).padStart(2, '0')}`;

  beforeAll(async () => {
    t = await startTestApp();
    home = await t.newHousehold({ currency: 'EUR' });
    other = await t.newHousehold();
    readKey = (await t.app.get(ApiKeysService).create({ userId: home.userId, name: 'read only', scope: 'read' })).key;
  }, 60_000);
  afterAll(() => t?.close());

  it("creates an account in the household's currency with its opening balance as a valuation, and lists it", async () => {
    const made = await open({ name: 'Joint checking', subtype: 'checking', balance: '1250.50', balance_date: '2026-01-01', institution_name: 'First Bank' });
    expect(made).toMatchObject({
      name: 'Joint checking', currency: 'EUR', account_type: 'depository', classification: 'asset', subtype: 'checking', status: 'active',
      balance_cents: 125050, institution_name: 'First Bank', closed_at: null,
    });
    const valuations = (await api('get', `/accounts/${made.id}/valuations`).expect(200)).body.valuations;
    expect(valuations).toEqual([{ id: expect.any(String), date: '2026-01-01', kind: 'opening_anchor', balance: '€1,250.50', balance_cents: 125050, currency: 'EUR', import_id: null, created_at: ISO }]);
    expect((await api('get', '/accounts').expect(200)).body.accounts.map((a: { id: string }) => a.id)).toContain(made.id);

    const card = await open({ name: 'Visa', account_type: 'credit_card', currency: 'USD' });
    expect(card).toMatchObject({ currency: 'USD', classification: 'liability', balance_cents: 0 });
  });

  it('refuses bad input with 422 naming the field, storing nothing', async () => {
    const before = (await t.dataSource.query(`SELECT count(*)::int AS n FROM accounts WHERE family_id = $1`, [home.familyId]))[0].n;
    await open({ name: 'Taken' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ account_type: 'depository' }, 'name'],
      [{ name: 'X', account_type: 'bank' }, 'account_type must be one of'],
      [{ name: 'X', account_type: 'depository', currency: 'XYZ' }, 'currency must be an ISO 4217'],
      [{ name: 'X', account_type: 'depository', balance: '1,000' }, 'balance must be a decimal'],
      [{ name: 'X', account_type: 'depository', balance: '1.234' }, 'balance'],
      [{ name: 'X', account_type: 'depository', balance_date: '2026-02-30' }, 'balance_date must be a date'],
      [{ name: 'X', account_type: 'depository', owner: 'me' }, 'owner'],
      [{ name: 'Taken', account_type: 'depository' }, 'name "Taken" is already an account'],
    ];
    for (const [body, message] of cases) {
      const res = await api('post', '/accounts').send(body).expect(422);
      expect(res.body).toMatchObject({ error: 'validation_failed' });
      expect(res.body.errors.join(' | ')).toContain(message);
    }
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM accounts WHERE family_id = $1`, [home.familyId]))[0].n).toBe(before + 1);
  });

  it('renames and retypes within its classification, and changes currency only while it holds no entries', async () => {
    const empty = (await api('post', '/accounts').send({ name: 'Empty', account_type: 'depository' }).expect(201)).body;
    // The opening balance is an entry: only an account without one (made by an import from a name) can change currency.
    await t.dataSource.query(`DELETE FROM entries WHERE account_id = $1`, [empty.id]);
    expect((await api('patch', `/accounts/${empty.id}`).send({ currency: 'GBP', name: 'Pounds', account_type: 'investment', subtype: null }).expect(200)).body).toMatchObject({
      name: 'Pounds', currency: 'GBP', account_type: 'investment', subtype: null,
    });
    const held = await open({ name: 'Held', balance: '10' });
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ currency: 'USD' }, 'currency cannot change while the account holds'],
      [{ account_type: 'loan' }, 'account_type cannot turn an asset into a liability'],
      [{ name: 'Taken' }, 'is already an account'],
      [{ name: null }, 'name'],
      [{ closed: 'yes' }, 'closed must be true or false'],
    ];
    for (const [body, message] of refusals) {
      const res = await api('patch', `/accounts/${held.id}`).send(body).expect(422);
      expect(res.body.errors.join(' | ')).toContain(message);
    }
    expect((await api('get', `/accounts/${held.id}`).expect(200)).body).toMatchObject({ name: 'Held', currency: 'EUR', account_type: 'depository' });
  });

  it('closes an account: kept in lists and balances, marked, refusing new transactions and imports until reopened', async () => {
    const acct = await open({ name: 'Old current', balance: '100', balance_date: DAY(1) });
    const spare = await open({ name: 'Spare', balance: '0', balance_date: DAY(1) });
    await api('post', '/transactions').send({ transaction: { account_id: acct.id, date: DAY(2), amount: '10', name: 'Before closing' } }).expect(201);
    const bankExport = { raw_file_content: `Date,Amount,Description\n${DAY(3)},-1.00,Imported\n`, account_id: acct.id, date_format: '%Y-%m-%d' };
    const uploaded = (await api('post', '/imports').send(bankExport).expect(201)).body.data;
    const closed = (await api('patch', `/accounts/${acct.id}`).send({ closed: true }).expect(200)).body;
    expect(closed).toMatchObject({ closed_at: ISO, status: 'active', balance_cents: 9000 });
    const listed = (await api('get', '/accounts?per_page=100').expect(200)).body.accounts.find((a: { id: string }) => a.id === acct.id);
    expect(listed).toMatchObject({ closed_at: closed.closed_at, balance_cents: 9000 });

    const refused = await api('post', '/transactions').send({ transaction: { account_id: acct.id, date: DAY(3), amount: '1', name: 'After' } }).expect(422);
    expect(refused.body.errors[0]).toContain('transaction.account_id is a closed account');
    const transfer = await api('post', '/transfers').send({ from_account_id: spare.id, to_account_id: acct.id, amount: '1', date: DAY(3) }).expect(422);
    expect(transfer.body.errors[0]).toContain('to_account_id is a closed account');
    // An import into it is refused at upload, and one uploaded before it closed is not published.
    const upload = await api('post', '/imports').send(bankExport).expect(422);
    expect(upload.body.errors).toEqual([expect.stringContaining('account_id is a closed account')]);
    const publish = await api('post', `/imports/${uploaded.id}/publish`).expect(422);
    expect(publish.body).toMatchObject({ error: 'not_publishable', import_id: uploaded.id, errors: [expect.stringContaining('account_id is a closed account')] });
    expect((await api('get', `/imports/${uploaded.id}`).expect(200)).body.data.status).toBe('pending');
    expect(await balance(acct.id)).toBe(9000);

    expect((await api('patch', `/accounts/${acct.id}`).send({ closed: false }).expect(200)).body.closed_at).toBeNull();
    await api('post', '/transactions').send({ transaction: { account_id: acct.id, date: DAY(3), amount: '1', name: 'After' } }).expect(201);
    expect(await balance(acct.id)).toBe(8900);
  });

  it('sets the balance by hand from a date on, replaces one set the same day, and deletes it again', async () => {
    const acct = await open({ name: 'Savings', balance: '500', balance_date: DAY(1) });
    await api('post', '/transactions').send({ transaction: { account_id: acct.id, date: DAY(2), amount: '50', name: 'Shop' } }).expect(201);
    expect(await balance(acct.id)).toBe(45000);

    const set = (await api('post', `/accounts/${acct.id}/valuations`).send({ date: DAY(3), balance: '1000' }).expect(201)).body;
    expect(set).toMatchObject({ date: DAY(3), kind: 'reconciliation', balance_cents: 100000, currency: 'EUR', import_id: null });
    await api('post', '/transactions').send({ transaction: { account_id: acct.id, date: DAY(4), amount: '25', name: 'Later shop' } }).expect(201);
    expect(await balance(acct.id)).toBe(97500); // from the valuation, moved by what came after it

    const replaced = (await api('post', `/accounts/${acct.id}/valuations`).send({ date: DAY(3), balance: 800 }).expect(201)).body;
    const listed = (await api('get', `/accounts/${acct.id}/valuations`).expect(200)).body.valuations;
    expect(listed.map((v: { id: string; kind: string }) => [v.id, v.kind])).toEqual([[replaced.id, 'reconciliation'], [expect.any(String), 'opening_anchor']]);
    expect(await balance(acct.id)).toBe(77500);

    const bad = await api('post', `/accounts/${acct.id}/valuations`).send({ date: 'yesterday', balance: 'lots' }).expect(422);
    expect(bad.body.errors.join(' | ')).toMatch(/date must be a date.*balance must be a decimal|balance must be a decimal.*date must be a date/);
    const opening = listed[1].id;
    expect((await api('delete', `/accounts/${acct.id}/valuations/${opening}`).expect(422)).body.errors[0]).toContain('opening balance cannot be deleted');
    await api('delete', `/accounts/${acct.id}/valuations/${replaced.id}`).expect(204);
    expect(await balance(acct.id)).toBe(42500);
    await api('delete', `/accounts/${acct.id}/valuations/${replaced.id}`).expect(404);
  });

  it('states what a delete takes, then deletes the account with its entries; budgets and the other side of a transfer follow', async () => {
    const fx = new BudgetFixtures(t);
    const groceries = await fx.category(home.familyId, 'Groceries');
    const budget = (await api('post', '/budgets').send({ start_date: DAY(1) }).expect(201)).body.id;
    const spent = async (): Promise<number> => (await api('get', `/budgets/${budget}`).expect(200)).body.actual_spending_cents;
    const before = await spent();
    const doomed = await open({ name: 'Doomed', balance: '100', balance_date: DAY(1) });
    const stays = await open({ name: 'Stays', balance: '100', balance_date: DAY(1) });
    const txn = (await api('post', '/transactions').send({ transaction: { account_id: doomed.id, date: DAY(2), amount: '30', name: 'Food', category_id: groceries } }).expect(201)).body;
    await api('post', `/transactions/${txn.id}/split`).send({ parts: [{ amount: '10', name: 'a' }, { amount: '20', name: 'b' }] }).expect(200);
    const transfer = (await api('post', '/transfers').send({ from_account_id: stays.id, to_account_id: doomed.id, amount: '5', date: DAY(2) }).expect(201)).body;
    await api('post', `/accounts/${doomed.id}/valuations`).send({ date: DAY(3), balance: '75' }).expect(201);
    expect(await spent()).toBe(before + 3000);

    const stated = (await api('get', `/accounts/${doomed.id}/deletion`, readKey).expect(200)).body;
    expect(stated).toEqual({ id: doomed.id, name: 'Doomed', transactions: 4, valuations: 2, trades: 0, transfers: 1, imports: 0 });
    await api('delete', `/accounts/${doomed.id}`, readKey).expect(403);
    expect((await api('delete', `/accounts/${doomed.id}`).expect(200)).body).toEqual(stated);

    await api('get', `/accounts/${doomed.id}?include_disabled=true`).expect(404);
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM entries WHERE account_id = $1`, [doomed.id]))[0].n).toBe(0);
    // The split purchase left the budget with the account; the transfer's other side is now ordinary spending, as when one side of a transfer is deleted.
    expect(await spent()).toBe(before + 500);
    const outflow = (await api('get', `/transactions/${transfer.outflow.id}`).expect(200)).body;
    expect(outflow).toMatchObject({ transfer: null, amount_cents: 500 });
    expect(await balance(stays.id)).toBe(9500);
    const [audit] = await t.dataSource.query(`SELECT details FROM audit_logs WHERE event = 'account_deleted' AND family_id = $1`, [home.familyId]);
    expect(audit.details).toMatchObject({ account_id: doomed.id, name: 'Doomed', transactions: 4 });
    await api('delete', `/accounts/${doomed.id}`).expect(404);
  });

  it('refuses a delete while an import into the account is publishing, deleting nothing', async () => {
    const acct = await open({ name: 'Busy', balance: '1' });
    await t.dataSource.query(`INSERT INTO imports (family_id, account_id, type, status) VALUES ($1, $2, 'TransactionImport', 'importing')`, [home.familyId, acct.id]);
    expect((await api('get', `/accounts/${acct.id}/deletion`).expect(200)).body.imports).toBe(1);
    expect((await api('delete', `/accounts/${acct.id}`).expect(409)).body.error).toBe('import_in_progress');
    await api('get', `/accounts/${acct.id}`).expect(200);
  });

  it('refuses every write to a read-scope key and takes them from a member', async () => {
    const acct = await open({ name: 'Scoped', balance: '1' });
    const writes: Array<[Method, string, object]> = [
      ['post', '/accounts', { name: 'R', account_type: 'depository' }],
      ['patch', `/accounts/${acct.id}`, { name: 'R' }],
      ['delete', `/accounts/${acct.id}`, {}],
      ['post', `/accounts/${acct.id}/valuations`, { date: DAY(1), balance: '1' }],
    ];
    for (const [method, path, body] of writes) {
      const res = await api(method, path, readKey).send(body);
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 403, error: 'insufficient_scope' });
    }
    expect((await api('get', `/accounts/${acct.id}`).expect(200)).body.name).toBe('Scoped');

    const member = await t.newHousehold({ role: 'member' });
    const mine = await open({ name: 'Member account', balance: '2' }, member.apiKey);
    await api('patch', `/accounts/${mine.id}`, member.apiKey).send({ closed: true }).expect(200);
    await api('delete', `/accounts/${mine.id}`, member.apiKey).expect(200);
  });

  it("answers 404 for another family's account on every write, changing nothing", async () => {
    const theirs = (await api('post', '/accounts', other.apiKey).send({ name: 'Theirs', account_type: 'depository', balance: '7' }).expect(201)).body;
    const [valuation] = (await api('get', `/accounts/${theirs.id}/valuations`, other.apiKey).expect(200)).body.valuations;
    const calls: Array<[Method, string, object]> = [
      ['patch', `/accounts/${theirs.id}`, { name: 'Mine now' }],
      ['get', `/accounts/${theirs.id}/deletion`, {}],
      ['delete', `/accounts/${theirs.id}`, {}],
      ['get', `/accounts/${theirs.id}/valuations`, {}],
      ['post', `/accounts/${theirs.id}/valuations`, { date: DAY(1), balance: '1' }],
      ['delete', `/accounts/${theirs.id}/valuations/${valuation.id}`, {}],
    ];
    for (const [method, path, body] of calls) {
      const res = await api(method, path).send(body);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    expect((await api('get', `/accounts/${theirs.id}`, other.apiKey).expect(200)).body).toMatchObject({ name: 'Theirs', balance_cents: 700 });
  });
});
