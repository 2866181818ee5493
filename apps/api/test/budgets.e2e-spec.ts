import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { UsersService } from '../src/users/users.service';
import { startTestApp, TestApp, Household } from './support/test-app';
import { BudgetFixtures, seedHousehold, SeededHousehold } from './support/budgets';
import { publishAndWait } from './support/imports';

const NOT_FOUND = { error: 'record_not_found', message: 'The requested resource was not found' };
const NBSP = '\u00a0';

describe('Budgets API', () => {
  let t: TestApp;
  let fx: BudgetFixtures;
  let home: SeededHousehold;

  const get = (path: string, key: string) => request(t.server).get(`/api/v1${path}`).set('X-Api-Key', key);
  const patch = (path: string, key: string, body: object) =>
    request(t.server).patch(`/api/v1${path}`).set('X-Api-Key', key).send(body);
  const post = (path: string, key: string, body: object) =>
    request(t.server).post(`/api/v1${path}`).set('X-Api-Key', key).send(body);

  beforeAll(async () => {
    t = await startTestApp();
    fx = new BudgetFixtures(t);
    home = await seedHousehold(fx, await t.newHousehold());
  });
  afterAll(() => t.close());

  /** Sets a category limit through the API and returns the row. */
  async function setCategoryLimit(budgetId: string, categoryId: string, amount: string) {
    const list = await get(`/budget_categories?budget_id=${budgetId}&category_id=${categoryId}`, home.h.apiKey).expect(200);
    expect(list.body.budget_categories).toHaveLength(1);
    return (await patch(`/budget_categories/${list.body.budget_categories[0].id}`, home.h.apiKey, { budgeted_spending: amount }).expect(200)).body;
  }

  describe('the realistic January 2025 household', () => {
    let budgetId: string;

    beforeAll(async () => {
      const created = await post('/budgets', home.h.apiKey, { start_date: '2025-01-15' }).expect(201);
      budgetId = created.body.id;
      expect(created.body).toMatchObject({ start_date: '2025-01-01', end_date: '2025-01-31', initialized: false });
      await patch(`/budgets/${budgetId}`, home.h.apiKey, { budgeted_spending: '3000', expected_income: 5000 }).expect(200);
      // A subcategory limit first raises its parent by the same amount...
      const restaurants = await setCategoryLimit(budgetId, home.categories.restaurants, '200.00');
      expect(restaurants).toMatchObject({ subcategory: true, inherits_parent_budget: false, budgeted_spending: '$200.00' });
      const food = (await get(`/budget_categories?budget_id=${budgetId}&category_id=${home.categories.food}`, home.h.apiKey)).body;
      expect(food.budget_categories[0]).toMatchObject({ budgeted_spending: '$200.00', budgeted_spending_cents: 20000 });
      // ...and setting the parent directly leaves its subcategories alone.
      await setCategoryLimit(budgetId, home.categories.food, '700');
      await setCategoryLimit(budgetId, home.categories.housing, '1500');
      await setCategoryLimit(budgetId, home.categories.healthcare, '400');
      await setCategoryLimit(budgetId, home.categories.travel, '100');
    });

    it('answers every field of a budget, in order, with every amount and string', async () => {
      const res = await get(`/budgets/${budgetId}`, home.h.apiKey).expect(200);
      expect(Object.keys(res.body)).toEqual([
        'id', 'start_date', 'end_date', 'name', 'currency', 'initialized', 'current', 'created_at', 'updated_at',
        'budgeted_spending', 'expected_income', 'allocated_spending', 'actual_spending', 'actual_income',
        'available_to_spend', 'available_to_allocate',
        'budgeted_spending_cents', 'expected_income_cents', 'allocated_spending_cents', 'actual_spending_cents',
        'actual_income_cents', 'available_to_spend_cents', 'available_to_allocate_cents',
      ]);
      expect(res.body).toEqual({
        id: budgetId,
        start_date: '2025-01-01',
        end_date: '2025-01-31',
        name: 'January 2025',
        currency: 'USD',
        initialized: true,
        current: false,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        budgeted_spending: '$3,000.00',
        expected_income: '$5,000.00',
        // Food 700 + Housing 1,500 + Healthcare 400 + Travel 100; Restaurants' 200 is ring-fenced inside Food.
        allocated_spending: '$2,700.00',
        // Food 185 + Housing 1,500 + uncategorized 300 + loan 400 + Healthcare 300 + Travel 112.34
        actual_spending: '$2,797.34',
        // Income 5,000 + Food refund 30 + Healthcare refund 200 (gross)
        actual_income: '$5,230.00',
        available_to_spend: '$202.66',
        available_to_allocate: '$300.00',
        budgeted_spending_cents: 300000,
        expected_income_cents: 500000,
        allocated_spending_cents: 270000,
        actual_spending_cents: 279734,
        actual_income_cents: 523000,
        available_to_spend_cents: 20266,
        available_to_allocate_cents: 30000,
      });
    });

    it('leaves out, and reports, a foreign entry without a rate on its date rather than counting it 1:1', async () => {
      const res = await get(`/budgets/${budgetId}`, home.h.apiKey).expect(200);
      expect(res.headers['x-budget-unconverted-entries']).toBe('1');
    });

    it('gives every budget-category amount, ring-fencing limited subcategories inside their parent', async () => {
      const show = async (categoryId: string) => {
        const list = await get(`/budget_categories?budget_id=${budgetId}&category_id=${categoryId}`, home.h.apiKey);
        return (await get(`/budget_categories/${list.body.budget_categories[0].id}`, home.h.apiKey).expect(200)).body;
      };
      expect(await show(home.categories.food)).toMatchObject({
        subcategory: false,
        inherits_parent_budget: false,
        budgeted_spending: '$700.00',
        display_budgeted_spending: '$700.00',
        actual_spending: '$185.00',
        actual_spending_cents: 18500,
        // (700 - 200) - (185 - 125)
        available_to_spend: '$440.00',
        available_to_spend_cents: 44000,
        category: { id: home.categories.food, name: 'Food', parent_id: null, color: expect.any(String), lucide_icon: expect.any(String) },
      });
      expect(await show(home.categories.restaurants)).toMatchObject({
        subcategory: true,
        inherits_parent_budget: false,
        actual_spending: '$125.00',
        available_to_spend: '$75.00',
      });
      expect(await show(home.categories.groceries)).toMatchObject({
        subcategory: true,
        inherits_parent_budget: true,
        budgeted_spending: '$0.00',
        display_budgeted_spending: '$700.00',
        display_budgeted_spending_cents: 70000,
        actual_spending: '$90.00',
        available_to_spend: '$440.00',
      });
      expect(await show(home.categories.healthcare)).toMatchObject({ actual_spending: '$300.00', available_to_spend: '$100.00' });
      expect(await show(home.categories.travel)).toMatchObject({
        actual_spending: '$112.34',
        available_to_spend: '-$12.34',
        available_to_spend_cents: -1234,
      });
      // Money only ever came in through Income: it is not a spending row.
      expect((await get(`/budget_categories?budget_id=${budgetId}&category_id=${home.categories.income}`, home.h.apiKey)).body.budget_categories).toEqual([]);
    });

    it('formats in the requested locale: ?locale= first, then Accept-Language', async () => {
      const de = await get(`/budgets/${budgetId}?locale=de`, home.h.apiKey).set('Accept-Language', 'fr').expect(200);
      expect(de.body).toMatchObject({ name: 'Januar 2025', actual_spending: `2.797,34${NBSP}$`, actual_spending_cents: 279734 });
      const fr = await get(`/budgets/${budgetId}`, home.h.apiKey).set('Accept-Language', 'xx;q=1, fr-FR;q=0.8').expect(200);
      expect(fr.body.name).toBe('janvier 2025');
      expect(fr.body.available_to_allocate).toBe(`300,00${NBSP}$US`);
    });

    it('refuses a malformed locale with 422', async () => {
      const res = await get(`/budgets/${budgetId}?locale=${encodeURIComponent('not a tag!')}`, home.h.apiKey).expect(422);
      expect(res.body.error).toBe('validation_failed');
    });

    it('lets available amounts go negative', async () => {
      const res = await patch(`/budgets/${budgetId}`, home.h.apiKey, { budgeted_spending: '2500.00' }).expect(200);
      expect(res.body).toMatchObject({
        available_to_spend: '-$297.34',
        available_to_spend_cents: -29734,
        available_to_allocate: '-$200.00',
        available_to_allocate_cents: -20000,
      });
      await patch(`/budgets/${budgetId}`, home.h.apiKey, { budgeted_spending: '3000' }).expect(200);
    });

    it('follows new entries at once: no stale numbers', async () => {
      const entry = await fx.entry(home, { account: home.accounts.checking, date: '2025-01-20', amount: 1000, category: home.categories.housing });
      const after = await get(`/budgets/${budgetId}`, home.h.apiKey).expect(200);
      expect(after.body.actual_spending_cents).toBe(279734 + 100000);
      await t.dataSource.query(`DELETE FROM entries WHERE id = $1`, [entry]);
      expect((await get(`/budgets/${budgetId}`, home.h.apiKey)).body.actual_spending_cents).toBe(279734);
    });

    it('finds the same budget again for another date of the month, with rows for new categories', async () => {
      const [{ id: pets }] = await t.dataSource.query(`INSERT INTO categories (family_id, name) VALUES ($1, 'Pets') RETURNING id`, [
        home.h.familyId,
      ]);
      const again = await post('/budgets', home.h.apiKey, { start_date: '2025-01-31' }).expect(200);
      expect(again.body.id).toBe(budgetId);
      const rows = await get(`/budget_categories?budget_id=${budgetId}&category_id=${pets}`, home.h.apiKey).expect(200);
      expect(rows.body.budget_categories).toEqual([
        expect.objectContaining({ budgeted_spending: '$0.00', budgeted_spending_cents: 0, subcategory: false }),
      ]);
    });
  });

  describe('rows follow the categories', () => {
    const columns = { date_col_label: 'Date', amount_col_label: 'Amount', name_col_label: 'Description', category_col_label: 'Category', account_col_label: 'Account' };
    type Row = { id: string; subcategory: boolean; category: { name: string } };
    const rowsOf = async (h: Household, budgetId: string): Promise<Row[]> =>
      (await get(`/budget_categories?budget_id=${budgetId}`, h.apiKey).expect(200)).body.budget_categories;
    /** Each row's actual spending, in cents, by category name. */
    const actuals = async (h: Household, rows: Row[]) =>
      Object.fromEntries(
        await Promise.all(rows.map(async (row) => [row.category.name, (await get(`/budget_categories/${row.id}`, h.apiKey).expect(200)).body.actual_spending_cents])),
      );

    it('lists categories an import made after the budget, not income ones, and the rows add up to the spending', async () => {
      const h = await t.newHousehold();
      await fx.category(h.familyId, 'Rent');
      const budgetId = (await post('/budgets', h.apiKey, { start_date: '2025-03-01' }).expect(201)).body.id;
      // After the budget: an import brings Pets, Food with its subcategory Dining, and Salary (money in only).
      const csv = [
        'Date,Amount,Description,Category,Account',
        '2025-03-03,-40.00,Vet,Pets,Checking',
        '2025-03-04,-25.50,Cafe,Food: Dining,Checking',
        '2025-03-05,-12.25,Market,Food,Checking',
        '2025-03-06,-9.99,Kiosk,,Checking',
        '2025-03-07,2000.00,Employer,Salary,Checking',
        '2025-03-08,-700.00,Landlord,Rent,Checking',
      ].join('\n');
      expect((await publishAndWait(t, h, { raw_file_content: csv, ...columns })).status).toBe('complete');

      const rows = await rowsOf(h, budgetId);
      expect(rows.map((row) => [row.category.name, row.subcategory])).toEqual([['Dining', true], ['Food', false], ['Pets', false], ['Rent', false]]);
      expect(await actuals(h, rows)).toEqual({ Dining: 2550, Food: 3775, Pets: 4000, Rent: 70000 });
      // Top-level rows (a parent's actual includes its subcategories') and the uncategorized 9.99 make the total.
      const budget = (await get(`/budgets/${budgetId}`, h.apiKey).expect(200)).body;
      expect(budget.actual_spending_cents).toBe(3775 + 4000 + 70000 + 999);
      const { pagination } = (await get(`/budget_categories?budget_id=${budgetId}&per_page=1`, h.apiKey).expect(200)).body;
      expect(pagination.total_count).toBe(4);

      // A CategoryImport's category, with nothing spent yet, is a row too; Salary becomes one once something is planned for it.
      expect((await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: 'name,color,parent_category,lucide_icon\nGifts,,,' })).status).toBe('complete');
      await t.dataSource.query(
        `UPDATE budget_categories SET budgeted_spending_minor = 100 WHERE budget_id = $1 AND category_id = (SELECT id FROM categories WHERE family_id = $2 AND name = 'Salary')`,
        [budgetId, h.familyId],
      );
      expect((await rowsOf(h, budgetId)).map((row) => row.category.name)).toEqual(['Dining', 'Food', 'Gifts', 'Pets', 'Rent', 'Salary']);
    });

    it('adds the rows once when reads come at once', async () => {
      const h = await t.newHousehold();
      const budgetIds = await Promise.all(['2025-04-01', '2025-05-01'].map(async (date) => (await post('/budgets', h.apiKey, { start_date: date }).expect(201)).body.id));
      await t.dataSource.query(`INSERT INTO categories (family_id, name) SELECT $1, 'Category ' || g FROM generate_series(1, 30) g`, [h.familyId]);
      const reads = await Promise.all([...budgetIds, ...budgetIds].map((id) => get(`/budget_categories?budget_id=${id}`, h.apiKey)));
      expect(reads.map((res) => [res.status, res.body.budget_categories.length])).toEqual(Array(4).fill([200, 25]));
      const [{ rows, pairs }] = await t.dataSource.query(
        `SELECT count(*)::int AS rows, count(DISTINCT (budget_id, category_id))::int AS pairs FROM budget_categories WHERE budget_id = ANY($1::uuid[])`,
        [budgetIds],
      );
      expect({ rows, pairs }).toEqual({ rows: 60, pairs: 60 });
    });
  });

  describe('GET /budgets/{id} errors', () => {
    let budgetId: string;
    beforeAll(async () => {
      budgetId = (await post('/budgets', home.h.apiKey, { start_date: '2025-02-03' }).expect(201)).body.id;
    });

    it('401 without credentials', async () => {
      // The route takes a key or the admin app's session: the message names both.
      const res = await request(t.server).get(`/api/v1/budgets/${budgetId}`).expect(401);
      expect(res.body).toEqual({ error: 'unauthorized', message: 'Send an API key in the X-Api-Key header, or sign in.' });
    });

    it('401 with an unknown key', async () => {
      const res = await get(`/budgets/${budgetId}`, `hth_abcdefgh_${'A'.repeat(43)}`).expect(401);
      expect(res.body).toEqual({ error: 'unauthorized', message: 'Access token or API key is invalid, expired, or missing' });
    });

    it('403 insufficient_scope when a read key writes, and nothing changes', async () => {
      const key = await t.app.get(ApiKeysService).create({ userId: home.h.userId, name: 'read only', scope: 'read' });
      expect((await get(`/budgets/${budgetId}`, key.key).expect(200)).body.id).toBe(budgetId);
      const res = await patch(`/budgets/${budgetId}`, key.key, { budgeted_spending: '1' }).expect(403);
      expect(res.body).toEqual({ error: 'insufficient_scope', message: "This action requires the 'write' scope" });
      await post('/budgets', key.key, { start_date: '2025-03-01' }).expect(403);
      expect((await get(`/budgets/${budgetId}`, home.h.apiKey)).body.budgeted_spending).toBeNull();
    });

    it.each([
      ['a malformed id', 'not-a-uuid'],
      ['an unknown id', randomUUID()],
    ])('404 record_not_found for %s', async (_, id) => {
      expect((await get(`/budgets/${id}`, home.h.apiKey).expect(404)).body).toEqual(NOT_FOUND);
    });

    it("404 for another family's budget and budget categories, which stay unchanged", async () => {
      const other = await t.newHousehold();
      expect((await get(`/budgets/${budgetId}`, other.apiKey).expect(404)).body).toEqual(NOT_FOUND);
      expect((await patch(`/budgets/${budgetId}`, other.apiKey, { budgeted_spending: '9' }).expect(404)).body).toEqual(NOT_FOUND);
      const rows = (await get(`/budget_categories?budget_id=${budgetId}`, home.h.apiKey)).body.budget_categories;
      expect((await get(`/budget_categories/${rows[0].id}`, other.apiKey).expect(404)).body).toEqual(NOT_FOUND);
      await patch(`/budget_categories/${rows[0].id}`, other.apiKey, { budgeted_spending: '9' }).expect(404);
      expect((await get(`/budget_categories?budget_id=${budgetId}`, other.apiKey)).body.budget_categories).toEqual([]);
      expect((await get('/budgets', other.apiKey)).body.budgets).toEqual([]);
      expect((await get(`/budgets/${budgetId}`, home.h.apiKey)).body.budgeted_spending).toBeNull();
    });

    it("404 for another member's personal budget, visible to its owner", async () => {
      const { user } = await t.app.get(UsersService).create({
        email: `member-${randomUUID()}@example.com`,
        password: 'correct horse battery',
        role: 'member',
        familyId: home.h.familyId,
      });
      const memberKey = await t.app.get(ApiKeysService).create({ userId: user.id, name: 'member', scope: 'read' });
      const [{ id: personal }] = await t.dataSource.query(
        `INSERT INTO budgets (family_id, user_id, start_date, end_date, currency) VALUES ($1, $2, '2025-01-01', '2025-01-31', 'USD') RETURNING id`,
        [home.h.familyId, user.id],
      );
      expect((await get(`/budgets/${personal}`, memberKey.key).expect(200)).body.actual_spending).toBe('$0.00');
      expect((await get(`/budgets/${personal}`, home.h.apiKey).expect(404)).body).toEqual(NOT_FOUND);
    });
  });

  describe('writes', () => {
    it.each([
      [{ budgeted_spending: '-5' }, 'budgeted_spending must be a decimal amount of at least 0 in USD, written without grouping such as 1000.50 (got "-5")'],
      [{ budgeted_spending: '12,50' }, 'budgeted_spending must be a decimal amount of at least 0 in USD, written without grouping such as 1000.50 (got "12,50")'],
      [{ budgeted_spending: '1,000' }, 'budgeted_spending must be a decimal amount of at least 0 in USD, written without grouping such as 1000.50 (got "1,000")'],
      [{ expected_income: true }, 'expected_income must be a decimal amount of at least 0 in USD, written without grouping such as 1000.50'],
      // Refused as imports refuse such amounts: rounding would store something else than what was sent.
      [{ budgeted_spending: '12.345' }, 'budgeted_spending has more decimals than USD stores: USD amounts have 2 decimals (got 12.345)'],
      [{ expected_income: 10.005 }, 'expected_income has more decimals than USD stores: USD amounts have 2 decimals (got 10.005)'],
      [{ budgeted_spending: '90071992547409.92' }, 'budgeted_spending must be at most 90071992547409.91'],
    ])('PATCH /budgets refuses %p with 422 and changes nothing', async (body, message) => {
      const id = (await post('/budgets', home.h.apiKey, { start_date: '2025-04-01' })).body.id;
      const res = await patch(`/budgets/${id}`, home.h.apiKey, body).expect(422);
      expect(res.body).toEqual({ error: 'validation_failed', message, errors: [message] });
      expect((await get(`/budgets/${id}`, home.h.apiKey)).body).toMatchObject({ budgeted_spending: null, expected_income: null });
    });

    it('takes trailing zeros beyond the currency digits and un-initializes with null', async () => {
      const id = (await post('/budgets', home.h.apiKey, { start_date: '2025-05-01' })).body.id;
      const set = await patch(`/budgets/${id}`, home.h.apiKey, { budgeted_spending: '10.0100', expected_income: null }).expect(200);
      expect(set.body).toMatchObject({ budgeted_spending: '$10.01', budgeted_spending_cents: 1001, initialized: true, expected_income: null });
      const unset = await patch(`/budgets/${id}`, home.h.apiKey, { budgeted_spending: null }).expect(200);
      expect(unset.body).toMatchObject({ initialized: false, budgeted_spending: null, budgeted_spending_cents: null, available_to_spend: '$0.00' });
    });

    it.each([
      [{ start_date: '01/15/2025' }, 'validation_failed', 'start_date must be an ISO 8601 date'],
      [{ start_date: '2025-02-30' }, 'validation_failed', 'start_date must be an ISO 8601 date'],
      [{}, 'validation_failed', 'start_date is required'],
    ])('POST /budgets refuses %p', async (body, error, message) => {
      const res = await post('/budgets', home.h.apiKey, body).expect(422);
      expect(res.body).toMatchObject({ error, message });
    });

    it('POST /budgets refuses months beyond two years ahead and before the window', async () => {
      const far = await post('/budgets', home.h.apiKey, { start_date: '2999-01-01' }).expect(422);
      expect(far.body.error).toBe('budget_out_of_range');
      const old = await post('/budgets', home.h.apiKey, { start_date: '1999-01-01' }).expect(422);
      expect(old.body.error).toBe('budget_out_of_range');
    });

    it('POST /budgets uses the family month start day and marks the current budget', async () => {
      const h = await t.newHousehold();
      await t.dataSource.query(`UPDATE families SET month_start_day = 15, timezone = 'Asia/Tokyo' WHERE id = $1`, [h.familyId]);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
      const res = await post('/budgets', h.apiKey, { start_date: today }).expect(201);
      expect(res.body.start_date.slice(8)).toBe('15');
      expect(res.body.name).toMatch(/^[A-Z][a-z]{2} 15 - [A-Z][a-z]+ 14, \d{4}$/);
      expect(res.body.current).toBe(true);
    });

    it('keeps concurrent find-or-create calls to one budget', async () => {
      const h = await t.newHousehold();
      const results = await Promise.all([1, 2, 3].map(() => post('/budgets', h.apiKey, { start_date: '2025-06-10' })));
      expect(new Set(results.map((res) => res.body.id)).size).toBe(1);
      expect(results.map((res) => res.status).sort()).toEqual([200, 200, 201]);
    });

    it('moves the parent with each subcategory limit and keeps its reserve', async () => {
      const id = (await post('/budgets', home.h.apiKey, { start_date: '2025-07-01' })).body.id;
      await setCategoryLimit(id, home.categories.food, '1000');
      await setCategoryLimit(id, home.categories.restaurants, '300');
      const food = async () =>
        (await get(`/budget_categories?budget_id=${id}&category_id=${home.categories.food}`, home.h.apiKey)).body.budget_categories[0];
      expect((await food()).budgeted_spending).toBe('$1,300.00');
      await setCategoryLimit(id, home.categories.groceries, '200');
      expect((await food()).budgeted_spending).toBe('$1,500.00');
      await setCategoryLimit(id, home.categories.groceries, '0');
      expect(await food()).toMatchObject({ budgeted_spending: '$1,300.00', budgeted_spending_cents: 130000 });
      const budget = await get(`/budgets/${id}`, home.h.apiKey);
      expect(budget.body.allocated_spending).toBe('$1,300.00');
    });

    it('PATCH /budget_categories refuses a negative limit, grouping and more decimals than the currency has, changing nothing', async () => {
      const id = (await post('/budgets', home.h.apiKey, { start_date: '2025-07-01' })).body.id;
      const row = (await get(`/budget_categories?budget_id=${id}`, home.h.apiKey)).body.budget_categories[0];
      for (const [amount, message] of [
        ['-1', 'budgeted_spending must be a decimal amount of at least 0 in USD, written without grouping such as 1000.50 (got "-1")'],
        ['1,000', 'budgeted_spending must be a decimal amount of at least 0 in USD, written without grouping such as 1000.50 (got "1,000")'],
        ['12.345', 'budgeted_spending has more decimals than USD stores: USD amounts have 2 decimals (got 12.345)'],
      ]) {
        const res = await patch(`/budget_categories/${row.id}`, home.h.apiKey, { budgeted_spending: amount });
        expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: { error: 'validation_failed', message, errors: [message] } });
      }
      expect((await get(`/budget_categories/${row.id}`, home.h.apiKey)).body.budgeted_spending_cents).toBe(row.budgeted_spending_cents);
    });

    it('PATCH /budget_categories refuses limits that together exceed the largest amount, and the budget stays readable', async () => {
      const h = await t.newHousehold();
      const [rent, food] = [await fx.category(h.familyId, 'Rent'), await fx.category(h.familyId, 'Food')];
      const id = (await post('/budgets', h.apiKey, { start_date: '2025-08-01' }).expect(201)).body.id;
      const rowOf = async (categoryId: string) =>
        (await get(`/budget_categories?budget_id=${id}&category_id=${categoryId}`, h.apiKey)).body.budget_categories[0].id;
      await patch(`/budget_categories/${await rowOf(rent)}`, h.apiKey, { budgeted_spending: '90071992547409.91' }).expect(200);
      const res = await patch(`/budget_categories/${await rowOf(food)}`, h.apiKey, { budgeted_spending: '0.01' }).expect(422);
      const message = "budgeted_spending would raise the budget's allocated spending above 90071992547409.91";
      expect(res.body).toEqual({ error: 'validation_failed', message, errors: [message] });
      expect((await get(`/budgets/${id}`, h.apiKey).expect(200)).body.allocated_spending_cents).toBe(9007199254740991);
      expect((await get('/budgets', h.apiKey).expect(200)).body.budgets[0].allocated_spending_cents).toBe(9007199254740991);
    });

    it('answers 422 naming the amount when actual spending is beyond what _cents integers carry exactly', async () => {
      const big = await seedHousehold(fx, await t.newHousehold(), { minimal: true });
      for (let i = 0; i < 10; i++) {
        await fx.entry(big, { account: big.accounts.checking, date: '2025-09-04', amount: 9999999999999.99, category: big.categories.food });
      }
      const message =
        'actual_spending ($99,999,999,999,999.90) is beyond the largest amount the _cents fields carry exactly ($90,071,992,547,409.91)';
      // The budget is made, and listed; it is its amounts that cannot be shown.
      expect((await post('/budgets', big.h.apiKey, { start_date: '2025-09-01' }).expect(422)).body).toEqual({ error: 'amount_out_of_range', message });
      const id = (await get('/budgets', big.h.apiKey).expect(200)).body.budgets[0].id;
      expect((await get(`/budgets/${id}`, big.h.apiKey).expect(422)).body).toEqual({ error: 'amount_out_of_range', message });
      const rows = await get(`/budget_categories?budget_id=${id}&category_id=${big.categories.food}`, big.h.apiKey).expect(200);
      const row = await get(`/budget_categories/${rows.body.budget_categories[0].id}`, big.h.apiKey).expect(422);
      expect(row.body.message).toBe(message);
    });
  });

  describe('lists', () => {
    let h: Household;
    beforeAll(async () => {
      h = await t.newHousehold();
      await t.dataSource.query(`INSERT INTO categories (family_id, name) VALUES ($1, 'Zoo'), ($1, 'Art')`, [h.familyId]);
      for (const date of ['2025-01-05', '2025-02-05', '2025-03-05']) await post('/budgets', h.apiKey, { start_date: date }).expect(201);
    });

    it('lists budgets newest first in the summary shape, with pagination', async () => {
      const res = await get('/budgets?per_page=2', h.apiKey).expect(200);
      expect(res.body.pagination).toEqual({ page: 1, per_page: 2, total_count: 3, total_pages: 2 });
      expect(res.body.budgets.map((b: { start_date: string }) => b.start_date)).toEqual(['2025-03-01', '2025-02-01']);
      expect(Object.keys(res.body.budgets[0])).toEqual([
        'id', 'start_date', 'end_date', 'name', 'currency', 'initialized', 'current', 'created_at', 'updated_at',
        'budgeted_spending', 'expected_income', 'allocated_spending',
        'budgeted_spending_cents', 'expected_income_cents', 'allocated_spending_cents',
      ]);
      expect(res.body.budgets[0]).toMatchObject({ name: 'March 2025', allocated_spending: '$0.00', budgeted_spending: null });
    });

    it('shows the last page for a page past the end, and lenient page sizes', async () => {
      const res = await get('/budgets?per_page=2&page=9', h.apiKey).expect(200);
      expect(res.body.pagination).toEqual({ page: 2, per_page: 2, total_count: 3, total_pages: 2 });
      expect(res.body.budgets).toHaveLength(1);
      expect((await get('/budgets?per_page=500&page=0', h.apiKey)).body.pagination).toMatchObject({ page: 1, per_page: 100 });
      expect((await get('/budgets?per_page=abc', h.apiKey)).body.pagination.per_page).toBe(25);
    });

    it('filters by ISO 8601 dates, in both forms', async () => {
      const res = await get('/budgets?start_date=2025-02-01&end_date=20250228', h.apiKey).expect(200);
      expect(res.body.budgets.map((b: { name: string }) => b.name)).toEqual(['February 2025']);
    });

    it.each(['start_date', 'end_date'])('refuses a bad %s with the exact 422 body', async (param) => {
      const res = await get(`/budgets?${param}=03/01/2024`, h.apiKey).expect(422);
      const message = `${param} must be an ISO 8601 date`;
      expect(res.body).toEqual({ error: 'validation_failed', message, errors: [message] });
    });

    it('lists budget categories by newest budget, then category name', async () => {
      const res = await get('/budget_categories?per_page=3', h.apiKey).expect(200);
      expect(res.body.pagination).toEqual({ page: 1, per_page: 3, total_count: 6, total_pages: 2 });
      expect(res.body.budget_categories.map((row: { category: { name: string } }) => row.category.name)).toEqual(['Art', 'Zoo', 'Art']);
      expect(res.body.budget_categories[0]).not.toHaveProperty('actual_spending');
    });

    it.each(['budget_id', 'category_id'])('refuses a malformed %s filter with 422', async (param) => {
      const res = await get(`/budget_categories?${param}=nope`, h.apiKey).expect(422);
      const message = `${param} must be a valid UUID`;
      expect(res.body).toEqual({ error: 'validation_failed', message, errors: [message] });
    });
  });

  describe('other currencies', () => {
    it('counts JPY in whole yen, converting a USD entry at the rate of its date', async () => {
      const jp = await seedHousehold(fx, await t.newHousehold({ currency: 'JPY' }), { minimal: true });
      await fx.rate('USD', 'JPY', '2025-03-05', '155.5');
      await fx.entry(jp, { account: jp.accounts.checking, date: '2025-03-04', amount: 1234.5, category: jp.categories.food });
      await fx.entry(jp, { account: jp.accounts.usd, date: '2025-03-05', amount: 10.01, category: jp.categories.food });
      const id = (await post('/budgets', jp.h.apiKey, { start_date: '2025-03-01' }).expect(201)).body.id;
      const res = await get(`/budgets/${id}`, jp.h.apiKey).expect(200);
      // ¥1,235 (1,234.5 rounds half away from zero when stored) + $10.01 × 155.5 = ¥1,556.555 -> ¥1,557
      expect(res.body).toMatchObject({ currency: 'JPY', actual_spending: '¥2,792', actual_spending_cents: 2792 });
      expect(res.headers['x-budget-unconverted-entries']).toBeUndefined();
    });

    it('counts KWD in fils', async () => {
      const kw = await seedHousehold(fx, await t.newHousehold({ currency: 'KWD' }), { minimal: true });
      await fx.entry(kw, { account: kw.accounts.checking, date: '2025-03-04', amount: 1.2345, category: kw.categories.food });
      const id = (await post('/budgets', kw.h.apiKey, { start_date: '2025-03-01' }).expect(201)).body.id;
      const res = await get(`/budgets/${id}`, kw.h.apiKey).expect(200);
      expect(res.body).toMatchObject({ actual_spending: `KWD${NBSP}1.235`, actual_spending_cents: 1235 });
    });
  });
});
