import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { startOidcIdp, type OidcIdp } from '../../api/test/support/oidc-idp';
import { signIn as apiSignIn } from '../../api/test/support/sessions';
import { createProvider } from '../../api/test/support/sso';
import { freePort, PASSWORD, screenshot, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(180_000);

const SECRET = `secret-${randomUUID()}`;

/**
 * A provider sign-in whose e-mail is that of an existing account stops at /sso/link: the account's password links the
 * identity and signs in; a wrong one is refused and audited; another browser has nothing to complete.
 */
describe('browser: linking a provider sign-in to an existing account at /sso/link', () => {
  let app: BrowserApp;
  let idp: OidcIdp;
  let base: string;
  let local: { id: string; email: string };

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await startBrowserApp({ APP_URL: base, SSO_ALLOW_INSECURE_HTTP: 'true' }, port);
    local = await app.newUser({ role: 'member' });
    idp = await startOidcIdp({
      clients: [{ client_id: 'hearth', client_secret: SECRET, redirect_uris: [`${base}/auth/corp/callback`] }],
      accounts: { kim: { email: local.email, email_verified: true, given_name: 'Kim' } },
    });
    const root = await app.newUser({ role: 'super_admin' });
    const admin = await apiSignIn(app.t.server, root.email);
    await createProvider(app.t.server, admin, { name: 'corp', label: 'Corp SSO', strategy: 'openid_connect', issuer: idp.issuer, client_id: 'hearth', client_secret: SECRET, enabled: true });
  });
  afterAll(async () => {
    await app?.close();
    await idp?.close();
  });

  /** Signs in at the provider as `account`, whose e-mail is a local account's: the app asks for that account's password. */
  async function reachLinkPage(page: Page, account = 'kim'): Promise<void> {
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await page.getByRole('heading', { name: 'Test IdP sign-in' }).waitFor();
    await page.getByRole('button', { name: account }).click();
    await page.waitForURL(`${base}/sso/link`);
    await page.getByRole('heading', { name: 'Link Corp SSO to your account' }).waitFor();
  }

  const identities = () => app.t.dataSource.query(`SELECT p.name FROM sso_identities i JOIN sso_providers p ON p.id = i.provider_id WHERE i.user_id = $1`, [local.id]);

  it('refuses a wrong password (audited), shows nothing to another browser, and links with the right one', async () => {
    const page = await app.newPage();
    await reachLinkPage(page);
    expect(await page.getByText(local.email).count()).toBe(1);
    await screenshot(page, 'sso-link');

    // A wrong password: refused, audited, nothing linked, nobody signed in.
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Link and sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('The password is not correct for this account.');
    const [failure] = await app.t.dataSource.query(
      `SELECT details->>'reason' AS reason, provider_name FROM audit_logs WHERE event = 'login_failed' AND user_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [local.id],
    );
    expect(failure).toEqual({ reason: 'link_password_invalid', provider_name: 'corp' });
    expect(await identities()).toEqual([]);
    await screenshot(page, 'sso-link-wrong-password');

    // Another browser opening the address has nothing to link, and cannot complete this one with the password.
    const other = await app.newPage();
    await other.goto('/sso/link');
    await other.getByText('No sign-in is waiting to be linked in this browser, or it expired after ten minutes.').waitFor();
    expect((await other.context().request.post('/auth/link', { data: { password: PASSWORD } })).status()).toBe(404);
    expect(await identities()).toEqual([]);
    await screenshot(other, 'sso-link-other-browser');
    await other.setViewportSize({ width: 390, height: 844 });
    await screenshot(other, 'sso-link-other-browser-390');
    await other.context().close();

    // The right password: linked and signed in as the account, the identity listed in Security.
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Link and sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByText(local.email).count()).toBe(1);
    expect(await identities()).toEqual([{ name: 'corp' }]);
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('row', { name: /Corp SSO/ }).waitFor();
    await screenshot(page, 'sso-link-linked');
    await page.context().close();

    // From then on the provider signs in to the account directly.
    const later = await app.newPage();
    await later.goto('/auth/corp');
    await later.getByRole('heading', { name: 'Test IdP sign-in' }).waitFor();
    await later.getByRole('button', { name: 'kim' }).click();
    await later.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await later.getByText(local.email).count()).toBe(1);
    await later.context().close();
  });

  it('fits a phone screen', async () => {
    const another = await app.newUser({ role: 'member' });
    idp.accounts.lee = { email: another.email, email_verified: true };
    const page = await app.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await reachLinkPage(page, 'lee');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Link and sign in' }).click();
    await page.getByRole('alert').waitFor();
    await screenshot(page, 'sso-link-390');
    await page.context().close();
  });
});
