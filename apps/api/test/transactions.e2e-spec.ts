import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { newAccount, publishAndWait, waitForImport } from './support/imports';
import { OpenApiDocument, schemaErrors } from './support/openapi-schema';
import { as, signIn } from './support/sessions';
import { Household, startTestApp, TestApp } from './support/test-app';

const NOT_FOUND = { error: 'record_not_found', message: 'The requested resource was not found' };
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

const line = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data });

/** A household's history through a ServiceImport: category, merchant, tags, a split, a transfer, and rows that are no transactions. */
const SERVICE_FILE = [
  line('Account', { id: 'acc-1', name: 'Checking', balance: '2500.00', currency: 'USD', accountable_type: 'Depository' }),
  line('Account', { id: 'acc-2', name: 'Visa', balance: '0', currency: 'USD', accountable_type: 'CreditCard' }),
  line('Account', { id: 'acc-3', name: 'Brokerage', balance: '1000', currency: 'USD', accountable_type: 'Investment' }),
  line('Valuation', { id: 'val-1', account_id: 'acc-1', date: '2024-12-31', amount: '2000.00', kind: 'opening_anchor' }),
  line('Category', { id: 'cat-1', name: 'Utilities', color: '#6471eb', lucide_icon: 'plug' }),
  line('Category', { id: 'cat-2', name: 'Groceries', color: '#4da568', lucide_icon: 'shopping-cart' }),
  line('Tag', { id: 'tag-1', name: 'Monthly', color: '#4da568' }),
  line('Tag', { id: 'tag-2', name: 'Shared', color: '#e99537' }),
  line('Merchant', { id: 'mer-1', name: 'City Power', color: '#db5a54' }),
  line('Transaction', { id: 'txn-1', account_id: 'acc-1', date: '2025-01-05', amount: '84.20', name: 'Electricity January', category_id: 'cat-1', merchant_id: 'mer-1', tag_ids: ['tag-1', 'tag-2'], notes: 'meter 4411' }),
  line('Transaction', { id: 'txn-2', account_id: 'acc-1', date: '2025-01-10', amount: '-1500.00', name: 'Salary' }),
  line('Transaction', {
    id: 'txn-3', account_id: 'acc-2', date: '2025-01-12', amount: '120.00', name: 'Market run', tag_ids: ['tag-2'],
    split_lines: [{ id: 'spl-1', amount: '100.00', name: 'Food', category_id: 'cat-2' }, { id: 'spl-2', amount: '20.00', name: 'Power top-up', category_id: 'cat-1' }],
  }),
  line('Transaction', { id: 'txn-4', account_id: 'acc-1', date: '2025-01-20', amount: '200.00', name: 'Card payment', kind: 'cc_payment' }),
  line('Transaction', { id: 'txn-5', account_id: 'acc-2', date: '2025-01-20', amount: '-200.00', name: 'Payment received', kind: 'funds_movement' }),
  line('Transfer', { inflow_transaction_id: 'txn-5', outflow_transaction_id: 'txn-4', status: 'confirmed', notes: null }),
  line('Transaction', { id: 'txn-6', account_id: 'acc-1', date: '2025-01-25', amount: '5.00', name: '100% off_deal' }),
  line('Trade', { id: 'trd-1', account_id: 'acc-3', date: '2025-01-15', amount: '1523.40', qty: '10', price: '152.34', ticker: 'aapl', exchange_operating_mic: 'XNAS', currency: 'USD' }),
].join('\n');

interface Txn {
  id: string;
  date: string;
  name: string;
  created_at: string;
  parent_id: string | null;
  [field: string]: unknown;
}

