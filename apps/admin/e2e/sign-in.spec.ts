import request from 'supertest';
import type { Page } from 'playwright-core';
import { screenshot, signIn, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(120_000);

describe('browser: sign-in, navigation by role, sign-out', () => {
  let app: BrowserApp;
  let page: Page;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    page = await app.newPage();
  });
  afterEach(async () => {
    await page.context().close();
  });

  it('sends a signed-out visitor to sign-in, refuses a wrong password with the API message, then signs in', async () => {
    const admin = await app.newUser({ role: 'admin' });
    await page.goto('/settings/api_keys');
    await page.waitForURL(/\/sign-in\?next=%2Fsettings%2Fapi_keys$/);
    await expectVisible(page.getByRole('heading', { name: 'Sign in to Hearth' }));
    await screenshot(page, 'sign-in');

    await page.getByLabel('E-mail').fill(admin.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/invalid e-?mail or password/i);
    await screenshot(page, 'sign-in-error');

    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/settings\/api_keys$/); // back where the visitor wanted to go
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(expect.arrayContaining(['Imports', 'API keys', 'Users']));
    // The heading of the new page takes focus, so keyboard and screen-reader users start there.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('API keys');
  });

  it('shows members no admin screens, and the API refuses them too', async () => {
    const admin = await app.newUser({ role: 'admin' });
    const member = await app.newUser({ role: 'member', familyId: admin.familyId });
    await signIn(page, member.email);
    const links = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
    expect(links).toContain('Imports');
    expect(links).not.toContain('Users');
    await page.goto('/admin/users');
    await expectVisible(page.getByRole('heading', { name: 'Not allowed' }));
    // Focus lands on the refusal, as on every page's heading, not on the page body.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'Not allowed');
    const status = await page.evaluate(async () => (await fetch('/api/v1/admin/users', { credentials: 'include' })).status);
    expect(status).toBe(403);
  });

  it('signs out: the session cookie stops working and the app returns to sign-in', async () => {
    const admin = await app.newUser({ role: 'admin' });
    await signIn(page, admin.email);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'hearth_session');
    expect(session).toBeDefined();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    await request(app.t.server).get('/api/v1/me').set('Cookie', `hearth_session=${session!.value}`).expect(401);
  });

  it.each([
    ['revoked', 'revoked_at = now()'],
    ['left unused past SESSION_IDLE_MINUTES', "last_seen_at = now() - interval '121 minutes'"],
  ])('sends a user whose session ended (%s) back to sign-in, to the page they were on', async (_, ending) => {
    const admin = await app.newUser({ role: 'admin' });
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'Your keys' }).waitFor();
    // The page's own queries finish first: one still in flight when the session ends would send it to sign-in early.
    await page.waitForLoadState('networkidle');
    await app.t.dataSource.query(`UPDATE sessions SET ${ending} WHERE user_id = $1`, [admin.id]);

    await page.getByLabel('Name').fill('after expiry');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL(/\/sign-in\?next=%2Fsettings%2Fapi_keys$/);
    await expectVisible(page.getByRole('heading', { name: 'Sign in to Hearth' }));
  });

  it('explains a CSRF refusal after signing in again in another tab, and the retry works', async () => {
    const admin = await app.newUser({ role: 'admin' });
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'Your keys' }).waitFor();
    const other = await page.context().newPage(); // same cookie jar: a new session and CSRF token
    await signInAs(other, admin.email, '/imports');

    await page.getByLabel('Name').fill('after re-sign-in');
    await page.getByRole('button', { name: 'Create key' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/signed in again/i);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Key “after re-sign-in”').waitFor();
  });
});

describe('browser: sign-in page when local login is disabled', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp({ AUTH_LOCAL_LOGIN_ENABLED: 'false' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('hides the e-mail/password form', async () => {
    await app.newUser({ role: 'admin' }); // not a first run
    const page = await app.newPage();
    await page.goto('/sign-in');
    await expectVisible(page.getByText('E-mail and password sign-in is turned off'));
    expect(await page.getByLabel('Password').count()).toBe(0);
    await screenshot(page, 'sign-in-local-disabled');
    await page.context().close();
  });
});

async function expectVisible(locator: ReturnType<Page['getByText']>): Promise<void> {
  await locator.first().waitFor({ state: 'visible' });
}
