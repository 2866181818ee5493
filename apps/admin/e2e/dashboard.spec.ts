import request from 'supertest';
import type { Page } from 'playwright-core';
import { waitForImport } from '../../api/test/support/imports';
import type { Household } from '../../api/test/support/test-app';
import { screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(240_000);

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

// Dates inside the reports' default ranges whenever the test runs: last month, and the first of this month.
const now = new Date();
const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
const thisMonthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);

const line = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data });

/** A checking account created with 1,000.00, a card, last month's salary, rent and dinner, and this month's groceries. */
const HOUSEHOLD = [
  line('Account', { id: 'chk', name: 'Everyday checking', balance: '1000.00', currency: 'USD', accountable_type: 'Depository', institution_name: 'First Bank' }),
  line('Account', { id: 'visa', name: 'Visa', balance: '0', currency: 'USD', accountable_type: 'CreditCard' }),
  line('Category', { id: 'inc', name: 'Income', color: '#e99537', lucide_icon: 'wallet' }),
  line('Category', { id: 'home', name: 'Housing', color: '#db5a54', lucide_icon: 'house' }),
  line('Category', { id: 'groc', name: 'Groceries', color: '#4da568', lucide_icon: 'shopping-cart' }),
  line('Category', { id: 'dine', name: 'Dining', color: '#6471eb', lucide_icon: 'utensils' }),
  line('Transaction', { id: 't1', account_id: 'chk', date: `${lastMonth}-05`, amount: '-2000.00', name: 'Salary', category_id: 'inc' }),
  line('Transaction', { id: 't2', account_id: 'chk', date: `${lastMonth}-10`, amount: '800.00', name: 'Rent', category_id: 'home' }),
  line('Transaction', { id: 't3', account_id: 'visa', date: `${lastMonth}-12`, amount: '40.00', name: 'Dinner out', category_id: 'dine' }),
  line('Transaction', { id: 't4', account_id: 'chk', date: thisMonthStart, amount: '50.25', name: 'Corner grocer', category_id: 'groc' }),
].join('\n');

