import request from 'supertest';
import type { Page } from 'playwright-core';
import { createImport, waitForImport } from '../../api/test/support/imports';
import type { Household } from '../../api/test/support/test-app';
import { newProvider } from '../../api/src/sso/provider-fields';
import { SsoProvider } from '../../api/src/sso/sso.entities';
import { screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(300_000);

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** The tallest the header may be at phone width. */
const PHONE_HEADER_MAX = 64;
/** The smallest height of a control a finger has to hit. */
const TOUCH_TARGET_MIN = 40;

// Last month: inside the API's two-year window for budgets and already in the past, whenever the test runs.
const now = new Date();
const MONTH = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);

/** Wide rows: long names and notes, some with a date the configured format cannot read. */
const ROWS_CSV = [
  'Date,Amount,Description,Category,Tags,Notes,Account',
  `${MONTH}-03,-45.99,Grocer on the high street,Groceries,food|weekly,Paid with the debit card at the till,Checking`,
  `${MONTH}-04,-1200.00,Rent for the flat,Housing,home,Standing order set up with the landlord's agent,Checking`,
  `not-a-date,-12.50,Cafe,Dining,coffee,Flat white and a croissant,Checking`,
  `${MONTH}-09,2500.00,Payroll from Example Employer Ltd,Income,,Monthly salary,Checking`,
  `${MONTH}/11,-30.00,Bookshop,Leisure,,Two paperbacks,Savings`,
].join('\n');

/** Waits until the screen shows what it is checked with. */
type Ready = (page: Page) => Promise<unknown>;

interface Layout {
  /** The page's width: wider than the window means the page itself scrolls sideways. */
  scrollWidth: number;
  innerWidth: number;
  /** The app header's height; null on pages without one (sign-in, setup). */
  headerHeight: number | null;
  /** Buttons, button-styled links and form fields shown lower than a finger's touch target. */
  smallControls: string[];
}

const measure = (page: Page): Promise<Layout> =>
  page.evaluate((min) => {
    const header = document.querySelector('header');
    const controls = Array.from(document.querySelectorAll<HTMLElement>('button, a.button, select, input:not([type=checkbox]):not([type=radio]):not([type=file])'));
    const smallControls = controls
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
      .filter((el) => el.getBoundingClientRect().height < min)
      .map((el) => {
        const name = el.getAttribute('aria-label') ?? ((el as HTMLInputElement).labels?.[0] ?? el).textContent?.trim();
        return `${el.tagName.toLowerCase()} "${name}" ${Math.round(el.getBoundingClientRect().height)}px`;
      });
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      headerHeight: header ? header.getBoundingClientRect().height : null,
      smallControls,
    };
  }, TOUCH_TARGET_MIN);

/** Each table of the page: whether it is wider than the box it sits in, and whether that box says so and can be scrolled from the keyboard. */
const scrollingTables = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('table')).map((table) => {
      const box = table.closest<HTMLElement>('.table-scroll');
      const hint = box?.previousElementSibling;
      return {
        caption: table.caption?.textContent ?? '',
        scrolls: box ? box.scrollWidth > box.clientWidth : false,
        hint: hint?.classList.contains('scroll-hint') === true && hint.checkVisibility(),
        keyboard: box?.tabIndex === 0 && box.getAttribute('role') === 'region',
      };
    }),
  );

