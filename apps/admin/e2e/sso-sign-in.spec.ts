import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { startOidcIdp, type OidcIdp } from '../../api/test/support/oidc-idp';
import { freePort, screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(180_000);

const SECRET = `secret-${randomUUID()}`;
const ALICE = `alice-${randomUUID().slice(0, 8)}@corp.example`;
const BOB = `bob-${randomUUID().slice(0, 8)}@corp.example`;
const CAROL = `carol-${randomUUID().slice(0, 8)}@corp.example`;
const DAVE = `dave-${randomUUID().slice(0, 8)}@corp.example`;
const ERIN = `erin-${randomUUID().slice(0, 8)}@corp.example`;

describe('browser: sign-in through the in-process OIDC identity provider', () => {
  let app: BrowserApp;
  let idp: OidcIdp;
  let base: string;
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    idp = await startOidcIdp({
      clients: [
        { client_id: 'hearth', client_secret: SECRET, redirect_uris: [`${base}/auth/corp/callback`], post_logout_redirect_uris: [`${base}/login`] },
        { client_id: 'hearth-trial', client_secret: SECRET, redirect_uris: [`${base}/auth/trial/callback`] },
        { client_id: 'hearth-roles', client_secret: SECRET, redirect_uris: [`${base}/auth/roles/callback`] },
        { client_id: 'hearth-away', client_secret: SECRET, redirect_uris: [`${base}/auth/away/callback`], post_logout_redirect_uris: [`${base}/login`] },
        { client_id: 'hearth-leave', client_secret: SECRET, redirect_uris: [`${base}/auth/leave/callback`], post_logout_redirect_uris: [`${base}/login`] },
      ],
      accounts: {
        alice: { email: ALICE, email_verified: true, given_name: 'Alice' },
        bob: { email: BOB, email_verified: true, groups: ['finance'] },
        carol: { email: CAROL, email_verified: true, groups: ['staff', 'hearth-owners'] },
        dave: { email: DAVE, email_verified: true },
        erin: { email: ERIN, email_verified: true },
      },
    });
    app = await startBrowserApp({ APP_URL: base, SSO_ALLOW_INSECURE_HTTP: 'true' }, port);
  });
  afterAll(async () => {
    await app?.close();
    await idp?.close();
  });

  /** A super admin's page on the providers screen, after adding an OIDC provider for `clientId` through the form. */
  async function addProvider(name: string, clientId: string, { label = '', scopes = 'openid email profile', groupRoles = [] as [string, string][] } = {}) {
    const root = await app.newUser({ role: 'super_admin' });
    const admin = await app.newPage();
    await signInAs(admin, root.email, '/admin/sso_providers');
    await admin.getByRole('button', { name: 'Add provider' }).click();
    await admin.getByLabel('Name', { exact: true }).fill(name);
    await admin.getByLabel('Button label').fill(label);
    await admin.getByLabel('Issuer URL').fill(idp.issuer);
    await admin.getByLabel('Client ID').fill(clientId);
    await admin.getByLabel('Client secret').fill(SECRET);
    await admin.getByLabel('Scopes').fill(scopes);
    for (const [index, [group, role]] of groupRoles.entries()) {
      await admin.getByRole('button', { name: 'Add group mapping' }).click();
      await admin.getByLabel(`Group ${index + 1}`, { exact: true }).fill(group);
      await admin.getByLabel(`Role for group ${index + 1}`).selectOption(role);
    }
    await admin.getByRole('button', { name: 'Save provider' }).click();
    return { admin, root };
  }

  /** Adds an OIDC provider through the form and enables it. */
  async function addEnabledProvider(name: string, clientId: string, options: Parameters<typeof addProvider>[2] = {}) {
    const { admin } = await addProvider(name, clientId, options);
    const row = admin.getByRole('row', { name: new RegExp(name) });
    await row.getByRole('button', { name: `Enable ${name}` }).click();
    await row.getByRole('button', { name: `Disable ${name}` }).waitFor();
    await admin.context().close();
  }

  /** Signs in through the provider's login page as one of its accounts, and waits for the app shell. */
  async function signInThrough(page: Page, provider: string, account: string) {
    await page.goto(`/auth/${provider}`);
    await page.getByRole('heading', { name: 'Test IdP sign-in' }).waitFor();
    await page.getByRole('button', { name: account }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  it('a super admin adds and enables an OIDC provider in the SPA; a new user signs in through it and sees it connected', async () => {
    const { admin } = await addProvider('corp', 'hearth', { label: 'Corp SSO' });
    const row = admin.getByRole('row', { name: /corp/ });
    await row.waitFor();
    expect(await row.textContent()).toContain(`${base}/auth/corp/callback`);
    const enable = row.getByRole('button', { name: 'Enable corp' });
    if (await enable.count()) {
      await enable.click();
      await row.getByRole('button', { name: 'Disable corp' }).waitFor();
    }

    // A fresh browser: the sign-in page's button for the provider, its login page, then back to Hearth, signed in
    // (account created just in time).
    const page = await app.newPage();
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
    await page.getByRole('heading', { name: 'Test IdP sign-in' }).waitFor();
    await page.getByRole('button', { name: 'alice' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByText(ALICE).count()).toBe(1);
    await page.getByRole('link', { name: 'Security' }).click();
    await page.getByRole('row', { name: /Corp SSO/ }).waitFor();
    await screenshot(page, 'settings-security');

    // The audit log shows the JIT account and the login with the provider's name.
    await admin.getByRole('link', { name: 'Audit log' }).click();
    await admin.getByLabel('Event', { exact: true }).selectOption('login');
    await admin.getByRole('row', { name: /login.*corp/ }).first().waitFor();
    await admin.getByLabel('Event', { exact: true }).selectOption('jit_account_created');
    await admin.getByRole('row', { name: /jit account created/ }).first().waitFor();
    await page.context().close();
    await admin.context().close();
  });

  it('a super admin tests a disabled provider from its row and reads what it sent; nobody is signed in or created', async () => {
    const { admin, root } = await addProvider('trial', 'hearth-trial', { scopes: 'openid email profile groups' });
    // No button label: the name stands in. A new provider starts disabled.
    const row = admin.getByRole('row', { name: /trial/ });
    await row.getByRole('button', { name: 'Enable trial' }).waitFor();

    // The provider's sign-in in this same browser, then back to the providers page with the result.
    await row.getByRole('button', { name: 'Test login with trial' }).click();
    await admin.getByRole('heading', { name: 'Test IdP sign-in' }).waitFor();
    await admin.getByRole('button', { name: 'bob' }).click();
    await admin.getByRole('heading', { name: 'Test login with trial' }).waitFor();
    await admin.getByText('The provider signed you in. Nothing was created or changed in Hearth.').waitFor();
    expect(await admin.getByText(`${BOB} (verified)`).count()).toBe(1);
    await screenshot(admin, 'sso-test-login');
    expect(await app.t.dataSource.query(`SELECT id FROM users WHERE email = $1`, [BOB])).toEqual([]);
    // Still signed in as the super admin, and the provider is still disabled.
    expect(await admin.getByText(root.email).count()).toBe(1);
    await row.getByRole('button', { name: 'Enable trial' }).waitFor();
    await admin.context().close();
  });
  it('a group -> role mapping set in the provider form gives the role at sign-in', async () => {
    await addEnabledProvider('roles', 'hearth-roles', {
      scopes: 'openid email profile groups',
      groupRoles: [
        ['staff', 'member'],
        ['hearth-owners', 'super_admin'],
      ],
    });

    // Carol is in both groups: the highest mapped role wins.
    const page = await app.newPage();
    await signInThrough(page, 'roles', 'carol');
    await page.getByText(/super admin/).first().waitFor();
    expect(await app.t.dataSource.query(`SELECT role FROM users WHERE email = $1`, [CAROL])).toEqual([{ role: 'super_admin' }]);
    await page.context().close();
  });

  it('a session left idle is signed out at the provider too: the next click goes through its end-session page to sign-in, with the reason, and signing in again returns to the page', async () => {
    await addEnabledProvider('away', 'hearth-away', { label: 'Away SSO' });
    const page = await app.newPage();
    await page.clock.install();
    await signInThrough(page, 'away', 'dave');
    await page.waitForLoadState('networkidle');
    // Two hours away: the session's last use moves back, and the page's clock forward (so its cached user is stale too).
    const [user] = await app.t.dataSource.query(`SELECT id FROM users WHERE email = $1`, [DAVE]);
    await app.t.dataSource.query(`UPDATE sessions SET last_seen_at = now() - interval '121 minutes' WHERE user_id = $1`, [user.id]);
    await page.clock.fastForward('02:01:00');
    const logouts: number[] = [];
    const refused: string[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('/auth/logout')) logouts.push(res.status());
      else if (res.status() === 401) refused.push(new URL(res.url()).pathname);
    });

    // The next click: the user and the page's keys are read again, both answer 401, and the app signs the session out
    // once and leaves for the provider.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${idp.issuer}/session/end`));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/login?error=session_idle`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Your session ended after a period of inactivity. Sign in again to continue.');
    expect(logouts).toEqual([200]);
    // The first 401 sends the page to the provider, so the other read's answer may never reach it: one or both.
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.filter((path) => !['/api/v1/me', '/api/v1/settings/api_keys'].includes(path))).toEqual([]);
    const sessions = await app.t.dataSource.query(`SELECT revoked_at FROM sessions WHERE user_id = $1`, [user.id]);
    expect(sessions).toEqual([{ revoked_at: expect.any(Date) }]);
    const [audit] = await app.t.dataSource.query(`SELECT event, provider_name FROM audit_logs WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`, [user.id]);
    expect(audit).toEqual({ event: 'logout_idp', provider_name: 'away' });

    // The provider's session is over too: signing in with it asks who is there instead of letting the machine straight
    // back in. Signed in again through it, the user is back on the page they were on.
    await page.getByRole('link', { name: 'Sign in with Away SSO' }).click();
    await page.getByRole('heading', { name: 'Test IdP sign-in' }).waitFor();
    await page.getByRole('button', { name: 'dave' }).click();
    await page.waitForURL(`${base}/settings/api_keys`);
    await page.getByRole('heading', { name: 'Your keys' }).waitFor();
    await page.context().close();
  });

  it('signing out with the button goes through the provider’s end-session page to sign-in, and signing in again starts at home', async () => {
    await addEnabledProvider('leave', 'hearth-leave', { label: 'Leave SSO' });
    const page = await app.newPage();
    await signInThrough(page, 'leave', 'erin');
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'Your keys' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${idp.issuer}/session/end`));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/login`);
    await page.getByRole('heading', { name: 'Sign in to Hearth' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('link', { name: 'Sign in with Leave SSO' }).click();
    await page.getByRole('heading', { name: 'Test IdP sign-in' }).waitFor();
    await page.getByRole('button', { name: 'erin' }).click();
    await page.waitForURL(`${base}/dashboard`);
    await page.context().close();
  });
});
