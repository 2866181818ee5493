import request from 'supertest';
import type { Page } from 'playwright-core';
import { createImport, newAccount, waitForImport } from '../../api/test/support/imports';
import { screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(180_000);

const PHONE = { width: 390, height: 844 };

describe('browser: /categories', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const stored = (familyId: string) =>
    app.t.dataSource.query(
      `SELECT c.name, c.color, c.lucide_icon AS icon, c.classification, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id
        WHERE c.family_id = $1 ORDER BY c.name`,
      [familyId],
    );
  const categoryOfTransaction = async (familyId: string, name: string) =>
    (
      await app.t.dataSource.query(
        `SELECT c.name FROM entries e JOIN transactions t ON t.entry_id = e.id LEFT JOIN categories c ON c.id = t.category_id WHERE e.family_id = $1 AND e.name = $2`,
        [familyId, name],
      )
    )[0].name;

  const table = (page: Page) => page.getByRole('table', { name: 'Categories and their subcategories' });
  const row = (page: Page, name: string) => table(page).getByRole('row', { name: new RegExp(`^${name}\\b`) });

  it('says what to do when there are none, then adds, renames, recolours, moves and merges', async () => {
    const h = await app.t.newHousehold();
    const page = await app.newPage();
    await signInAs(page, h.email);
    await page.getByRole('link', { name: 'Categories' }).click();
    await page.getByRole('heading', { name: 'Categories', level: 1 }).waitFor();
    await page.getByText('No categories yet. Add one above').waitFor();
    await screenshot(page, 'categories-empty');

    // Add a top-level category in a colour of the palette, by keyboard.
    await page.getByLabel('Name').fill('Food');
    await page.getByLabel('Icon').fill('utensils');
    await page.getByRole('radio', { name: 'Green' }).check();
    await page.getByRole('button', { name: 'Add category' }).click();
    await page.getByRole('status').filter({ hasText: 'Added “Food”.' }).waitFor();
    await row(page, 'Food').waitFor();

    // A subcategory: the colour picker gives way to the parent's colour.
    await page.getByLabel('Name').fill('Restaurants');
    await page.getByLabel('Parent').selectOption({ label: 'Food' });
    await page.getByText("A subcategory takes its parent's colour.").waitFor();
    await page.getByRole('button', { name: 'Add category' }).click();
    await row(page, 'Restaurants').waitFor();
    await page.getByLabel('Name').fill('Dining out');
    await page.getByLabel('Parent').selectOption('');
    await page.getByLabel('Type').selectOption('expense');
    await page.getByRole('button', { name: 'Add category' }).click();
    await row(page, 'Dining out').waitFor();

    // A name already used is refused at the field.
    await page.getByLabel('Name').fill('Food');
    await page.getByRole('button', { name: 'Add category' }).click();
    await page.getByRole('alert').filter({ hasText: 'The name is already used by another category of this household: Food.' }).waitFor();
    await page.getByLabel('Name').fill('');

    expect(await stored(h.familyId)).toEqual([
      { name: 'Dining out', color: '#0f766e', icon: 'shapes', classification: 'expense', parent: null },
      { name: 'Food', color: '#15803d', icon: 'utensils', classification: 'expense', parent: null },
      { name: 'Restaurants', color: '#15803d', icon: 'shapes', classification: 'expense', parent: 'Food' },
    ]);

    // Rename and recolour Food: its subcategory follows the colour.
    await page.getByRole('button', { name: 'Edit Food' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit “Food”' });
    await edit.getByLabel('Name').fill('Food & drink');
    await edit.getByRole('radio', { name: 'Blue' }).check();
    await screenshot(page, 'categories-edit', { fullPage: false });
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved “Food & drink”.' }).waitFor();
    await row(page, 'Food & drink').waitFor();

    // Move Restaurants under Dining out.
    await page.getByRole('button', { name: 'Edit Restaurants' }).click();
    const move = page.getByRole('dialog', { name: 'Edit “Restaurants”' });
    await move.getByLabel('Parent').selectOption({ label: 'Dining out' });
    await move.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved “Restaurants”.' }).waitFor();
    expect(await stored(h.familyId)).toEqual([
      { name: 'Dining out', color: '#0f766e', icon: 'shapes', classification: 'expense', parent: null },
      { name: 'Food & drink', color: '#1d4ed8', icon: 'utensils', classification: 'expense', parent: null },
      { name: 'Restaurants', color: '#0f766e', icon: 'shapes', classification: 'expense', parent: 'Dining out' },
    ]);
    await page.context().close();
  });

  it('merges one category into another and deletes one without a replacement, with what moves said first', async () => {
    const h = await app.t.newHousehold();
    const csv = ['Date,Amount,Description,Category', '2026-10-02,-12.50,Bakery,Bread', '2026-10-03,-40.00,Grocer,Groceries', '2026-10-04,-5.00,Kiosk,Snacks'].join('\n');
    const columns = { date_col_label: 'Date', amount_col_label: 'Amount', name_col_label: 'Description', category_col_label: 'Category' };
    const created = await createImport(app.t.server, h.apiKey, { raw_file_content: csv, ...columns, account_id: await newAccount(app.t, h, 'Checking'), publish: 'true' }).expect(201);
    expect((await waitForImport(app.t.server, h.apiKey, created.body.data.id)).status).toBe('complete');

    const page = await app.newPage();
    await signInAs(page, h.email, '/categories');
    await row(page, 'Bread').getByRole('cell', { name: '1', exact: true }).waitFor();
    await screenshot(page, 'categories');

    await page.getByRole('button', { name: 'Delete or merge Bread' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete or merge “Bread”' });
    await dialog.getByText('Its 1 transaction becomes uncategorised, and its budget limits are removed.').waitFor();
    await dialog.getByLabel('Move its transactions to').selectOption({ label: 'Groceries' });
    await dialog.getByText('Its 1 transaction moves to “Groceries”').waitFor();
    await screenshot(page, 'categories-merge', { fullPage: false });
    await dialog.getByRole('button', { name: 'Merge into “Groceries”' }).click();
    await page.getByRole('status').filter({ hasText: 'Merged “Bread” into “Groceries”: 1 transaction moved.' }).waitFor();
    await row(page, 'Groceries').getByRole('cell', { name: '2', exact: true }).waitFor();
    expect(await categoryOfTransaction(h.familyId, 'Bakery')).toBe('Groceries');

    await page.getByRole('button', { name: 'Delete or merge Snacks' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete category' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted “Snacks”: 1 transaction left uncategorised.' }).waitFor();
    expect(await categoryOfTransaction(h.familyId, 'Kiosk')).toBeNull();
    expect((await stored(h.familyId)).map((c: { name: string }) => c.name)).toEqual(['Groceries']);
    await page.context().close();
  });

  it('at 390 px: the menu leads to it, rows become cards, the dialog fits, and the keyboard reaches every action', async () => {
    const h = await app.t.newHousehold();
    const post = (body: object) => request(app.t.server).post('/api/v1/categories').set('X-Api-Key', h.apiKey).send(body).expect(201);
    const housing = (await post({ name: 'Housing', color: '#0369a1', icon: 'home' })).body.id;
    await post({ name: 'Rent and service charges for the flat', parent_id: housing });
    await post({ name: 'Salary', classification: 'income', color: '#15803d' });
    const context = await app.browser.newContext({ baseURL: app.baseUrl, viewport: PHONE });
    const page = await context.newPage();
    await signInAs(page, h.email, '/imports');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Categories' }).click();
    await row(page, 'Salary').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'categories-cards-390');

    // From the heading, Tab reaches the form's fields, then each row's actions, in order.
    const reached: string[] = [];
    await page.getByRole('heading', { name: 'Categories', level: 1 }).focus();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim() ?? ''));
    }
    expect(reached).toEqual(expect.arrayContaining(['Edit Housing', 'Delete or merge Housing', 'Edit Salary', 'Delete or merge Salary']));
    await page.getByRole('button', { name: 'Edit Housing' }).focus();
    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog', { name: 'Edit “Housing”' });
    await edit.getByLabel('Name').waitFor();
    expect(await edit.getByLabel('Parent').isDisabled()).toBe(true); // it has a subcategory
    await screenshot(page, 'categories-edit-390', { fullPage: false });
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'hidden' });
    await context.close();
  });
});
