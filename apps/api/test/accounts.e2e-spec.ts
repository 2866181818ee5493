import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { publishAndWait } from './support/imports';
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
        cash_balance: '$0.00',
        cash_balance_cents: 0,
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
        currency: 'JPY', balance: '¥1,234,567', balance_cents: 1234567, cash_balance: '¥0', cash_balance_cents: 0,
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