describe('browser: /dashboard and /accounts', () => {
  let app: BrowserApp;
  let home: Household;

  beforeAll(async () => {
    app = await startBrowserApp();
    home = await app.t.newHousehold();
    const created = await request(app.t.server).post('/api/v1/imports').set('X-Api-Key', home.apiKey).send({ type: 'ServiceImport', raw_file_content: HOUSEHOLD, publish: 'true' }).expect(201);
    expect((await waitForImport(app.t.server, home.apiKey, created.body.data.id)).status).toBe('complete');
  });
  afterAll(async () => {
    await app?.close();
  });

  async function pageAt(viewport: { width: number; height: number }): Promise<Page> {
    const context = await app.browser.newContext({ baseURL: app.baseUrl, viewport });
    return context.newPage();
  }

  /** How much wider than its window the page is (0 when it fits). */
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  it('is the home page after sign-in; without accounts it says to import a file', async () => {
    const empty = await app.t.newHousehold();
    const page = await app.newPage();
    await signInAs(page, empty.email, '/');
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('heading', { name: 'No accounts yet' }).waitFor();
    await screenshot(page, 'dashboard-empty-1280');
    await page.getByRole('link', { name: 'Import a file' }).click();
    await page.waitForURL(/\/imports\/new$/);
    await page.context().close();
  });

  it('shows net worth, the month against its budget, cash flow, spending and recent transactions, each leading on', async () => {
    const page = await app.newPage();
    await signInAs(page, home.email, '/');
    await page.waitForURL(/\/dashboard$/);
    // 1,000.00 + 2,000.00 − 800.00 − 50.25 in checking, less the 40.00 the card owes.
    const netWorth = page.getByRole('link', { name: 'Net worth $2,109.75: see the accounts' });
    await netWorth.waitFor();
    await page.getByRole('img', { name: /^Net worth from .* to .* \(\$2,109\.75\)$/ }).waitFor();
    await page.getByText('No budget for this month yet.').waitFor();
    const cashFlow = page.getByRole('region', { name: 'Cash flow' });
    await cashFlow.getByRole('definition').filter({ hasText: '$2,000.00' }).waitFor(); // last month's salary
    await cashFlow.getByRole('definition').filter({ hasText: '$1,160.00' }).waitFor(); // its net: 2,000.00 − 800.00 − 40.00
    const spending = page.getByRole('region', { name: 'Spending by category' });
    await spending.getByRole('link', { name: 'Groceries' }).waitFor();
    await spending.locator('.spending-figure', { hasText: '$50.25 (100%)' }).waitFor();
    const recent = page.getByRole('region', { name: 'Recent transactions' });
    await recent.getByText('Corner grocer').waitFor();
    // Spending is negative and marked so; income positive.
    expect(await recent.locator('.money.negative').first().textContent()).toBe('-$50.25');
    expect(await recent.getByText('$2,000.00').getAttribute('class')).toBe('money');
    await screenshot(page, 'dashboard-1280');

    // The figure is a link, reached and followed from the keyboard.
    await netWorth.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/accounts$/);
    await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
    await page.context().close();
  });

  it('groups accounts by type with balances and sparklines, and opens one with its chart and register', async () => {
    const page = await app.newPage();
    await signInAs(page, home.email, '/accounts');
    const cash = page.getByRole('region', { name: 'Cash' });
    await cash.getByRole('link', { name: /Everyday checking/ }).waitFor();
    await cash.getByText('$2,149.75').waitFor();
    await cash.getByRole('img', { name: 'Everyday checking: up over the last 90 days' }).waitFor();
    await page.getByRole('img', { name: 'Visa: owed more over the last 90 days' }).waitFor();
    const cards = page.getByRole('region', { name: 'Credit cards' });
    expect(await cards.locator('.money').textContent()).toBe('$40.00');
    expect(await cards.locator('.money').getAttribute('class')).toContain('negative'); // owed
    await screenshot(page, 'accounts-1280');

    await cash.getByRole('link', { name: /Everyday checking/ }).click();
    await page.getByRole('heading', { name: 'Everyday checking', level: 1 }).waitFor();
    await page.getByRole('img', { name: /^Balance from .* to .* \(\$2,149\.75\)$/ }).waitFor();
    const register = page.getByRole('table', { name: 'Transactions of this account, newest first' });
    await register.getByRole('rowheader', { name: 'Corner grocer' }).waitFor();
    expect(await register.getByRole('row').count()).toBe(4); // the header and three transactions
    await screenshot(page, 'account-1280');
    await page.getByRole('link', { name: 'Accounts' }).first().click();
    await page.waitForURL(/\/accounts$/);
    await page.context().close();
  });

  it('fits a 390 px phone: no sideways page, the menu leads to both screens', async () => {
    const checking = (await app.t.dataSource.query(`SELECT id FROM accounts WHERE family_id = $1 AND name = 'Everyday checking'`, [home.familyId]))[0].id;
    const problems: string[] = [];
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await pageAt(viewport);
      for (const [screen, path, ready] of [
        ['dashboard', '/dashboard', () => page.getByRole('region', { name: 'Recent transactions' }).getByText('Corner grocer').waitFor()],
        ['accounts', '/accounts', () => page.getByRole('region', { name: 'Cash' }).getByText('$2,149.75').waitFor()],
        ['account', `/accounts/${checking}`, () => page.getByRole('rowheader', { name: 'Corner grocer' }).waitFor()],
      ] as const) {
        if (screen === 'dashboard') await signInAs(page, home.email, path);
        else await page.goto(path);
        await ready();
        await page.waitForLoadState('networkidle');
        await screenshot(page, `${screen}-${viewport.width}`);
        const wider = await overflow(page);
        if (wider > 0) problems.push(`${screen} at ${viewport.width} px: ${wider} px too wide`);
      }
      if (viewport === PHONE) {
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('link', { name: 'Dashboard' }).click();
        await page.waitForURL(/\/dashboard$/);
      }
      await page.context().close();
    }
    expect(problems).toEqual([]);
  });

  it('adds an account, edits it, sets its balance, closes and reopens it, and deletes it after saying what goes', async () => {
    const h = await app.t.newHousehold();
    const problems: string[] = [];
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await pageAt(viewport);
      const width = viewport.width;
      await signInAs(page, h.email, '/accounts');
      await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Add account' }).click();
      const add = page.getByRole('dialog', { name: 'Add an account' });
      await add.getByLabel('Name').fill(`Savings ${width}`);
      await add.getByLabel('Balance (optional)').fill('12,00');
      await add.getByLabel('Balance as of').fill('2026-01-01');
      await add.getByRole('button', { name: 'Add account' }).click();
      await add.getByRole('alert').filter({ hasText: 'The balance must be a decimal amount' }).waitFor(); // refused at the field
      await add.getByLabel('Balance (optional)').fill('1200.50');
      await screenshot(page, `account-add-${width}`);
      await add.getByRole('button', { name: 'Add account' }).click();
      await page.getByRole('heading', { name: `Savings ${width}`, level: 1 }).waitFor();
      await page.getByText('$1,200.50').first().waitFor();

      await page.getByRole('button', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: `Edit “Savings ${width}”` });
      await edit.getByLabel('Name').fill(`Rainy day ${width}`);
      await edit.getByLabel('Institution (optional)').fill('Credit Union');
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { name: `Rainy day ${width}`, level: 1 }).waitFor();

      await page.getByRole('button', { name: 'Update balance' }).click();
      const balance = page.getByRole('dialog', { name: `Update the balance of “Rainy day ${width}”` });
      await balance.getByLabel('Balance (USD)').fill('1500');
      await screenshot(page, `account-balance-${width}`);
      await balance.getByRole('button', { name: 'Update balance' }).click();
      await page.getByRole('status').filter({ hasText: 'Balance set to $1,500.00.' }).waitFor();

      await page.getByRole('button', { name: 'Close account' }).click();
      await page.getByRole('status').filter({ hasText: 'Closed: its history stays' }).waitFor();
      await page.getByRole('heading', { name: `Rainy day ${width}` }).getByText('closed').waitFor();
      await screenshot(page, `account-actions-${width}`);
      const wider = await overflow(page);
      if (wider > 0) problems.push(`account at ${width} px: ${wider} px too wide`);
      await page.getByRole('link', { name: 'Accounts' }).first().click();
      await page.getByRole('region', { name: 'Cash' }).getByRole('link', { name: /Rainy day .*closed/ }).click();
      await page.getByRole('button', { name: 'Reopen account' }).click();
      await page.getByRole('status').filter({ hasText: 'Reopened' }).waitFor();

      await page.getByRole('button', { name: 'Delete' }).click();
      const remove = page.getByRole('dialog', { name: `Delete “Rainy day ${width}”?` });
      await remove.getByText('0 transactions, 2 balance entries and 0 trades are deleted with it').waitFor();
      await screenshot(page, `account-delete-${width}`);
      await remove.getByRole('button', { name: 'Delete account' }).click();
      await page.waitForURL(/\/accounts$/);
      await page.getByRole('heading', { name: 'No accounts yet' }).waitFor();
      await page.context().close();
    }
    expect(problems).toEqual([]);
    expect(await app.t.dataSource.query(`SELECT count(*)::int AS n FROM accounts WHERE family_id = $1`, [h.familyId])).toEqual([{ n: 0 }]);
  });
});
