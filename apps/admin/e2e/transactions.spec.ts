import request from 'supertest';
import type { Page } from 'playwright-core';
import { BudgetFixtures } from '../../api/test/support/budgets';
import type { Household } from '../../api/test/support/test-app';
import { screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(240_000);

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** A day of last month: in the past whenever the test runs. */
const now = new Date();
const MONTH = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
const DAY = (n: number) => `${MONTH}-${String(n).padStart(2, '0')}`;

interface Txn {
  id: string;
  name: string;
  notes: string | null;
  amount_cents: number;
  signed_amount_cents: number;
  parent_id: string | null;
  category: { id: string; name: string } | null;
  tags: Array<{ id: string; name: string }>;
  transfer: { other_account: { name: string } } | null;
}

describe('browser: /transactions, the register', () => {
  let app: BrowserApp;
  let fixtures: BudgetFixtures;
  beforeAll(async () => {
    app = await startBrowserApp();
    fixtures = new BudgetFixtures(app.t);
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A household with two accounts, a category tree and a merchant; `add` makes transactions through the API. */
  async function household() {
    const h = await app.t.newHousehold();
    const ids = {
      checking: await fixtures.account(h.familyId, { name: 'Checking', currency: 'USD' }),
      savings: await fixtures.account(h.familyId, { name: 'Savings', currency: 'USD' }),
      food: await fixtures.category(h.familyId, 'Food'),
      salary: await fixtures.category(h.familyId, 'Salary'),
      merchant: '',
    };
    const groceries = await fixtures.category(h.familyId, 'Groceries', ids.food);
    [{ id: ids.merchant }] = await app.t.dataSource.query(`INSERT INTO merchants (family_id, type, name, color) VALUES ($1, 'FamilyMerchant', 'Corner Shop', '#e99537') RETURNING id`, [
      h.familyId,
    ]);
    const add = async (fields: Record<string, unknown>): Promise<Txn> =>
      (await api(h, 'post', '/transactions').send({ transaction: { account_id: ids.checking, date: DAY(5), ...fields } }).expect(201)).body;
    return { h, ids: { ...ids, groceries }, add };
  }

  const api = (h: Household, method: 'get' | 'post' | 'patch' | 'delete', path: string) => request(app.t.server)[method](`/api/v1${path}`).set('X-Api-Key', h.apiKey);
  const list = async (h: Household, query = ''): Promise<Txn[]> => (await api(h, 'get', `/transactions?per_page=100&${query}`).expect(200)).body.transactions;
  /** The row of the transaction named `name`. */
  const row = (page: Page, name: string) => page.locator('tbody tr').filter({ has: page.locator('.txn-name').getByText(name, { exact: true }) });
  /** A row's category cell (after the checkbox and the date). */
  const categoryCell = (page: Page, name: string) => row(page, name).locator('td').nth(2);
  /** The names of the rows shown, top to bottom. */
  const shownNames = (page: Page) => page.locator('tbody th .txn-name').allTextContents();
  /** Requests for the list: each must page by cursor, so that the API never counts. */
  const watchListRequests = (page: Page) => {
    const urls: URL[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (req.method() === 'GET' && url.pathname === '/api/v1/transactions') urls.push(url);
    });
    return urls;
  };
  /** The page never scrolls sideways: the table becomes cards at phone width. */
  const pageWidth = (page: Page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));

  it('says what to do when there is nothing yet, with a link to Imports', async () => {
    const h = await app.t.newHousehold();
    const page = await app.newPage();
    await signInAs(page, h.email);
    await page.getByRole('link', { name: 'Transactions' }).click();
    await page.getByText('No transactions yet.').waitFor();
    expect(await page.getByRole('link', { name: 'Import a file' }).getAttribute('href')).toBe('/imports/new');
    await screenshot(page, 'transactions-empty');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'transactions-empty-390');
    await page.context().close();
  });

  it('pages by cursor with Load more, never counting, and keeps every filter in the address', async () => {
    const { h, ids, add } = await household();
    for (let i = 1; i <= 55; i++) await add({ date: DAY(1 + (i % 27)), amount: `${i}.25`, name: `Shop ${String(i).padStart(2, '0')}` });
    await add({ date: DAY(28), amount: '4.50', name: 'Coffee beans', notes: 'the dark roast', category_id: ids.groceries, merchant_id: ids.merchant, tag_names: ['Treats'] });
    await add({ date: DAY(28), account_id: ids.savings, amount: '2500', nature: 'income', name: 'Payroll', category_id: ids.salary });

    const page = await app.newPage();
    const requests = watchListRequests(page);
    await signInAs(page, h.email, '/transactions');
    await page.getByText('50 transactions shown.').waitFor();
    expect((await shownNames(page)).slice(0, 2).sort()).toEqual(['Coffee beans', 'Payroll']);
    // Money out with its minus sign, money in without, as Intl writes money.
    expect(await row(page, 'Coffee beans').locator('td.amount').textContent()).toBe('-$4.50');
    expect(await row(page, 'Payroll').locator('td.amount').textContent()).toBe('$2,500.00');
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText('57 transactions shown, the last of them.').waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await screenshot(page, 'transactions');

    // Search by text: the address says so, and the list is read again from its first page.
    await page.getByLabel('Search', { exact: true }).fill('roast');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/[?&]q=roast/);
    await page.getByText('1 transaction shown, the last of them.').waitFor();
    expect(await shownNames(page)).toEqual(['Coffee beans']);

    // A tag and a merchant are chosen from a row; each shows as a chip that takes it away.
    // Back to the whole list: the pages read before come back (read again), not only the first.
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.getByText('57 transactions shown, the last of them.').waitFor();
    await page.getByRole('button', { name: 'Show only transactions tagged Treats' }).click();
    await page.waitForURL(/[?&]tag=/);
    await page.getByRole('button', { name: 'Remove the filter: tag Treats' }).waitFor();
    expect(await shownNames(page)).toEqual(['Coffee beans']);
    await page.getByRole('button', { name: 'Remove the filter: tag Treats' }).click();
    await page.getByRole('button', { name: 'Show only transactions of Corner Shop' }).click();
    await page.waitForURL(/[?&]merchant=/);
    await page.getByRole('button', { name: 'Remove the filter: merchant Corner Shop' }).waitFor();
    expect(await shownNames(page)).toEqual(['Coffee beans']);
    await page.getByRole('button', { name: 'Clear filters' }).first().click();

    // Account, category, type, dates and an amount range, as they are shown: money out negative.
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'Savings' });
    await page.waitForURL(new RegExp(`account=${ids.savings}`));
    await page.getByText('1 transaction shown, the last of them.').waitFor();
    expect(await shownNames(page)).toEqual(['Payroll']);
    await page.getByLabel('Account', { exact: true }).selectOption({ label: 'All accounts' });
    await page.getByLabel('Category', { exact: true }).selectOption({ label: 'Food › Groceries' });
    await page.waitForURL(new RegExp(`category=${ids.groceries}`));
    await page.getByText('1 transaction shown, the last of them.').waitFor();
    await page.getByLabel('Category', { exact: true }).selectOption({ label: 'All categories' });
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Money in' });
    await page.getByText('1 transaction shown, the last of them.').waitFor();
    expect(await shownNames(page)).toEqual(['Payroll']);
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Money out' });
    await page.getByLabel('From date').fill(DAY(2));
    await page.getByLabel('To date').fill(DAY(3));
    await page.getByLabel('Amount from').fill('-30');
    await page.getByLabel('Amount to').fill('-2');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/max=-2/);
    // Days 2 and 3 hold shops 1, 2, 28, 29 and 55: -1.25 is above -2 and -55.25 below -30.
    await page.getByText('3 transactions shown, the last of them.').waitFor();
    expect((await shownNames(page)).sort()).toEqual(['Shop 02', 'Shop 28', 'Shop 29']);
    const address = page.url();
    expect(new URL(address).searchParams.get('min')).toBe('-30');
    expect(new URL(address).searchParams.get('type')).toBe('expense');

    // The address alone gives the same list: in a new page, and back from a filtered list.
    const again = await app.newPage();
    await signInAs(again, h.email, new URL(address).pathname + new URL(address).search);
    await again.getByText('3 transactions shown, the last of them.').waitFor();
    expect(await again.getByLabel('Amount from').inputValue()).toBe('-30');
    expect(await again.getByLabel('Type', { exact: true }).inputValue()).toBe('expense');
    await again.context().close();
    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('max'));

    // Every list request paged by cursor: the first page's is empty, so the API made no count.
    expect(requests.length).toBeGreaterThan(8);
    expect(requests.filter((url) => !url.searchParams.has('cursor'))).toEqual([]);
    expect(requests.some((url) => url.searchParams.get('cursor') === '')).toBe(true);

    // A bad amount is refused at its field, in words, and the list stays as it was.
    await page.getByLabel('Amount from').fill('ten');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter the amount as a number, such as 1,234.50.' }).waitFor();
    expect(new URL(page.url()).searchParams.has('min')).toBe(false);

    await page.setViewportSize(PHONE);
    await page.getByLabel('Amount from').fill('');
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await page.getByText('57 transactions shown, the last of them.').waitFor();
    await screenshot(page, 'transactions-390');
    const width = await pageWidth(page);
    expect(width.scroll).toBeLessThanOrEqual(width.inner);
    await page.context().close();
  });

  it('edits category, tags and notes in place, from the keyboard too, and undoes the last edit', async () => {
    const { h, ids, add } = await household();
    const market = await add({ amount: '42.50', name: 'Market', category_id: ids.food, tag_names: ['Weekly'], notes: 'milk' });
    await add({ amount: '9.99', name: 'Bakery' });
    const page = await app.newPage();
    await signInAs(page, h.email, '/transactions');
    const marketRow = row(page, 'Market');
    await marketRow.waitFor();

    await page.getByRole('button', { name: 'Edit category of Market' }).click();
    await page.getByLabel('Category of Market').selectOption({ label: 'Food › Groceries' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await categoryCell(page, 'Market').getByText('Groceries', { exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Category of “Market” set to Groceries.' }).waitFor();
    expect((await list(h)).find((t) => t.id === market.id)?.category?.id).toBe(ids.groceries);
    // Focus is back on the Edit button of the cell edited.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Edit category of Market');

    // Tags by name, from the keyboard: Enter opens and saves; a new name becomes a tag.
    await page.getByRole('button', { name: 'Edit tags of Market' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Tags of Market').fill('Weekly, Shared');
    await page.keyboard.press('Enter');
    await marketRow.getByRole('button', { name: 'Show only transactions tagged Shared' }).waitFor();
    expect((await list(h)).find((t) => t.id === market.id)?.tags.map((t) => t.name)).toEqual(['Shared', 'Weekly']);
    // Escape leaves an editor without saving.
    await page.getByRole('button', { name: 'Edit notes of Market' }).click();
    await page.getByLabel('Notes of Market').fill('not this');
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Edit notes of Market');
    await page.getByRole('button', { name: 'Edit notes of Market' }).click();
    await page.getByLabel('Notes of Market').fill('milk and eggs');
    await page.keyboard.press('Enter');
    await marketRow.getByText('milk and eggs').waitFor();
    expect((await list(h)).find((t) => t.id === market.id)?.notes).toBe('milk and eggs');
    await screenshot(page, 'transactions-inline-edit');

    // Undo takes back the last change only: the notes.
    await page.getByRole('button', { name: 'Undo' }).click();
    await marketRow.getByText('milk', { exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Undone: Notes of “Market” changed.' }).waitFor();
    const after = (await list(h)).find((t) => t.id === market.id)!;
    expect([after.notes, after.category?.name, after.tags.map((t) => t.name)]).toEqual(['milk', 'Groceries', ['Shared', 'Weekly']]);
    expect(await page.getByRole('button', { name: 'Undo' }).count()).toBe(0);

    // A category edit undone puts the previous one back.
    await page.getByRole('button', { name: 'Edit category of Bakery' }).click();
    await page.getByLabel('Category of Bakery').selectOption({ label: 'Salary' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await categoryCell(page, 'Bakery').getByText('Salary', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('status').filter({ hasText: 'Undone' }).waitFor();
    await categoryCell(page, 'Bakery').getByText('None', { exact: true }).waitFor();
    expect((await list(h)).find((t) => t.name === 'Bakery')?.category).toBeNull();
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Edit tags of Bakery' }).click();
    await screenshot(page, 'transactions-inline-edit-390');
    await page.context().close();
  });

  it('adds money out, money in and a transfer by hand, refuses what is missing at its field, and undoes an add', async () => {
    const { h, ids } = await household();
    const page = await app.newPage();
    await signInAs(page, h.email, '/transactions');
    await page.getByRole('button', { name: 'Add transaction' }).click();
    const form = page.getByRole('form', { name: 'Add a transaction' });

    // Nothing typed: each field says what it needs, and nothing is sent.
    const posts: string[] = [];
    page.on('request', (req) => req.method() === 'POST' && posts.push(req.url()));
    await form.getByRole('button', { name: 'Add transaction' }).click();
    await form.getByRole('alert').filter({ hasText: 'Enter the amount.' }).waitFor();
    await form.getByRole('alert').filter({ hasText: 'Enter a name, such as the shop or the payer.' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
    await form.getByLabel('Amount (USD)').fill('12.345');
    await form.getByRole('button', { name: 'Add transaction' }).click();
    await form.getByRole('alert').filter({ hasText: 'USD amounts have at most 2 decimals.' }).waitFor();
    expect(posts).toEqual([]);
    await screenshot(page, 'transactions-add-errors');

    await form.getByLabel('Account').selectOption({ label: 'Checking' });
    await form.getByLabel('Date').fill(DAY(7));
    await form.getByLabel('Amount (USD)').fill('1,234.56');
    await form.getByLabel('Name', { exact: true }).fill('New sofa');
    await form.getByLabel('Category').selectOption({ label: 'Food' });
    await form.getByLabel('Notes').fill('delivered Tuesday');
    await form.getByRole('button', { name: 'Add transaction' }).click();
    await page.getByRole('status').filter({ hasText: 'Added “New sofa”.' }).waitFor();
    await row(page, 'New sofa').locator('td.amount').getByText('-$1,234.56').waitFor();
    const [sofa] = await list(h);
    expect(sofa).toMatchObject({ name: 'New sofa', signed_amount_cents: -123456, notes: 'delivered Tuesday', category: { id: ids.food } });

    await page.getByRole('button', { name: 'Add transaction' }).click();
    await form.getByLabel('Money in').check();
    await form.getByLabel('Account').selectOption({ label: 'Savings' });
    await form.getByLabel('Amount (USD)').fill('300');
    await form.getByLabel('Name', { exact: true }).fill('Refund');
    await form.getByRole('button', { name: 'Add transaction' }).click();
    await row(page, 'Refund').locator('td.amount').getByText('$300.00').waitFor();
    expect((await list(h)).find((t) => t.name === 'Refund')?.signed_amount_cents).toBe(30000);

    // A transfer: both sides at once, each saying where the money went.
    await page.getByRole('button', { name: 'Add transaction' }).click();
    await form.getByLabel('Transfer', { exact: true }).check();
    await form.getByLabel('From account').selectOption({ label: 'Checking' });
    await form.getByLabel('To account').selectOption({ label: 'Checking' });
    await form.getByLabel('Amount (USD)').fill('200');
    await form.getByRole('button', { name: 'Add transfer' }).click();
    await form.getByRole('alert').filter({ hasText: 'Choose another account than the one the money leaves.' }).waitFor();
    await form.getByLabel('To account').selectOption({ label: 'Savings' });
    await screenshot(page, 'transactions-add-transfer');
    await form.getByRole('button', { name: 'Add transfer' }).click();
    await page.getByRole('status').filter({ hasText: 'Added a transfer of $200.00 from Checking to Savings.' }).waitFor();
    // The sides are named after the accounts too: the badge is the second mention.
    await page.locator('.badge', { hasText: 'Transfer to Savings' }).waitFor();
    await page.locator('.badge', { hasText: 'Transfer from Checking' }).waitFor();
    const transferSides = (await list(h)).filter((t) => t.transfer);
    expect(transferSides).toHaveLength(2);

    // Undo of the transfer deletes both of its sides.
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('status').filter({ hasText: 'Undone: Added a transfer' }).waitFor();
    await page.locator('.badge', { hasText: 'Transfer to Savings' }).waitFor({ state: 'detached' });
    expect((await list(h)).map((t) => t.name).sort()).toEqual(['New sofa', 'Refund']);
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'Add transaction' }).click();
    await screenshot(page, 'transactions-add-390');
    await page.context().close();
  });

  it('splits a transaction into parts with a live remainder, joins them again, and undoes a split', async () => {
    const { h, ids, add } = await household();
    const shop = await add({ amount: '100.00', name: 'Superstore', category_id: ids.food });
    const page = await app.newPage();
    await signInAs(page, h.email, '/transactions');
    await page.getByRole('button', { name: 'Split “Superstore”' }).click();
    const dialog = page.getByRole('dialog', { name: 'Split “Superstore”' });
    const remainder = dialog.getByTestId('split-remainder');
    expect(await remainder.textContent()).toBe('Left to assign: $100.00');
    await dialog.getByRole('group', { name: 'Part 1' }).getByLabel('Amount (USD)').fill('60');
    expect(await remainder.textContent()).toBe('Left to assign: $40.00');
    await dialog.getByRole('group', { name: 'Part 1' }).getByLabel('Category').selectOption({ label: 'Food › Groceries' });
    await dialog.getByRole('group', { name: 'Part 2' }).getByLabel('Amount (USD)').fill('50');
    expect(await remainder.textContent()).toBe('Over the total by $10.00');
    await dialog.getByRole('button', { name: 'Save the split' }).click();
    expect(await dialog.getByRole('button', { name: 'Save the split' }).isDisabled()).toBe(true);
    await dialog.getByRole('group', { name: 'Part 2' }).getByLabel('Amount (USD)').fill('25');
    await dialog.getByRole('button', { name: 'Add a part' }).click();
    await dialog.getByRole('group', { name: 'Part 3' }).getByLabel('Name').fill('Garden');
    // The new part takes what was left.
    expect(await dialog.getByRole('group', { name: 'Part 3' }).getByLabel('Amount (USD)').inputValue()).toBe('15.00');
    expect(await remainder.textContent()).toBe('Everything is assigned.');
    await screenshot(page, 'transactions-split', { fullPage: false });
    await page.setViewportSize(PHONE);
    await screenshot(page, 'transactions-split-390', { fullPage: false });
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Save the split' }).click();
    await page.getByRole('status').filter({ hasText: 'Split “Superstore” into 3 parts.' }).waitFor();
    await page.getByText('Part of a split').first().waitFor();
    expect(await page.getByText('Part of a split').count()).toBe(3);
    const parts = (await list(h)).filter((t) => t.parent_id === shop.id);
    expect(parts.map((p) => [p.name, p.amount_cents, p.category?.name]).sort()).toEqual([
      ['Garden', 1500, 'Food'],
      ['Superstore', 2500, 'Food'],
      ['Superstore', 6000, 'Groceries'],
    ]);
    await screenshot(page, 'transactions-split-parts');

    // Undo of the split takes the parts away.
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('status').filter({ hasText: 'Undone: Split' }).waitFor();
    await page.getByText('Part of a split').first().waitFor({ state: 'detached' });
    expect((await list(h)).filter((t) => t.parent_id)).toEqual([]);

    // Split again, then join from the dialog, which shows the parts.
    await page.getByRole('button', { name: 'Split “Superstore”' }).click();
    await dialog.getByRole('group', { name: 'Part 1' }).getByLabel('Amount (USD)').fill('70');
    await dialog.getByRole('group', { name: 'Part 2' }).getByLabel('Amount (USD)').fill('30');
    await dialog.getByRole('button', { name: 'Save the split' }).click();
    await page.getByText('Part of a split').first().waitFor();
    await page.getByRole('button', { name: 'Split “Superstore”' }).click();
    expect(await dialog.getByRole('group', { name: 'Part 1' }).getByLabel('Amount (USD)').inputValue()).toMatch(/^(70|30)\.00$/);
    await dialog.getByRole('button', { name: 'Join the parts again' }).click();
    await page.getByRole('status').filter({ hasText: 'Joined the parts of “Superstore” again.' }).waitFor();
    expect((await list(h)).filter((t) => t.parent_id)).toEqual([]);
    await page.context().close();
  });

  it('changes a selection in bulk and undoes it, and deletes a transaction and undoes the delete', async () => {
    const { h, ids, add } = await household();
    await add({ amount: '10', name: 'Alpha', category_id: ids.food });
    await add({ amount: '20', name: 'Bravo', category_id: ids.salary });
    await add({ amount: '30', name: 'Charlie', tag_names: ['Keep'] });
    const page = await app.newPage();
    await signInAs(page, h.email, '/transactions');
    await page.getByLabel(/^Select “Alpha”/).check();
    await page.getByLabel(/^Select “Bravo”/).check();
    await page.getByRole('heading', { name: '2 transactions selected' }).waitFor();
    await page.getByLabel('Category for all').selectOption({ label: 'Food › Groceries' });
    await screenshot(page, 'transactions-bulk');
    await page.getByRole('button', { name: 'Set category' }).click();
    await page.getByRole('status').filter({ hasText: 'Category of 2 transactions set to Groceries.' }).waitFor();
    await categoryCell(page, 'Alpha').getByText('Groceries', { exact: true }).waitFor();
    const byName = async () => Object.fromEntries((await list(h)).map((t) => [t.name, t]));
    expect([(await byName()).Alpha.category?.name, (await byName()).Bravo.category?.name]).toEqual(['Groceries', 'Groceries']);
    // Undo gives each its own category back.
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('status').filter({ hasText: 'Undone' }).waitFor();
    await categoryCell(page, 'Bravo').getByText('Salary', { exact: true }).waitFor();
    const undone = await byName();
    expect([undone.Alpha.category?.name, undone.Bravo.category?.name]).toEqual(['Food', 'Salary']);

    // Tags for all, then everything shown selected and left out of budgets: that cannot be undone, and it says so.
    await page.getByLabel(/^Select “Alpha”/).check();
    await page.getByLabel(/^Select “Charlie”/).check();
    await page.getByLabel('Tags for all').fill('Checked');
    await page.getByRole('button', { name: 'Set tags' }).click();
    await row(page, 'Charlie').getByRole('button', { name: 'Show only transactions tagged Checked' }).waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await row(page, 'Charlie').getByRole('button', { name: 'Show only transactions tagged Keep' }).waitFor();
    expect((await byName()).Alpha.tags).toEqual([]);
    await page.getByLabel('Select all 3 shown').check();
    await page.getByRole('button', { name: 'Leave out of budgets' }).click();
    await page.getByRole('status').filter({ hasText: 'Exclusion cannot be undone here' }).waitFor();
    const excluded = await app.t.dataSource.query(`SELECT count(*)::int AS n FROM entries WHERE family_id = $1 AND excluded`, [h.familyId]);
    expect(excluded[0].n).toBe(3);

    // A delete is undone by making the transaction again as it was shown.
    await page.getByRole('button', { name: 'Delete “Charlie”' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted “Charlie”.' }).waitFor();
    await row(page, 'Charlie').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('status');
    await page.getByRole('button', { name: 'Undo' }).click();
    await row(page, 'Charlie').waitFor();
    const charlie = (await byName()).Charlie;
    expect([charlie.amount_cents, charlie.tags.map((t) => t.name)]).toEqual([3000, ['Keep']]);
    await page.setViewportSize(PHONE);
    await page.getByLabel(/^Select “Alpha”/).check();
    await screenshot(page, 'transactions-bulk-390');
    const width = await pageWidth(page);
    expect(width.scroll).toBeLessThanOrEqual(width.inner);
    await page.context().close();
  });

  it('shows another household nothing of this one', async () => {
    const { add } = await household();
    await add({ amount: '5', name: 'Private purchase' });
    const stranger = await app.t.newHousehold();
    const page = await app.newPage();
    await signInAs(page, stranger.email, '/transactions');
    await page.getByText('No transactions yet.').waitFor();
    expect(await page.getByText('Private purchase').count()).toBe(0);
    await page.context().close();
  });
});