describe('browser: every screen at phone width (390 px) and desktop width (1280 px)', () => {
  let app: BrowserApp;
  let root: Household;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  async function pageAt(viewport: { width: number; height: number }): Promise<Page> {
    const context = await app.browser.newContext({ baseURL: app.baseUrl, viewport });
    return context.newPage();
  }

  /**
   * Opens `path` at both widths and saves `<screen>-390.png` and `<screen>-1280.png`; returns what is wrong at phone
   * width, each with its figures: a page wider than the phone, a header taller than PHONE_HEADER_MAX, a control lower
   * than a touch target, a table that scrolls without saying so.
   */
  async function phoneProblems(screen: string, path: string, ready: Ready, { signedIn = true, fullPage = true } = {}): Promise<string[]> {
    const problems: string[] = [];
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await pageAt(viewport);
      if (signedIn) await signInAs(page, root.email, path);
      else await page.goto(path);
      await ready(page);
      await screenshot(page, `${screen}-${viewport.width}`, { fullPage });
      if (viewport === PHONE) {
        const { scrollWidth, innerWidth, headerHeight, smallControls } = await measure(page);
        if (innerWidth !== PHONE.width) problems.push(`${screen}: the window is ${innerWidth} px wide, not ${PHONE.width}`);
        if (scrollWidth > innerWidth) problems.push(`${screen}: the page is ${scrollWidth} px wide in a ${innerWidth} px window`);
        if (signedIn && (headerHeight === null || headerHeight > PHONE_HEADER_MAX)) problems.push(`${screen}: the header is ${headerHeight} px tall`);
        problems.push(...smallControls.map((control) => `${screen}: ${control} tall`));
        for (const table of await scrollingTables(page)) {
          if (table.scrolls && !table.hint) problems.push(`${screen}: table "${table.caption}" scrolls without a hint`);
          if (table.scrolls && !table.keyboard) problems.push(`${screen}: table "${table.caption}" scrolls but not from the keyboard`);
        }
      }
      await page.context().close();
    }
    return problems;
  }

  it('first-run setup', async () => {
    expect(await phoneProblems('setup', '/sign-in', (page) => page.getByRole('heading', { name: 'Set up Hearth' }).waitFor(), { signedIn: false })).toEqual([]);
  });

  it('sign-in', async () => {
    root = await app.t.newHousehold({ role: 'super_admin' });
    await request(app.t.server).post('/sessions').send({ email: root.email, password: 'not the password' }).expect(401); // an audit row
    expect(await phoneProblems('sign-in', '/sign-in', (page) => page.getByRole('heading', { name: 'Sign in to Hearth' }).waitFor(), { signedIn: false })).toEqual([]);
  });

  /** Every screen's problems at once: a failure lists all of them. */
  async function signedInProblems(screens: [screen: string, path: string, ready: Ready, options?: { fullPage: boolean }][]): Promise<string[]> {
    const problems: string[] = [];
    for (const [screen, path, ready, options] of screens) problems.push(...(await phoneProblems(screen, path, ready, options)));
    return problems;
  }

  it('imports: the list, a new import with its preview, and an import with its rows', async () => {
    const columns = {
      date_col_label: 'Date',
      amount_col_label: 'Amount',
      name_col_label: 'Description',
      category_col_label: 'Category',
      tags_col_label: 'Tags',
      notes_col_label: 'Notes',
      account_col_label: 'Account',
    };
    const validRows = ROWS_CSV.split('\n').filter((line) => !/not-a-date|\/11/.test(line)).join('\n');
    const published = await createImport(app.t.server, root.apiKey, { raw_file_content: validRows, ...columns, publish: 'true' }).expect(201);
    expect((await waitForImport(app.t.server, root.apiKey, published.body.data.id)).status).toBe('complete');
    const pending = await createImport(app.t.server, root.apiKey, { raw_file_content: ROWS_CSV, ...columns }).expect(201);
    const importId: string = pending.body.data.id;
    expect((await waitForImport(app.t.server, root.apiKey, importId)).stats.invalid_rows_count).toBeGreaterThan(0);

    const problems = await signedInProblems([
      ['imports', '/imports', (page) => page.getByRole('table', { name: 'Imports' }).getByRole('row').nth(2).waitFor()],
      [
        'import-new',
        '/imports/new',
        async (page) => {
          await page.locator('input[type=file]').setInputFiles({ name: 'bank.csv', mimeType: 'text/csv', buffer: Buffer.from(ROWS_CSV) });
          await page.getByRole('table', { name: /Preview of the first/ }).getByRole('cell', { name: 'Bookshop' }).waitFor();
        },
      ],
      ['import-detail', `/imports/${importId}`, (page) => page.getByRole('table', { name: 'Import rows' }).getByRole('cell', { name: 'Bookshop' }).waitFor()],
    ]);
    expect(problems).toEqual([]);
  });

  it('budgets', async () => {
    const budget = await request(app.t.server).post('/api/v1/budgets').set('X-Api-Key', root.apiKey).send({ start_date: `${MONTH}-01` }).expect(201);
    const budgetId = budget.body.id ?? budget.body.data?.id;
    await request(app.t.server).patch(`/api/v1/budgets/${budgetId}`).set('X-Api-Key', root.apiKey).send({ budgeted_spending: '2000', expected_income: '2500' }).expect(200);
    const problems = await signedInProblems([
      ['budgets', `/budgets?month=${MONTH}`, (page) => page.getByRole('table', { name: /per category/ }).getByRole('row', { name: /Groceries/ }).getByRole('img').waitFor()],
    ]);
    expect(problems).toEqual([]);
  });

  it('categories and household settings', async () => {
    const food = await request(app.t.server).post('/api/v1/categories').set('X-Api-Key', root.apiKey).send({ name: 'Food and everything eaten out of the house', color: '#c2410c' }).expect(201);
    await request(app.t.server).post('/api/v1/categories').set('X-Api-Key', root.apiKey).send({ name: 'Takeaway', parent_id: food.body.id }).expect(201);
    const problems = await signedInProblems([
      ['categories', '/categories', (page) => page.getByRole('table', { name: 'Categories and their subcategories' }).getByRole('row', { name: /Takeaway/ }).waitFor()],
      ['household', '/settings/household', (page) => page.getByLabel('Household name').waitFor()],
    ]);
    expect(problems).toEqual([]);
  });

  it('users, providers and the audit log', async () => {
    const second = await app.newUser({ role: 'member', familyId: root.familyId });
    const suspended = await app.newUser({ role: 'admin', familyId: root.familyId });
    await app.t.dataSource.query(`UPDATE users SET first_name = 'Alexandra', last_name = 'Montgomery-Smythe' WHERE id = $1`, [second.id]);
    await app.t.dataSource.query(`UPDATE users SET status = 'suspended' WHERE id = $1`, [suspended.id]);
    const provider = Object.assign(newProvider('openid_connect', 'corporate-identity'), { label: 'Corporate sign-in', enabled: true, issuer: 'https://login.example.com/realms/household' });
    const { id: providerId } = await app.t.dataSource.getRepository(SsoProvider).save(provider);
    await app.t.dataSource.query(`INSERT INTO sso_identities (user_id, provider_id, uid, email) VALUES ($1, $2, 'subject-1', $3)`, [second.id, providerId, second.email]);

    const problems = await signedInProblems([
      [
        'users',
        '/admin/users',
        async (page) => {
          await page.getByRole('button', { name: `History of ${root.email}` }).click();
          await page.getByRole('table', { name: 'Sign-in and account events' }).waitFor();
        },
      ],
      [
        'user-delete-dialog',
        '/admin/users',
        async (page) => {
          await page.getByRole('button', { name: `Delete ${second.email}` }).click();
          await page.getByRole('dialog', { name: `Delete ${second.email}?` }).waitFor();
        },
        { fullPage: false },
      ],
      ['providers', '/admin/sso_providers', (page) => page.getByRole('row', { name: /Corporate sign-in/ }).waitFor()],
      [
        'provider-form',
        '/admin/sso_providers',
        async (page) => {
          await page.getByRole('button', { name: 'Add provider' }).click();
          await page.getByLabel('Issuer URL').waitFor();
        },
      ],
      ['audit-log', '/admin/sso_audit_logs', (page) => page.getByRole('table', { name: 'Audit events' }).getByRole('cell', { name: 'login failed' }).first().waitFor()],
    ]);
    expect(problems).toEqual([]);
  });

  it('API keys and security settings', async () => {
    const [{ id: providerId }] = await app.t.dataSource.query(`SELECT id FROM sso_providers WHERE name = 'corporate-identity'`);
    await app.t.dataSource.query(`INSERT INTO sso_identities (user_id, provider_id, uid, email) VALUES ($1, $2, 'subject-root', $3)`, [root.userId, providerId, root.email]);
    const problems = await signedInProblems([
      ['api-keys', '/settings/api_keys', (page) => page.getByRole('table', { name: 'Your API keys' }).getByRole('row').nth(1).waitFor()],
      ['security', '/settings/security', (page) => page.getByRole('table', { name: 'Connected accounts' }).getByRole('row').nth(1).waitFor()],
    ]);
    expect(problems).toEqual([]);
  });

  it('at phone width the navigation is behind a menu button that opens it, and closes on navigation and on Escape', async () => {
    const page = await pageAt(PHONE);
    await signInAs(page, root.email, '/imports');
    const menu = page.getByRole('button', { name: 'Menu' });
    const budgets = page.getByRole('link', { name: 'Budgets' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await budgets.isVisible()).toBe(false);
    const controlled = await menu.getAttribute('aria-controls');
    expect(controlled).toBeTruthy();

    // From the page's heading, where navigation leaves focus, the keyboard reaches it going back past the hidden links.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    await page.keyboard.press('Shift+Tab');
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator(`[id="${controlled}"]`).isVisible()).toBe(true);
    await budgets.waitFor();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await screenshot(page, 'menu-open-390');
    expect((await measure(page)).scrollWidth).toBeLessThanOrEqual(PHONE.width);

    await budgets.click();
    await page.getByRole('heading', { name: 'Budgets' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await budgets.isVisible()).toBe(false);

    await menu.click();
    await budgets.waitFor();
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await budgets.isVisible()).toBe(false);
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.context().close();

    // At desktop width the links stay in the header and there is no menu button.
    const desktop = await pageAt(DESKTOP);
    await signInAs(desktop, root.email, '/imports');
    expect(await desktop.getByRole('link', { name: 'Budgets' }).isVisible()).toBe(true);
    expect(await desktop.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    await desktop.context().close();
  });
});
