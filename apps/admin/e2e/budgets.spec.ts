import request from 'supertest';
import { createImport, waitForImport } from '../../api/test/support/imports';
import { screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(180_000);

// Last month: inside the API's two-year window and already in the past, whenever the test runs.
const now = new Date();
const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const MONTH = last.toISOString().slice(0, 7);
const NEXT = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
const MONTH_NAME = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(last);

describe('browser: /budgets', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Spending arrives the real way: a CSV (Date, Amount, Description, Category, Account) published through the API. */
  async function publishCsv(apiKey: string, csv: string): Promise<void> {
    const columns = { date_col_label: 'Date', amount_col_label: 'Amount', name_col_label: 'Description', category_col_label: 'Category', account_col_label: 'Account' };
    const created = await createImport(app.t.server, apiKey, { raw_file_content: csv, ...columns, publish: 'true' }).expect(201);
    expect((await waitForImport(app.t.server, apiKey, created.body.data.id)).status).toBe('complete');
  }

  const budgetId = async (familyId: string): Promise<string> =>
    (await app.t.dataSource.query(`SELECT id FROM budgets WHERE family_id = $1`, [familyId]))[0].id;

  it('starts a month, shows planned vs actual per category with bars, and saves edited amounts', async () => {
    const h = await app.t.newHousehold();
    const csv = ['Date,Amount,Description,Category,Account', `${MONTH}-05,-45.99,Grocer,Groceries,Checking`, `${MONTH}-09,-20.00,Cafe,Dining,Checking`, `${NEXT},-99.00,Later,Groceries,Checking`].join('\n');
    await publishCsv(h.apiKey, csv);

    const page = await app.newPage();
    await signInAs(page, h.email);
    await page.getByRole('link', { name: 'Budgets' }).click();
    await page.getByLabel('Month', { exact: true }).fill(MONTH);
    await page.waitForURL(new RegExp(`month=${MONTH}`));
    await page.getByText('There is no budget for this month yet.').waitFor();
    await page.getByRole('button', { name: 'Start this month’s budget' }).click();
    await page.getByRole('heading', { name: MONTH_NAME }).waitFor();

    const groceries = page.getByRole('row', { name: /Groceries/ });
    await groceries.getByRole('cell', { name: '$45.99', exact: true }).waitFor();
    await page.getByRole('row', { name: /Dining/ }).getByRole('cell', { name: '$20.00', exact: true }).waitFor();
    expect(await page.getByTestId('actual-spending').textContent()).toBe('$65.99');

    await page.getByLabel('Planned spending', { exact: true }).fill('500');
    await page.getByLabel('Planned spending', { exact: true }).press('Enter');
    await page.getByText('$434.01').waitFor(); // left to spend = 500 - 65.99
    await page.waitForFunction(
      () => document.activeElement?.closest('[role="status"]')?.textContent === 'Saved' && document.activeElement.closest('form')?.querySelector('input')?.getAttribute('aria-label') === 'Planned spending',
      undefined,
      { timeout: 5000 },
    );
    await page.getByLabel('Planned for Groceries').fill('40');
    await page.getByLabel('Planned for Groceries').press('Enter');
    await groceries.getByRole('img', { name: '115% of the budget spent' }).waitFor();
    // The row's editor is redrawn with the saved amount: focus stays in that row, on what says it was saved.
    await page.waitForFunction(
      () => document.activeElement?.closest('[role="status"]')?.textContent === 'Saved' && document.activeElement.closest('tr')?.querySelector('th')?.textContent === 'Groceries',
      undefined,
      { timeout: 5000 },
    );
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Planned for Groceries');
    await screenshot(page, 'budgets');

    const [row] = await app.t.dataSource.query(
      `SELECT bc.budgeted_spending_minor::int AS planned FROM budget_categories bc JOIN categories c ON c.id = bc.category_id WHERE c.family_id = $1 AND c.name = 'Groceries'`,
      [h.familyId],
    );
    expect(row.planned).toBe(4000);

    // The actual links to the register: that category's transactions in the budget's month, not the next one's.
    await groceries.getByRole('link', { name: '$45.99', exact: true }).click();
    await page.waitForURL(/\/transactions\?/);
    const url = new URL(page.url());
    const [{ id: groceriesId }] = await app.t.dataSource.query(`SELECT id FROM categories WHERE family_id = $1 AND name = 'Groceries'`, [h.familyId]);
    expect(Object.fromEntries(url.searchParams)).toEqual({ category: groceriesId, from: `${MONTH}-01`, to: expect.stringMatching(new RegExp(`^${MONTH}-(28|29|30|31)$`)) });
    const rows = page.getByRole('table', { name: 'Transactions, newest first' }).locator('tbody tr');
    await rows.filter({ hasText: 'Grocer' }).waitFor();
    expect(await rows.filter({ hasText: /Grocer|Cafe|Later/ }).count()).toBe(1);
    await screenshot(page, 'budgets-linked-register');
    await page.context().close();
  });

  it('lists a category an import brought after the budget started, and its rows add up to Spent', async () => {
    const h = await app.t.newHousehold();
    await publishCsv(h.apiKey, ['Date,Amount,Description,Category,Account', `${MONTH}-05,-45.99,Grocer,Groceries,Checking`].join('\n'));
    const page = await app.newPage();
    await signInAs(page, h.email, `/budgets?month=${MONTH}`);
    await page.getByRole('button', { name: 'Start this month’s budget' }).click();
    await page.getByRole('row', { name: /Groceries/ }).getByRole('cell', { name: '$45.99', exact: true }).waitFor();

    // Later in the month: a new category with a subcategory, spending without a category, and a salary.
    const later = [
      'Date,Amount,Description,Category,Account',
      `${MONTH}-10,-30.00,Vet,Pets,Checking`,
      `${MONTH}-11,-12.50,Toys,Pets: Toys,Checking`,
      `${MONTH}-12,-9.01,Kiosk,,Checking`,
      `${MONTH}-15,2500.00,Employer,Salary,Checking`,
    ].join('\n');
    await publishCsv(h.apiKey, later);
    await page.reload();
    const actual = (category: string) => page.getByRole('row', { name: new RegExp(`^${category}`) }).locator('td').nth(1);
    await actual('Pets').getByText('$42.50', { exact: true }).waitFor();
    await actual('Toys').getByText('$12.50', { exact: true }).waitFor();
    await actual('Groceries').getByText('$45.99', { exact: true }).waitFor();
    await actual('Uncategorized').getByText('$9.01', { exact: true }).waitFor();
    expect(await page.getByRole('row', { name: /^Salary/ }).count()).toBe(0);
    // Top-level rows (Pets includes Toys) and the uncategorized spending make what the page says was spent.
    expect(await page.getByTestId('actual-spending').textContent()).toBe('$97.50');
    await screenshot(page, 'budgets-new-category');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'budgets-new-category-390');
    await page.context().close();
  });

  it('shows the budget month starting in the chosen month, and finds it again, for a household whose month starts on the 15th', async () => {
    const h = await app.t.newHousehold();
    await app.t.dataSource.query(`UPDATE families SET month_start_day = 15 WHERE id = $1`, [h.familyId]);
    // The 5th belongs to the budget month before; the 20th to the one starting on the 15th.
    const csv = ['Date,Amount,Description,Category,Account', `${MONTH}-05,-10.00,Earlier,Groceries,Checking`, `${MONTH}-20,-45.99,Grocer,Groceries,Checking`].join('\n');
    await publishCsv(h.apiKey, csv);

    const page = await app.newPage();
    await signInAs(page, h.email, `/budgets?month=${MONTH}`);
    await page.getByRole('button', { name: 'Start this month’s budget' }).click();
    await page.getByTestId('actual-spending').waitFor();
    expect(await page.getByTestId('actual-spending').textContent()).toBe('$45.99');
    await page.reload();
    await page.getByTestId('actual-spending').waitFor();
    expect(await page.getByTestId('actual-spending').textContent()).toBe('$45.99');
    const budgets = await app.t.dataSource.query(`SELECT start_date::text AS start, end_date::text AS end FROM budgets WHERE family_id = $1`, [h.familyId]);
    expect(budgets).toEqual([{ start: `${MONTH}-15`, end: `${NEXT.slice(0, 7)}-14` }]);
    await page.context().close();
  });

  it('refreshes what the parent and its other subcategories have left once a subcategory gets a limit of its own', async () => {
    const h = await app.t.newHousehold();
    const csv = ['Date,Amount,Description,Category,Account', `${MONTH}-05,-45.99,Grocer,Food: Groceries,Checking`, `${MONTH}-09,-20.00,Cafe,Food: Dining,Checking`].join('\n');
    await publishCsv(h.apiKey, csv);
    const page = await app.newPage();
    await signInAs(page, h.email, `/budgets?month=${MONTH}`);
    await page.getByRole('button', { name: 'Start this month’s budget' }).click();
    // The Left column: a category's cell showing `amount`.
    const left = (category: string, amount: string) => page.getByRole('row', { name: new RegExp(`^${category}`) }).locator('td').nth(2).getByText(amount, { exact: true });
    await page.getByLabel('Planned for Food').fill('100');
    await page.getByLabel('Planned for Food').press('Enter');
    await left('Dining', '$34.01').waitFor(); // shares Food's 100 - 65.99

    // Groceries' own 50 is ring-fenced inside Food's budget: Food and Dining have another amount left, the API's.
    await page.getByLabel('Planned for Groceries').fill('50');
    await page.getByLabel('Planned for Groceries').press('Enter');
    await left('Groceries', '$4.01').waitFor();
    const list = await request(app.t.server).get('/api/v1/budget_categories').query({ budget_id: await budgetId(h.familyId) }).set('X-Api-Key', h.apiKey).expect(200);
    const food = list.body.budget_categories.find((r: { category: { name: string } }) => r.category.name === 'Food');
    const { body: foodNow } = await request(app.t.server).get(`/api/v1/budget_categories/${food.id}`).set('X-Api-Key', h.apiKey).expect(200);
    expect(foodNow.available_to_spend).not.toBe('$34.01');
    await left('Food', foodNow.available_to_spend).waitFor({ timeout: 5000 });
    await left('Dining', foodNow.available_to_spend).waitFor({ timeout: 5000 });
    await screenshot(page, 'budgets-subcategory-limit');
    await page.context().close();
  });

  it('says at the field what is wrong with an amount, in words, and takes the grouping of the locale (en-US)', async () => {
    const h = await app.t.newHousehold();
    await publishCsv(h.apiKey, ['Date,Amount,Description,Category,Account', `${MONTH}-05,-45.99,Grocer,Groceries,Checking`].join('\n'));
    const page = await app.newPage();
    await signInAs(page, h.email, `/budgets?month=${MONTH}`);
    await page.getByRole('button', { name: 'Start this month’s budget' }).click();
    await page.getByRole('heading', { name: MONTH_NAME }).waitFor();
    const stored = async () =>
      (
        await app.t.dataSource.query(
          `SELECT b.budgeted_spending_minor::text AS planned, bc.budgeted_spending_minor::text AS groceries
             FROM budgets b JOIN budget_categories bc ON bc.budget_id = b.id JOIN categories c ON c.id = bc.category_id
            WHERE b.family_id = $1 AND c.name = 'Groceries'`,
          [h.familyId],
        )
      )[0];
    const planned = page.getByLabel('Planned spending', { exact: true });
    const patches: string[] = [];
    page.on('request', (req) => req.method() === 'PATCH' && patches.push(req.postData() ?? ''));

    // More decimals than USD has: refused at the field, in words, before anything is sent; focus stays on the field.
    await planned.fill('12.345');
    await planned.press('Enter');
    const totals = page.getByRole('region', { name: MONTH_NAME });
    await totals.getByRole('alert').filter({ hasText: 'USD amounts have at most 2 decimals.' }).waitFor();
    expect(await planned.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Planned spending');
    await planned.fill('lots');
    await planned.press('Enter');
    await totals.getByRole('alert').filter({ hasText: 'Enter the amount as a number, such as 1,234.50.' }).waitFor();
    await screenshot(page, 'budgets-field-error');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'budgets-field-error-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(patches).toEqual([]);
    expect(await stored()).toEqual({ planned: null, groceries: '0' });

    // The locale's grouping is taken: 1,000.50 is saved as 1000.50; typing clears the message.
    await planned.fill('1,000.50');
    expect(await totals.getByRole('alert').count()).toBe(0);
    await planned.press('Enter');
    await totals.getByRole('definition').filter({ hasText: '$1,000.50' }).first().waitFor();
    const groceries = page.getByLabel('Planned for Groceries');
    await groceries.fill('1,000');
    await groceries.press('Enter');
    await page.getByRole('row', { name: /Groceries/ }).getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await stored()).toEqual({ planned: '100050', groceries: '100000' });

    // A refusal of the API (beyond the largest amount) shows at the field it names, in words, not at the card.
    await groceries.fill('90,071,992,547,409.92');
    await groceries.press('Enter');
    const row = page.getByRole('row', { name: /Groceries/ });
    await row.getByRole('alert').filter({ hasText: 'The planned amount must be at most 90071992547409.91.' }).waitFor();
    expect(await groceries.getAttribute('aria-invalid')).toBe('true');
    await groceries.fill('12.345');
    await groceries.press('Enter');
    await row.getByRole('alert').filter({ hasText: 'USD amounts have at most 2 decimals.' }).waitFor();
    await screenshot(page, 'budgets-category-field-error');
    expect(await stored()).toEqual({ planned: '100050', groceries: '100000' });
    await page.context().close();
  });

  it('shows and keeps amounts of a currency without minor units (JPY) as they are', async () => {
    const h = await app.t.newHousehold({ currency: 'JPY' });
    const page = await app.newPage();
    await signInAs(page, h.email, `/budgets?month=${MONTH}`);
    await page.getByRole('button', { name: 'Start this month’s budget' }).click();
    await page.getByRole('heading', { name: MONTH_NAME }).waitFor();

    // The field shows what was typed at once: each save is awaited by its PATCH's answer, whose budget the page then holds.
    const saved = () => page.waitForResponse((res) => res.request().method() === 'PATCH' && res.url().includes('/api/v1/budgets/') && res.ok());
    await page.getByLabel('Planned spending', { exact: true }).fill('50000');
    await Promise.all([saved(), page.getByLabel('Planned spending', { exact: true }).press('Enter')]);
    await page.waitForFunction(() => (document.querySelector('input[aria-label="Planned spending"]') as HTMLInputElement | null)?.value === '50000');
    // Saving the other amount sends the planned one again: it must stay ¥50,000, not become ¥500.
    await page.getByLabel('Expected income', { exact: true }).fill('300000');
    await Promise.all([saved(), page.getByLabel('Expected income', { exact: true }).press('Enter')]);
    await page.waitForFunction(() => (document.querySelector('input[aria-label="Expected income"]') as HTMLInputElement | null)?.value === '300000');

    const [budget] = await app.t.dataSource.query(
      `SELECT budgeted_spending_minor::int AS planned, expected_income_minor::int AS income FROM budgets WHERE family_id = $1`,
      [h.familyId],
    );
    expect(budget).toEqual({ planned: 50000, income: 300000 });
    await page.context().close();
  });

  it('opens on the current month of the user’s own time zone', async () => {
    const h = await app.t.newHousehold();
    // 00:30 on 1 December in Auckland is still 30 November in UTC.
    const context = await app.browser.newContext({ baseURL: app.baseUrl, timezoneId: 'Pacific/Auckland' });
    const page = await context.newPage();
    await page.clock.setFixedTime(new Date('2026-11-30T11:30:00Z'));
    await signInAs(page, h.email, '/budgets');
    expect(await page.getByLabel('Month', { exact: true }).inputValue()).toBe('2026-12');
    await context.close();
  });

  it('opens on the budget month running today, in the family’s time zone, for a household whose month starts on the 15th', async () => {
    const h = await app.t.newHousehold();
    await request(app.t.server).patch('/api/v1/family_settings').set('X-Api-Key', h.apiKey).send({ month_start_day: 15 }).expect(200);
    const context = await app.browser.newContext({ baseURL: app.baseUrl, timezoneId: 'UTC' });
    const page = await context.newPage();
    // 10 January: the budget month running is the one that started on 15 December.
    await page.clock.setFixedTime(new Date('2026-01-10T12:00:00Z'));
    await signInAs(page, h.email, '/budgets');
    expect(await page.getByLabel('Month', { exact: true }).inputValue()).toBe('2025-12');
    await page.getByText('There is no budget for this month yet.').waitFor();
    await page.getByRole('button', { name: 'Start this month’s budget' }).click();
    await page.getByRole('heading', { name: 'Dec 15 - January 14, 2026' }).waitFor();

    // 23:30 UTC on 14 January is already the 15th in Auckland, where the family says it lives: January's budget month.
    await request(app.t.server).patch('/api/v1/family_settings').set('X-Api-Key', h.apiKey).send({ timezone: 'Pacific/Auckland' }).expect(200);
    await page.clock.setFixedTime(new Date('2026-01-14T23:30:00Z'));
    await page.goto('/budgets');
    await page.getByText('There is no budget for this month yet.').waitFor();
    expect(await page.getByLabel('Month', { exact: true }).inputValue()).toBe('2026-01');
    await context.close();
  });
});
