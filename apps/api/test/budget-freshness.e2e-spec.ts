import request from 'supertest';
import { startTestApp, TestApp } from './support/test-app';
import { BudgetFixtures } from './support/budgets';
import { createImport, waitForImport } from './support/imports';

/**
 * A computed budget is reused only while its inputs are unchanged (budgets.service.ts inputsKey, kept honest by the
 * BudgetInputVersions triggers): every kind of write to what a budget is computed from, through any code path
 * (here raw SQL, as an operator or another process would), shows on the very next read.
 */
describe('budgets: computed figures follow every write to their inputs', () => {
  let t: TestApp;
  let fx: BudgetFixtures;

  beforeAll(async () => {
    t = await startTestApp();
    fx = new BudgetFixtures(t);
  });
  afterAll(() => t.close());

  it('reflects entries, transactions, accounts, categories, category limits and rates at once', async () => {
    const h = await t.newHousehold();
    const home = { h };
    const checking = await fx.account(h.familyId, { name: 'Checking', currency: 'USD' });
    const krona = await fx.account(h.familyId, { name: 'Kronor', currency: 'SEK' });
    // Rates are shared by every family: this test's own pair and date, cleared first on a reused database.
    await t.dataSource.query(`DELETE FROM exchange_rates WHERE from_currency = 'SEK' AND to_currency = 'USD' AND date = '2025-03-05'`);
    const food = await fx.category(h.familyId, 'Food');
    await fx.entry(home, { account: checking, date: '2025-03-03', amount: 10, category: food });
    const created = await request(t.server).post('/api/v1/budgets').set('X-Api-Key', h.apiKey).send({ start_date: '2025-03-01' });
    expect([200, 201]).toContain(created.status);
    const read = async () => (await request(t.server).get(`/api/v1/budgets/${created.body.id}`).set('X-Api-Key', h.apiKey).expect(200)).body;
    const spent = async () => (await read()).actual_spending_cents;

    expect(await spent()).toBe(1000);
    expect(await spent()).toBe(1000); // served again for the same inputs

    const second = await fx.entry(home, { account: checking, date: '2025-03-04', amount: 5, category: food });
    expect(await spent()).toBe(1500); // entries + transactions inserted

    await t.dataSource.query(`UPDATE transactions SET pending = true WHERE entry_id = $1`, [second]);
    expect(await spent()).toBe(1000); // a transaction updated

    await t.dataSource.query(`UPDATE entries SET amount_minor = 2000 WHERE id = $1`, [second]);
    await t.dataSource.query(`UPDATE transactions SET pending = false WHERE entry_id = $1`, [second]);
    expect(await spent()).toBe(3000); // an entry updated

    await t.dataSource.query(`UPDATE accounts SET status = 'disabled' WHERE id = $1`, [checking]);
    expect(await spent()).toBe(0); // an account left out
    await t.dataSource.query(`UPDATE accounts SET status = 'active' WHERE id = $1`, [checking]);
    expect(await spent()).toBe(3000);

    await fx.entry(home, { account: krona, date: '2025-03-05', amount: 10, category: food });
    expect(await spent()).toBe(3000); // no SEK rate on that date: left out
    await t.dataSource.query(
      `INSERT INTO exchange_rates (from_currency, to_currency, date, rate) VALUES ('SEK', 'USD', '2025-03-05', 1.5)
       ON CONFLICT (from_currency, to_currency, date) DO UPDATE SET rate = 1.5`,
    );
    expect(await spent()).toBe(4500); // a rate arrived

    await t.dataSource.query(`DELETE FROM entries WHERE id = $1`, [second]);
    expect(await spent()).toBe(2500); // an entry deleted

    const [row] = await t.dataSource.query(`SELECT id FROM budget_categories WHERE budget_id = $1 AND category_id = $2`, [created.body.id, food]);
    await t.dataSource.query(`UPDATE budget_categories SET budgeted_spending_minor = 7000 WHERE id = $1`, [row.id]);
    expect((await read()).allocated_spending_cents).toBe(7000); // a category limit

    const living = await fx.category(h.familyId, 'Living');
    await t.dataSource.query(`UPDATE categories SET parent_id = $2 WHERE id = $1`, [food, living]);
    expect((await read()).allocated_spending_cents).toBe(0); // a category moved under another: no longer top-level
  });

  it('reflects an import as it publishes and reverts (its chunks move the version themselves, in commit order)', async () => {
    const h = await t.newHousehold();
    const checking = await fx.account(h.familyId, { name: 'Checking', currency: 'USD' });
    await fx.category(h.familyId, 'Food');
    const created = await request(t.server).post('/api/v1/budgets').set('X-Api-Key', h.apiKey).send({ start_date: '2025-03-01' });
    expect([200, 201]).toContain(created.status);
    const spent = async () => (await request(t.server).get(`/api/v1/budgets/${created.body.id}`).set('X-Api-Key', h.apiKey).expect(200)).body.actual_spending_cents;
    expect(await spent()).toBe(0);

    const csv = 'date,amount,name,category\n2025-03-03,-12.50,Market,Food\n2025-03-04,-7.50,Bakery,Food\n';
    const res = await createImport(t.server, h.apiKey, { raw_file_content: csv, account_id: checking, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, res.body.data.id)).status).toBe('complete');
    expect(await spent()).toBe(2000);

    await request(t.server).post(`/api/v1/imports/${res.body.data.id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await waitForImport(t.server, h.apiKey, res.body.data.id)).status).toBe('pending');
    expect(await spent()).toBe(0);
  });
});
