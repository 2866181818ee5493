import type { Page } from 'playwright-core';
import { AuditService } from '../../api/src/audit/audit.service';
import { screenshot, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(180_000);

// A new instance: first-run setup with a currency picker and errors at each field, then the audit log in words.
describe('browser: first use', () => {
  let app: BrowserApp;
  let page: Page;
  beforeAll(async () => {
    app = await startBrowserApp(); // a database of its own, with no user yet
    page = await app.newPage();
  });
  afterAll(async () => {
    await app?.close();
  });

  const field = (label: string) => page.getByLabel(label, { exact: true });
  /** The message shown at a field: the alert its control is described by. */
  const errorAt = (label: string) =>
    field(label).evaluate((control) => {
      const ids = (control.getAttribute('aria-describedby') ?? '').split(' ');
      return ids.map((id) => document.getElementById(id)).find((el) => el?.getAttribute('role') === 'alert')?.textContent ?? null;
    });

  it('sets up the first administrator: a currency picker, and what is wrong said at each field in words', async () => {
    await page.goto('/sign-in');
    await page.getByText('No account exists yet. Create the first administrator.').waitFor();
    const currency = field('Currency');
    expect(await currency.inputValue()).toBe('USD');
    const options = await currency.locator('option').allTextContents();
    expect(options).toEqual(expect.arrayContaining(['USD — US Dollar', 'EUR — Euro', 'JPY — Japanese Yen']));
    expect(options.some((o) => o.startsWith('XYZ'))).toBe(false);

    // Nothing filled in: each field says what it needs, and focus goes to the first of them.
    await field('Household name').fill('   ');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    expect({
      email: await errorAt('E-mail'),
      password: await errorAt('Password'),
      household: await errorAt('Household name'),
      currency: await errorAt('Currency'),
    }).toEqual({
      email: 'Enter an e-mail address such as you@example.com.',
      password: 'Choose a password of at least 8 characters.',
      household: 'Enter a name for your household, such as The Smiths.',
      currency: null,
    });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    await screenshot(page, 'setup-field-errors');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'setup-field-errors-phone');
    await page.setViewportSize({ width: 1280, height: 900 });

    // What only the API can tell (an address of more than 320 characters) lands at its field too, not in a paragraph.
    await field('E-mail').fill(`${'a'.repeat(320)}@example.com`);
    await field('Password').fill('a long passphrase');
    await field('Household name').fill('The Firsts');
    await currency.selectOption('EUR');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForFunction(() => document.querySelector('[aria-invalid="true"]')?.getAttribute('type') === 'email');
    expect(await errorAt('E-mail')).toMatch(/^The e-mail address must be .*\.$/);
    expect(await errorAt('Household name')).toBeNull();

    await field('E-mail').fill('first@example.com');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const [family] = await app.t.dataSource.query(`SELECT f.currency FROM families f JOIN users u ON u.family_id = f.id WHERE u.email = 'first@example.com'`);
    expect(family.currency).toBe('EUR');
  });

  it('shows audit details as readable label/value text, and who acted (an operator command is the command line)', async () => {
    const [user] = await app.t.dataSource.query(`SELECT id, family_id FROM users WHERE email = 'first@example.com'`);
    await app.t.app.get(AuditService).record('api_key_created', {
      actor: 'cli',
      userId: user.id,
      familyId: user.family_id,
      details: { api_key_id: '3f1c2b4a-0000-4000-8000-000000000001', prefix: 'hth_ab12cd34', scope: 'read_write' },
    });
    await page.goto('/admin/sso_audit_logs');
    const row = page.getByRole('row', { name: /api key created/ });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('Command line');
    // Each detail a term and its value (the colon between them is drawn by the style sheet).
    const details = await row.locator('dl > div').evaluateAll((lines) => lines.map((line) => `${line.querySelector('dt')?.textContent}=${line.querySelector('dd')?.textContent}`));
    expect(details.sort()).toEqual(['API key=3f1c2b4a', 'Prefix=hth_ab12cd34', 'Scope=read_write']);
    expect(await page.locator('table').textContent()).not.toContain('{"');
    const login = page.getByRole('row', { name: /^.*login.*App or API/ }).first();
    await login.waitFor();
    await screenshot(page, 'audit-log-details');
  });
});
