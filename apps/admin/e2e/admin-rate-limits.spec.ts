import type { Page } from 'playwright-core';
import { screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(120_000);

const WAIT_MESSAGE = /^Too many requests\. Try again in \d+ seconds?\.$/;

/**
 * A read of an admin list refused by the rate limit shows the wait the API gave (Retry-After) where the list would be,
 * never an empty list or the list read before. Reads have a low budget here (4 a minute), so the refusal comes soon.
 */
describe('browser: requests refused by a rate limit say how long to wait', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp({ RATE_LIMIT_ADMIN_READS_PER_MINUTE: '4', RATE_LIMIT_LOGIN_PER_MINUTE: '2', TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await app?.close();
  });

  /** A browser at client address `ip` (through the trusted loopback proxy): each test has a read budget of its own. */
  async function pageAt(ip: string): Promise<Page> {
    const context = await app.browser.newContext({ baseURL: app.baseUrl, viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { 'X-Forwarded-For': ip } });
    return context.newPage();
  }

  /** The alerts of the page that say to wait, once the page has settled. */
  async function waitAlerts(page: Page): Promise<string[]> {
    await page.getByRole('alert').first().waitFor();
    await page.waitForLoadState('networkidle');
    return (await page.getByRole('alert').allTextContents()).map((text) => text.replace(/Try again$/, '').trim());
  }

  it('the users page, loaded a third time within the minute, says to wait in both panels and shows no empty list', async () => {
    const root = await app.newUser({ role: 'super_admin' });
    const page = await pageAt('198.51.100.1');
    // Each load of the users page reads two admin lists: the users and the removed SSO identities.
    await signInAs(page, root.email, '/admin/users');
    await page.getByRole('row', { name: new RegExp(root.email) }).waitFor();
    await page.getByText('No removed SSO identities.').waitFor();
    await page.reload();
    await page.getByRole('row', { name: new RegExp(root.email) }).waitFor();
    await page.reload();

    const alerts = await waitAlerts(page);
    expect(alerts).toHaveLength(2);
    for (const text of alerts) expect(text).toMatch(WAIT_MESSAGE);
    for (const button of await page.getByRole('button', { name: 'Try again' }).all()) expect(await button.isDisabled()).toBe(true);
    expect(await page.locator('.empty').count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
    await screenshot(page, 'admin-users-rate-limited');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'admin-users-rate-limited-390');
    await page.context().close();
  });

  it('a provider saved while reads are refused is not shown as "No provider yet": the list says to wait', async () => {
    const root = await app.newUser({ role: 'super_admin' });
    const page = await pageAt('198.51.100.2');
    await signInAs(page, root.email, '/admin/sso_providers');
    await page.getByText('No provider yet: only e-mail and password sign-in is available.').waitFor();
    // Spend the rest of this minute's reads, as other admin tabs would.
    for (let i = 0; i < 3; i++) await page.context().request.get('/api/v1/admin/sso_providers');

    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByLabel('Name', { exact: true }).fill('corp');
    await page.getByLabel('Strategy').selectOption('oauth2');
    await page.getByLabel('Authorization URL').fill('https://idp.example.test/authorize');
    await page.getByLabel('Token URL').fill('https://idp.example.test/token');
    await page.getByLabel('User info URL').fill('https://idp.example.test/userinfo');
    await page.getByLabel('Client ID').fill('hearth');
    await page.getByLabel('Client secret').fill('a-client-secret');
    await page.getByRole('button', { name: 'Save provider' }).click();

    const alerts = await waitAlerts(page);
    expect(alerts).toEqual([expect.stringMatching(WAIT_MESSAGE)]);
    expect(await page.getByText('No provider yet').count()).toBe(0);
    expect(await app.t.dataSource.query(`SELECT name FROM sso_providers`)).toEqual([{ name: 'corp' }]);
    await screenshot(page, 'admin-providers-rate-limited');
    await page.context().close();
  });

  it('an SSO sign-in refused by the sign-in limit lands on the sign-in page, which says how long to wait', async () => {
    const page = await pageAt('198.51.100.3');
    // Two sign-in attempts (each start at /auth/<name> is one; this provider does not exist), then a third.
    for (let i = 0; i < 2; i++) {
      await page.goto('/auth/corp');
      await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('error') === 'sso_provider_unavailable');
    }
    await page.goto('/auth/corp');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('error') === 'rate_limited');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^Too many sign-in attempts from your network\. Wait \d+ seconds?, then try again\.$/);
    await screenshot(page, 'sign-in-rate-limited');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'sign-in-rate-limited-390');
    await page.context().close();
  });
});
