import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { UsersService } from '../src/users/users.service';
import { BudgetFixtures } from './support/budgets';
import { as, signIn } from './support/sessions';
import { Household, startTestApp, TestApp } from './support/test-app';

const NOT_FOUND = { error: 'record_not_found', message: 'The requested resource was not found' };
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

interface Category {
  id: string;
  name: string;
  color: string;
  icon: string;
  classification: string;
  parent: { id: string; name: string } | null;
  subcategories_count: number;
  transactions_count: number;
  subcategories?: Category[];
}

describe('Categories API', () => {
  let t: TestApp;
  let fx: BudgetFixtures;
  let home: Household;
  let readKey: string;

  const get = (path: string, key = home.apiKey) => request(t.server).get(`/api/v1${path}`).set('X-Api-Key', key);
  const post = (body: object, key = home.apiKey) => request(t.server).post('/api/v1/categories').set('X-Api-Key', key).send(body);
  const patch = (id: string, body: object, key = home.apiKey) => request(t.server).patch(`/api/v1/categories/${id}`).set('X-Api-Key', key).send(body);
  const del = (id: string, query = '', key = home.apiKey) => request(t.server).delete(`/api/v1/categories/${id}${query}`).set('X-Api-Key', key);
  const create = async (body: object, key = home.apiKey): Promise<Category> => (await post(body, key).expect(201)).body;
  const snapshot = async (familyId = home.familyId) =>
    t.dataSource.query(`SELECT id, name, color, lucide_icon, classification, parent_id, updated_at FROM categories WHERE family_id = $1 ORDER BY name`, [familyId]);

  beforeAll(async () => {
    t = await startTestApp();
    fx = new BudgetFixtures(t);
    home = await t.newHousehold();
    readKey = (await t.app.get(ApiKeysService).create({ userId: home.userId, name: 'read only', scope: 'read' })).key;
  });
  afterAll(() => t.close());

  describe('create, read, change', () => {
    let food: Category;

    beforeAll(async () => {
      food = await create({ name: '  Food ', color: '#f97316', icon: 'utensils' });
    });

    it('creates a category in the Category shape, name trimmed, defaults filled', async () => {
      expect(Object.keys(food)).toEqual(['id', 'name', 'color', 'icon', 'classification', 'parent', 'subcategories_count', 'transactions_count', 'created_at', 'updated_at']);
      expect(food).toEqual({
        id: expect.any(String), name: 'Food', color: '#f97316', icon: 'utensils', classification: 'expense', parent: null,
        subcategories_count: 0, transactions_count: 0, created_at: ISO, updated_at: ISO,
      });
      expect((await get(`/categories/${food.id}`).expect(200)).body).toEqual(food);
      const salary = await create({ name: 'Salary', classification: 'income' });
      expect(salary).toMatchObject({ color: '#6172F3', icon: 'shapes', classification: 'income' });
    });

    it("nests a subcategory one level under a parent, in the parent's colour", async () => {
      const groceries = await create({ name: 'Groceries', parent_id: food.id, icon: 'shopping-cart' });
      expect(groceries).toMatchObject({ color: '#f97316', parent: { id: food.id, name: 'Food' } });
      expect((await get(`/categories/${food.id}`)).body.subcategories_count).toBe(1);
    });

    it.each([
      [{ name: '' }, 'name must be 1 to 200 characters'],
      [{ name: '   ' }, 'name must be 1 to 200 characters'],
      [{ name: 'x'.repeat(201) }, 'name must be 1 to 200 characters'],
      [{}, 'name must be a string'],
      [{ name: 'Food' }, 'name is already used by another category of this household: Food'],
      [{ name: 'Cafés', color: 'orange' }, 'color must be a hex colour such as #4da568'],
      [{ name: 'Cafés', color: null }, 'color must be a hex colour such as #4da568'],
      [{ name: 'Cafés', icon: 'Shopping Cart' }, 'icon must be a Lucide icon name such as shopping-cart'],
      [{ name: 'Cafés', classification: 'transfer' }, 'classification must be expense or income'],
      [{ name: 'Cafés', parent_id: 'nope' }, 'parent_id must be a valid UUID'],
      [{ name: 'Cafés', parent_id: randomUUID() }, 'parent_id is not a category of this household'],
    ])('422 naming the field for %j, and nothing is stored', async (body, message) => {
      const before = await snapshot();
      const res = await post(body).expect(422);
      expect(res.body).toMatchObject({ error: 'validation_failed', errors: expect.arrayContaining([message]) });
      expect(await snapshot()).toEqual(before);
    });

    it('422 for a second level of nesting and for a colour given to a subcategory', async () => {
      const groceries = (await get(`/categories?parent_id=${food.id}`)).body.categories[0];
      expect((await post({ name: 'Organic', parent_id: groceries.id }).expect(422)).body.message).toBe('parent_id must be a top-level category: categories nest one level deep');
      expect((await post({ name: 'Bakery', parent_id: food.id, color: '#000000' }).expect(422)).body.message).toBe("color cannot be given to a subcategory: it takes its parent's colour");
    });

    it('lists categories as Sure does (by name, paged, roots_only, parent_id) and as a tree with counts', async () => {
      const all = (await get('/categories').expect(200)).body;
      expect(all.categories.map((c: Category) => c.name)).toEqual(['Food', 'Groceries', 'Salary']);
      expect(all.pagination).toEqual({ page: 1, per_page: 25, total_count: 3, total_pages: 1 });
      expect((await get('/categories?roots_only=true')).body.categories.map((c: Category) => c.name)).toEqual(['Food', 'Salary']);
      expect((await get(`/categories?parent_id=${food.id}`)).body.categories.map((c: Category) => c.name)).toEqual(['Groceries']);
      expect((await get('/categories?per_page=1&page=2')).body).toMatchObject({ categories: [{ name: 'Groceries' }], pagination: { total_pages: 3 } });
      expect((await get('/categories?roots_only=maybe').expect(422)).body.message).toBe('roots_only must be true or false');
      expect((await get('/categories?sort=name').expect(422)).body.message).toMatch(/^unknown query parameter sort/);

      const account = await fx.account(home.familyId, { name: 'Checking', currency: 'USD' });
      const groceries = all.categories[1];
      await fx.entry({ h: home }, { account, date: '2025-01-05', amount: 12, category: groceries.id });
      await fx.entry({ h: home }, { account, date: '2025-01-06', amount: 8, category: groceries.id });
      const tree = (await get('/categories/tree').expect(200)).body.categories as Category[];
      expect(tree.map((c) => [c.name, c.transactions_count, (c.subcategories ?? []).map((s) => [s.name, s.transactions_count])])).toEqual([
        ['Food', 0, [['Groceries', 2]]],
        ['Salary', 0, []],
      ]);
    });

    it('renames, recolours (the subcategories follow), changes the icon and the classification', async () => {
      const res = await patch(food.id, { name: 'Food & Drink', color: '#407706', icon: 'apple', classification: 'expense' }).expect(200);
      expect(res.body).toMatchObject({ id: food.id, name: 'Food & Drink', color: '#407706', icon: 'apple' });
      const groceries = (await get(`/categories?parent_id=${food.id}`)).body.categories[0];
      expect(groceries.color).toBe('#407706');
      expect((await patch(food.id, { name: 'Salary' }).expect(422)).body.message).toBe('name is already used by another category of this household: Salary');
      expect((await patch(groceries.id, { color: '#000000' }).expect(422)).body.message).toBe("color cannot be given to a subcategory: it takes its parent's colour");
      expect((await patch(food.id, { name: null }).expect(422)).body.errors).toContain('name must be a string');
    });

    it('moves a category under another and back to the top level; refuses a second level and cycles', async () => {
      const transport = await create({ name: 'Transport', color: '#0ea5e9' });
      const groceries = (await get(`/categories?parent_id=${food.id}`)).body.categories[0];
      const moved = (await patch(groceries.id, { parent_id: transport.id }).expect(200)).body;
      expect(moved).toMatchObject({ parent: { id: transport.id, name: 'Transport' }, color: '#0ea5e9' });
      // Food has no subcategory now, so it may nest; Transport, a parent, may not.
      const before = await snapshot();
      expect((await patch(transport.id, { parent_id: food.id }).expect(422)).body.message).toBe(
        'parent_id cannot be given to a category that has subcategories: categories nest one level deep',
      );
      expect((await patch(transport.id, { parent_id: groceries.id }).expect(422)).body.message).toBe('parent_id must be a top-level category: categories nest one level deep');
      expect((await patch(food.id, { parent_id: food.id }).expect(422)).body.message).toBe('parent_id cannot be the category itself');
      expect(await snapshot()).toEqual(before);
      expect((await patch(groceries.id, { parent_id: null }).expect(200)).body).toMatchObject({ parent: null, color: '#0ea5e9' });
      expect((await get(`/categories/${transport.id}`)).body.subcategories_count).toBe(0);
    });
  });

  describe('scopes and roles', () => {
    it('a read key reads but cannot write; nothing changes', async () => {
      const any = (await get('/categories')).body.categories[0] as Category;
      expect((await get('/categories', readKey).expect(200)).body.categories.length).toBeGreaterThan(0);
      expect((await get('/categories/tree', readKey).expect(200)).body.categories.length).toBeGreaterThan(0);
      const before = await snapshot();
      const refused = { error: 'insufficient_scope', message: "This action requires the 'write' scope" };
      expect((await post({ name: 'Read only' }, readKey).expect(403)).body).toEqual(refused);
      expect((await patch(any.id, { name: 'Read only' }, readKey).expect(403)).body).toEqual(refused);
      expect((await del(any.id, '', readKey).expect(403)).body).toEqual(refused);
      expect(await snapshot()).toEqual(before);
    });

    it("a member's session manages categories (any member may, as in Sure)", async () => {
      const { user } = await t.app.get(UsersService).create({ email: `member-${randomUUID()}@example.com`, password: 'correct horse battery', role: 'member', familyId: home.familyId });
      const browser = await signIn(t.server, user.email);
      const made = await as(t.server, browser, 'post', '/api/v1/categories').send({ name: 'Pets' }).expect(201);
      await as(t.server, browser, 'patch', `/api/v1/categories/${made.body.id}`).send({ icon: 'dog' }).expect(200);
      await as(t.server, browser, 'delete', `/api/v1/categories/${made.body.id}`).expect(200);
    });
  });

  describe('family isolation', () => {
    it("answers 404 for another family's category and refuses it as parent or replacement, changing nothing", async () => {
      const other = await t.newHousehold();
      const mine = (await get('/categories')).body.categories[0] as Category;
      const theirs = await create({ name: 'Theirs' }, other.apiKey);
      const before = [await snapshot(), await snapshot(other.familyId)];
      expect((await get(`/categories/${mine.id}`, other.apiKey).expect(404)).body).toEqual(NOT_FOUND);
      expect((await patch(mine.id, { name: 'Stolen' }, other.apiKey).expect(404)).body).toEqual(NOT_FOUND);
      expect((await del(mine.id, '', other.apiKey).expect(404)).body).toEqual(NOT_FOUND);
      expect((await del(mine.id, `?replacement_id=${theirs.id}`, other.apiKey).expect(404)).body).toEqual(NOT_FOUND);
      // Another family's id as a parent or a replacement reads like an unknown one.
      expect((await post({ name: 'Nested', parent_id: mine.id }, other.apiKey).expect(422)).body.message).toBe('parent_id is not a category of this household');
      expect((await patch(theirs.id, { parent_id: mine.id }, other.apiKey).expect(422)).body.message).toBe('parent_id is not a category of this household');
      expect((await del(theirs.id, `?replacement_id=${mine.id}`, other.apiKey).expect(422)).body.message).toBe('replacement_id is not a category of this household');
      expect((await del(mine.id, `?replacement_id=${theirs.id}`).expect(422)).body.message).toBe('replacement_id is not a category of this household');
      expect(JSON.stringify((await get('/categories', other.apiKey)).body)).not.toContain(mine.id);
      expect(JSON.stringify((await get('/categories/tree', other.apiKey)).body)).not.toContain(mine.id);
      expect([await snapshot(), await snapshot(other.familyId)]).toEqual(before);
    });
  });

  describe('delete and merge keep the ledger consistent', () => {
    let h: Household;
    let budgetId: string;
    const ids: Record<string, string> = {};
    const key = () => h.apiKey;
    const budget = async () => (await get(`/budgets/${budgetId}`, key()).expect(200)).body;
    /** Category name -> stored limit (cents) of the budget's rows. */
    const limits = async () => {
      const rows = (await get(`/budget_categories?budget_id=${budgetId}&per_page=100`, key()).expect(200)).body.budget_categories;
      return Object.fromEntries(rows.map((r: { category: { name: string }; budgeted_spending_cents: number }) => [r.category.name, r.budgeted_spending_cents]));
    };
    const categoryOf = async (entryId: string) => (await get(`/transactions/${entryId}`, key()).expect(200)).body.category?.name ?? null;
    const setLimit = async (name: string, amount: string) => {
      const [row] = (await get(`/budget_categories?budget_id=${budgetId}&category_id=${ids[name]}`, key())).body.budget_categories;
      await request(t.server).patch(`/api/v1/budget_categories/${row.id}`).set('X-Api-Key', key()).send({ budgeted_spending: amount }).expect(200);
    };
    const entries: Record<string, string> = {};

    beforeAll(async () => {
      h = await t.newHousehold();
      const post2 = (body: object) => post(body, key()).expect(201).then((r) => r.body.id as string);
      ids.Food = await post2({ name: 'Food', color: '#f97316' });
      ids.Restaurants = await post2({ name: 'Restaurants', parent_id: ids.Food });
      ids.Groceries = await post2({ name: 'Groceries', parent_id: ids.Food });
      ids['Dining Out'] = await post2({ name: 'Dining Out' });
      ids.Misc = await post2({ name: 'Misc' });
      ids['Misc sub'] = await post2({ name: 'Misc sub', parent_id: ids.Misc });
      const account = await fx.account(h.familyId, { name: 'Checking', currency: 'USD' });
      const spend = (category: string, amount: number) => fx.entry({ h }, { account, date: '2025-01-10', amount, category: ids[category] });
      entries.restaurant = await spend('Restaurants', 120);
      entries.groceries = await spend('Groceries', 80);
      entries.dining = await spend('Dining Out', 50);
      entries.food = await spend('Food', 10);
      entries.misc = await spend('Misc', 5);
      budgetId = (await request(t.server).post('/api/v1/budgets').set('X-Api-Key', key()).send({ start_date: '2025-01-01' }).expect(201)).body.id;
      await request(t.server).patch(`/api/v1/budgets/${budgetId}`).set('X-Api-Key', key()).send({ budgeted_spending: '1000' }).expect(200);
      await setLimit('Restaurants', '200');
      await setLimit('Food', '700');
      await setLimit('Dining Out', '100');
      await setLimit('Misc', '30');
    });

    it('starts from the figures the budget math gives', async () => {
      expect(await budget()).toMatchObject({ allocated_spending_cents: 83000, actual_spending_cents: 26500 });
      expect(await limits()).toMatchObject({ Food: 70000, Restaurants: 20000, Groceries: 0, 'Dining Out': 10000, Misc: 3000 });
    });

    it('422 before any change for a replacement that is the category itself, malformed, or a misspelt parameter', async () => {
      const before = [await snapshot(h.familyId), await limits()];
      expect((await del(ids.Restaurants, `?replacement_id=${ids.Restaurants}`, key()).expect(422)).body.message).toBe('replacement_id must be another category than the one deleted');
      expect((await del(ids.Restaurants, '?replacement_id=nope', key()).expect(422)).body.message).toBe('replacement_id must be a valid UUID');
      expect((await del(ids.Restaurants, `?replacement=${ids['Dining Out']}`, key()).expect(422)).body.message).toMatch(/^unknown query parameter replacement;/);
      expect((await del(randomUUID(), '', key()).expect(404)).body).toEqual(NOT_FOUND);
      expect([await snapshot(h.familyId), await limits()]).toEqual(before);
    });

    it('merges a subcategory into another top-level category: transactions, limit and spending move together', async () => {
      const res = await del(ids.Restaurants, `?replacement_id=${ids['Dining Out']}`, key()).expect(200);
      expect(res.body).toEqual({ id: ids.Restaurants, replacement_id: ids['Dining Out'], transactions_moved: 1, budget_limits_merged: 1, budget_rows_removed: 1, subcategories_moved: 0 });
      expect(await categoryOf(entries.restaurant)).toBe('Dining Out');
      // Dining Out 100 + Restaurants 200; Food keeps 700 (Restaurants' 200 was ring-fenced inside it).
      const after = await limits();
      expect(after).toMatchObject({ Food: 70000, 'Dining Out': 30000 });
      expect(after).not.toHaveProperty('Restaurants');
      expect(await budget()).toMatchObject({ allocated_spending_cents: 103000, actual_spending_cents: 26500 });
      const dining = (await get(`/budget_categories?budget_id=${budgetId}&category_id=${ids['Dining Out']}`, key())).body.budget_categories[0];
      expect((await get(`/budget_categories/${dining.id}`, key()).expect(200)).body).toMatchObject({ budgeted_spending_cents: 30000, actual_spending_cents: 17000 });
      await get(`/categories/${ids.Restaurants}`, key()).expect(404);
      const [audit] = await t.dataSource.query(`SELECT event, user_id, details FROM audit_logs WHERE family_id = $1 AND event = 'category_deleted'`, [h.familyId]);
      expect(audit).toEqual({ event: 'category_deleted', user_id: h.userId, details: expect.objectContaining({ category_id: ids.Restaurants, name: 'Restaurants', transactions_moved: 1 }) });
    });

    it('merges a parent into its own subcategory: the subcategory becomes top-level with the parent\'s limit', async () => {
      const res = await del(ids.Food, `?replacement_id=${ids.Groceries}`, key()).expect(200);
      expect(res.body).toMatchObject({ transactions_moved: 1, budget_limits_merged: 1, subcategories_moved: 0 });
      expect((await get(`/categories/${ids.Groceries}`, key())).body).toMatchObject({ parent: null, transactions_count: 2 });
      expect(await categoryOf(entries.food)).toBe('Groceries');
      expect(await limits()).toMatchObject({ Groceries: 70000, 'Dining Out': 30000 });
      expect(await budget()).toMatchObject({ allocated_spending_cents: 103000, actual_spending_cents: 26500 });
    });

    it('deletes without a replacement: transactions uncategorised, limits dropped, subcategories made top-level', async () => {
      const res = await del(ids.Misc, '', key()).expect(200);
      expect(res.body).toEqual({ id: ids.Misc, replacement_id: null, transactions_moved: 1, budget_limits_merged: 0, budget_rows_removed: 1, subcategories_moved: 1 });
      expect(await categoryOf(entries.misc)).toBeNull();
      expect((await get(`/categories/${ids['Misc sub']}`, key())).body.parent).toBeNull();
      expect(await limits()).not.toHaveProperty('Misc');
      // The 5 is still spent, now uncategorised; Misc's 30 is no longer allocated.
      expect(await budget()).toMatchObject({ allocated_spending_cents: 100000, actual_spending_cents: 26500 });
    });

    it('moves the subcategories of a merged parent under a top-level replacement', async () => {
      const parent = (await post({ name: 'Travel' }, key()).expect(201)).body.id;
      const child = (await post({ name: 'Hotels', parent_id: parent }, key()).expect(201)).body.id;
      const res = await del(parent, `?replacement_id=${ids['Dining Out']}`, key()).expect(200);
      expect(res.body.subcategories_moved).toBe(1);
      expect((await get(`/categories/${child}`, key())).body).toMatchObject({ parent: { id: ids['Dining Out'], name: 'Dining Out' } });
    });
  });
});