describe('Transactions API', () => {
  let t: TestApp;
  let home: Household;
  let all: Txn[];
  const get = (path: string, key = home.apiKey) => request(t.server).get(`/api/v1${path}`).set('X-Api-Key', key);
  const byName = (name: string) => all.find((x) => x.name === name)!;
  const names = async (query: string, key = home.apiKey) => {
    const res = await get(`/transactions?per_page=100&${query}`, key).expect(200);
    return (res.body.transactions as Txn[]).map((x) => x.name).sort();
  };
  const idOf = async (table: string, name: string) => (await t.dataSource.query(`SELECT id FROM ${table} WHERE family_id = $1 AND name = $2`, [home.familyId, name]))[0].id;

  beforeAll(async () => {
    t = await startTestApp();
    home = await t.newHousehold();
    const res = await request(t.server).post('/api/v1/imports').set('X-Api-Key', home.apiKey).send({ type: 'ServiceImport', raw_file_content: SERVICE_FILE, publish: 'true' });
    expect(res.status).toBe(201);
    expect((await waitForImport(t.server, home.apiKey, res.body.data.id)).status).toBe('complete');
    all = (await get('/transactions?per_page=100').expect(200)).body.transactions;
  });
  afterAll(() => t.close());

  describe('GET /transactions', () => {
    it('lists every transaction of the family, split parents and parts and both transfer sides, but no trades or valuations', () => {
      expect(all.map((x) => x.name).sort()).toEqual(
        ['100% off_deal', 'Card payment', 'Electricity January', 'Food', 'Market run', 'Payment received', 'Power top-up', 'Salary'],
      );
    });

    it('gives a transaction in the Transaction shape: category, merchant, tags, amounts signed as Sure does', async () => {
      const power = byName('Electricity January');
      expect(Object.keys(power)).toEqual([
        'id', 'date', 'amount', 'amount_cents', 'signed_amount_cents', 'currency', 'name', 'notes', 'external_id', 'source',
        'classification', 'parent_id', 'account', 'category', 'merchant', 'tags', 'transfer', 'created_at', 'updated_at',
      ]);
      expect(power).toEqual({
        id: expect.any(String),
        date: '2025-01-05',
        amount: '$84.20',
        amount_cents: 8420,
        signed_amount_cents: -8420,
        currency: 'USD',
        name: 'Electricity January',
        notes: 'meter 4411',
        external_id: null,
        source: null,
        classification: 'expense',
        parent_id: null,
        account: { id: await idOf('accounts', 'Checking'), name: 'Checking', account_type: 'depository' },
        category: { id: await idOf('categories', 'Utilities'), name: 'Utilities', color: '#6471eb', icon: 'plug' },
        merchant: { id: (await t.dataSource.query(`SELECT id FROM merchants WHERE family_id = $1`, [home.familyId]))[0].id, name: 'City Power' },
        tags: [
          { id: await idOf('tags', 'Monthly'), name: 'Monthly', color: '#4da568' },
          { id: await idOf('tags', 'Shared'), name: 'Shared', color: '#e99537' },
        ],
        transfer: null,
        created_at: ISO,
        updated_at: ISO,
      });
      expect(byName('Salary')).toMatchObject({ amount: '-$1,500.00', amount_cents: 150000, signed_amount_cents: 150000, classification: 'income', category: null, merchant: null, tags: [] });
    });

    it('gives both sides of a transfer the other side\'s account and the inflow amount', async () => {
      const visa = { id: await idOf('accounts', 'Visa'), name: 'Visa', account_type: 'credit_card' };
      const checking = { id: await idOf('accounts', 'Checking'), name: 'Checking', account_type: 'depository' };
      const [transferId] = (await t.dataSource.query(`SELECT id FROM transfers WHERE family_id = $1`, [home.familyId])).map((r: { id: string }) => r.id);
      expect(byName('Card payment').transfer).toEqual({ id: transferId, amount: '$200.00', currency: 'USD', other_account: visa });
      expect(byName('Payment received').transfer).toEqual({ id: transferId, amount: '$200.00', currency: 'USD', other_account: checking });
    });

    it('tells split parts from their parent by parent_id', () => {
      const parent = byName('Market run');
      expect(parent).toMatchObject({ parent_id: null, amount_cents: 12000 });
      expect(byName('Food')).toMatchObject({ parent_id: parent.id, amount: '$100.00', category: expect.objectContaining({ name: 'Groceries' }) });
      expect(byName('Power top-up')).toMatchObject({ parent_id: parent.id, amount: '$20.00' });
    });

    it('orders by date, then created_at, then id, newest first', () => {
      const sorted = [...all].sort((a, b) => b.date.localeCompare(a.date) || b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
      expect(all.map((x) => x.id)).toEqual(sorted.map((x) => x.id));
      expect(all[0].name).toBe('100% off_deal');
    });

    it('pages, showing the last page for one past the end; per_page as the accounts list reads it', async () => {
      const second = await get('/transactions?per_page=3&page=2').expect(200);
      expect(second.body.transactions.map((x: Txn) => x.id)).toEqual(all.slice(3, 6).map((x) => x.id));
      expect(second.body.pagination).toEqual({ page: 2, per_page: 3, total_count: 8, total_pages: 3 });
      const past = await get('/transactions?per_page=3&page=99').expect(200);
      expect(past.body.pagination).toEqual({ page: 3, per_page: 3, total_count: 8, total_pages: 3 });
      expect(past.body.transactions.map((x: Txn) => x.id)).toEqual(all.slice(6).map((x) => x.id));
      for (const [params, perPage] of [['per_page=500', 100], ['per_page=0', 25], ['per_page=abc', 25], ['page=-1', 25]] as const) {
        expect((await get(`/transactions?${params}`).expect(200)).body.pagination).toEqual({ page: 1, per_page: perPage, total_count: 8, total_pages: 1 });
      }
    });

    it('filters by account, category, merchant and tags', async () => {
      const [checking, visa] = [await idOf('accounts', 'Checking'), await idOf('accounts', 'Visa')];
      const [utilities, groceries] = [await idOf('categories', 'Utilities'), await idOf('categories', 'Groceries')];
      const [monthly, shared] = [await idOf('tags', 'Monthly'), await idOf('tags', 'Shared')];
      const merchant = (await t.dataSource.query(`SELECT id FROM merchants WHERE family_id = $1`, [home.familyId]))[0].id;
      expect(await names(`account_id=${visa}`)).toEqual(['Food', 'Market run', 'Payment received', 'Power top-up']);
      expect(await names(`account_ids[]=${visa}&account_ids[]=${checking}`)).toHaveLength(8);
      expect(await names(`account_ids[]=${visa}`)).toHaveLength(4);
      expect(await names(`category_id=${utilities}`)).toEqual(['Electricity January', 'Power top-up']);
      expect(await names(`category_ids[]=${utilities}&category_ids[]=${groceries}`)).toEqual(['Electricity January', 'Food', 'Power top-up']);
      expect(await names(`merchant_id=${merchant}`)).toEqual(['Electricity January']);
      expect(await names(`merchant_ids[]=${merchant}`)).toEqual(['Electricity January']);
      expect(await names(`tag_ids[]=${monthly}`)).toEqual(['Electricity January']);
      // A split's parts carry its tags.
      expect(await names(`tag_ids[]=${monthly}&tag_ids[]=${shared}`)).toEqual(['Electricity January', 'Food', 'Market run', 'Power top-up']);
      expect(await names(`account_id=${visa}&category_id=${utilities}`)).toEqual(['Power top-up']);
      // The count follows the filter.
      expect((await get(`/transactions?category_id=${utilities}`).expect(200)).body.pagination.total_count).toBe(2);
    });

    it('filters by dates, inclusive', async () => {
      expect(await names('start_date=2025-01-20')).toEqual(['100% off_deal', 'Card payment', 'Payment received']);
      expect(await names('end_date=2025-01-10')).toEqual(['Electricity January', 'Salary']);
      expect(await names('start_date=2025-01-10&end_date=2025-01-12')).toEqual(['Food', 'Market run', 'Power top-up', 'Salary']);
    });

    it('filters by the signed entry amount and by type', async () => {
      expect(await names('min_amount=100')).toEqual(['Card payment', 'Food', 'Market run']);
      expect(await names('max_amount=-200')).toEqual(['Payment received', 'Salary']);
      expect(await names('min_amount=5&max_amount=20.00')).toEqual(['100% off_deal', 'Power top-up']);
      expect(await names('min_amount=84.2&max_amount=84.2')).toEqual(['Electricity January']);
      expect(await names('type=income')).toEqual(['Payment received', 'Salary']);
      expect(await names('type=expense')).toHaveLength(6);
    });

    it('searches name, notes and merchant name, case-insensitively, with % and _ taken literally', async () => {
      expect(await names('search=MARKET')).toEqual(['Market run']);
      expect(await names('search=4411')).toEqual(['Electricity January']);
      expect(await names('search=city%20pow')).toEqual(['Electricity January']);
      expect(await names('search=%25')).toEqual(['100% off_deal']);
      expect(await names('search=f_d')).toEqual(['100% off_deal']);
      expect(await names('search=o_d')).toEqual([]);
    });

    it.each([
      ['account_id', 'account_id=nope'],
      ['account_ids[]', 'account_ids[]=nope'],
      ['category_id', 'category_id=1'],
      ['category_ids[]', `category_ids[]=${randomUUID()}&category_ids[]=x`],
      ['merchant_id', 'merchant_id=x'],
      ['merchant_ids[]', 'merchant_ids[]=x'],
      ['tag_ids[]', 'tag_ids[]=x'],
      ['start_date', 'start_date=2025-13-01'],
      ['start_date', 'start_date=20250101'],
      ['end_date', 'end_date=yesterday'],
      ['end_date', 'end_date=2025-02-30'],
      ['min_amount', 'min_amount=abc'],
      ['max_amount', 'max_amount=1e3'],
      ['type', 'type=transfer'],
      ['account_id', `account_id=${randomUUID()}&account_id=${randomUUID()}`],
      ['search', 'search=a&search=b'],
    ])('refuses a bad %s with 422 naming it', async (name, query) => {
      const res = await get(`/transactions?${query}`).expect(422);
      expect(res.body).toMatchObject({ error: 'validation_failed', message: expect.stringMatching(new RegExp(`^${name.replace(/[[\]]/g, '\\$&')} `)) });
    });

    it('answers the admin app session as it answers the key', async () => {
      const browser = await signIn(t.server, home.email);
      const bySession = await as(t.server, browser, 'get', '/api/v1/transactions?per_page=100').expect(200);
      expect(bySession.body.transactions).toEqual(all);
    });

    it('takes a read-scope key', async () => {
      const key = await t.app.get(ApiKeysService).create({ userId: home.userId, name: 'read only', scope: 'read' });
      expect((await get('/transactions', key.key).expect(200)).body.pagination.total_count).toBe(8);
      expect((await get(`/transactions/${all[0].id}`, key.key).expect(200)).body.id).toBe(all[0].id);
    });

    it('401 without credentials', async () => {
      const res = await request(t.server).get('/api/v1/transactions').expect(401);
      expect(res.body).toEqual({ error: 'unauthorized', message: 'Send an API key in the X-Api-Key header, or sign in.' });
      await request(t.server).get(`/api/v1/transactions/${all[0].id}`).expect(401);
    });

    it('formats amounts in the locale asked for', async () => {
      expect((await get(`/transactions/${byName('Salary').id}?locale=de`).expect(200)).body.amount).toBe('-1.500,00\u00a0$');
    });
  });

  describe('GET /transactions/{id}', () => {
    it('shows one transaction as the list does', async () => {
      for (const x of all) expect((await get(`/transactions/${x.id}`).expect(200)).body).toEqual(x);
    });

    it.each([
      ['a malformed id', 'not-a-uuid'],
      ['an unknown id', randomUUID()],
    ])('404 record_not_found for %s', async (_, id) => {
      expect((await get(`/transactions/${id}`).expect(404)).body).toEqual(NOT_FOUND);
    });

    it('404 for a trade or valuation entry', async () => {
      const others = await t.dataSource.query(`SELECT id, entryable_type AS type FROM entries WHERE family_id = $1 AND entryable_type <> 'Transaction'`, [home.familyId]);
      expect(new Set(others.map((o: { type: string }) => o.type))).toEqual(new Set(['Trade', 'Valuation']));
      for (const { id } of others) expect((await get(`/transactions/${id}`).expect(404)).body).toEqual(NOT_FOUND);
    });
  });

  it('answers as the OpenAPI document describes, nulls and transfers included', async () => {
    const doc: OpenApiDocument = (await request(t.server).get('/api/v1/openapi.json').expect(200)).body;
    const schema = (path: string) => doc.paths[path].get.responses['200'].content?.['application/json']?.schema;
    const list = await get('/transactions?per_page=100').expect(200);
    expect(schemaErrors(doc, schema('/api/v1/transactions'), list.body)).toEqual([]);
    const shown = await get(`/transactions/${byName('Card payment').id}`).expect(200);
    expect(schemaErrors(doc, schema('/api/v1/transactions/{id}'), shown.body)).toEqual([]);
  });

  describe('a CSV import', () => {
    it("reads back what it published, and keeps another family's transactions invisible", async () => {
      const other = await t.newHousehold();
      const published = await publishAndWait(t, other, {
        raw_file_content: 'Date,Amount,Description,Account,Category,Tags,Notes\n2024-03-01,-45.99,Grocer,Checking,Groceries,Food|Weekly,weekly shop',
      });
      expect(published.status).toBe('complete');
      const list = (await get('/transactions', other.apiKey).expect(200)).body;
      expect(list.pagination.total_count).toBe(1);
      const [grocer] = list.transactions;
      expect(grocer).toMatchObject({
        date: '2024-03-01', amount: '$45.99', amount_cents: 4599, signed_amount_cents: -4599, classification: 'expense', name: 'Grocer',
        notes: 'weekly shop', parent_id: null, merchant: null, transfer: null,
        account: { id: expect.any(String), name: 'Checking', account_type: 'depository' },
        category: expect.objectContaining({ name: 'Groceries' }),
        tags: [expect.objectContaining({ name: 'Food' }), expect.objectContaining({ name: 'Weekly' })],
      });

      // Theirs is 404 to us and absent from our list; ours is 404 to them; their ids in our filters match nothing.
      expect((await get(`/transactions/${grocer.id}`).expect(404)).body).toEqual(NOT_FOUND);
      expect((await get(`/transactions/${all[0].id}`, other.apiKey).expect(404)).body).toEqual(NOT_FOUND);
      expect(all.map((x) => x.id)).not.toContain(grocer.id);
      expect((await get('/transactions').expect(200)).body.pagination.total_count).toBe(8);
      for (const filter of [`account_id=${grocer.account.id}`, `category_id=${grocer.category.id}`, `tag_ids[]=${grocer.tags[0].id}`]) {
        expect(await names(filter)).toEqual([]);
      }
    });

    it('filters by import_id: the transactions that import made, none of another import or family', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      const csv = (rows: string) => ({ raw_file_content: `Date,Amount,Description\n${rows}`, date_col_label: 'Date', amount_col_label: 'Amount', name_col_label: 'Description', account_id: account });
      const first = await publishAndWait(t, h, csv('2024-04-01,-10.00,Bakery\n2024-04-02,-20.00,Butcher\n'));
      const second = await publishAndWait(t, h, csv('2024-05-01,-30.00,Grocer\n'));
      expect([first.status, second.status]).toEqual(['complete', 'complete']);
      await request(t.server).post('/api/v1/transactions').set('X-Api-Key', h.apiKey).send({ transaction: { account_id: account, date: '2024-04-03', amount: '5.00', name: 'By hand' } }).expect(201);
      expect(await names(`import_id=${first.id}`, h.apiKey)).toEqual(['Bakery', 'Butcher']);
      expect(await names(`import_id=${second.id}&start_date=2024-04-01`, h.apiKey)).toEqual(['Grocer']);
      expect((await get(`/transactions?import_id=${first.id}`, h.apiKey).expect(200)).body.pagination.total_count).toBe(2);
      // Another family's import matches nothing; a malformed id is refused by name.
      expect(await names(`import_id=${first.id}`)).toEqual([]);
      const bad = await get('/transactions?import_id=nope', h.apiKey).expect(422);
      expect(bad.body.errors).toEqual([expect.stringContaining('import_id')]);
    });

    it('lists a QIF split as its total and its parts, each part naming the total as parent_id', async () => {
      const h = await t.newHousehold();
      const qif = '!Type:Bank\nD03/05/2024\nT-100.00\nPCostco\nL--Split--\nSGroceries\n$-70.00\nSSupplies\n$-20.00\nSSupplies\n$-10.00\n^\n';
      expect((await publishAndWait(t, h, { type: 'QifImport', raw_file_content: qif, account_id: await newAccount(t, h) })).status).toBe('complete');
      const list: Txn[] = (await get('/transactions', h.apiKey).expect(200)).body.transactions;
      const parent = list.find((x) => x.parent_id === null)!;
      expect(parent).toMatchObject({ amount: '$100.00', classification: 'expense' });
      expect(list.filter((x) => x.parent_id === parent.id).map((x) => x.amount_cents).sort()).toEqual([1000, 2000, 7000]);
      expect(list).toHaveLength(4);
    });
  });
});
