import request from 'supertest';
import type { Page } from 'playwright-core';
import { SessionsService } from '../../api/src/auth/sessions.service';
import { hashToken, SESSION_COOKIE } from '../../api/src/auth/session-token';
import { newProvider } from '../../api/src/sso/provider-fields';
import { SsoProvider } from '../../api/src/sso/sso.entities';
import { SsoRepository } from '../../api/src/sso/sso.repository';
import { User } from '../../api/src/users/user.entity';
import { PASSWORD, screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(120_000);

/**
 * Opens /settings/security in a session opened the way the SSO callback opens it, since password sign-in may be
 * impossible: by default for an account without a password, as single sign-on provisions one.
 */
async function signInThroughSso(app: BrowserApp, page: Page, { withPassword = false } = {}): Promise<void> {
  const { id } = await app.newUser({ role: 'member' });
  if (!withPassword) await app.t.dataSource.getRepository(User).update({ id }, { passwordHash: null });
  const user = await app.t.dataSource.getRepository(User).findOneByOrFail({ id });
  const providers = app.t.dataSource.getRepository(SsoProvider);
  const provider = (await providers.findOneBy({ name: 'corp' })) ?? (await providers.save(newProvider('openid_connect', 'corp')));
  const { token } = await app.t.app.get(SessionsService).openSession(user, { ip: '127.0.0.1', userAgent: 'browser spec' }, { method: 'sso' }, 'corp');
  await app.t.app.get(SsoRepository).recordSsoSession(hashToken(token), provider.id);
  await page.context().addCookies([{ name: SESSION_COOKIE, value: token, url: app.baseUrl, httpOnly: true, sameSite: 'Lax' }]);
  await page.goto('/settings/security');
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** The field is marked invalid, its error is tied to it, and it has the focus. */
async function expectFieldError(page: Page, label: string, message: RegExp): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await page.waitForFunction((el) => el?.getAttribute('aria-invalid') === 'true', await field.elementHandle());
  const described = await field.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
  expect(described).toMatch(message);
  expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
}

async function fillPasswords(page: Page, current: string, next: string, confirm = next): Promise<void> {
  await page.getByLabel('Current password').fill(current);
  await page.getByLabel('New password', { exact: true }).fill(next);
  await page.getByLabel('Confirm new password').fill(confirm);
  await page.getByRole('button', { name: 'Change password' }).click();
}

describe('browser: change password on Security settings', () => {
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

  it('puts a wrong current password, a mismatch and a policy refusal against their fields, then changes it and ends the other sessions', async () => {
    const user = await app.newUser({ role: 'member' });
    const elsewhere = await request(app.t.server).post('/sessions').send({ email: user.email, password: PASSWORD }).expect(201);
    const otherCookie = (elsewhere.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    await signInAs(page, user.email, '/settings/security');
    await page.getByRole('heading', { name: 'Change password' }).waitFor();

    const fresh = 'a brand new passphrase';
    await fillPasswords(page, 'not the password', fresh);
    await expectFieldError(page, 'Current password', /not correct/);
    await screenshot(page, 'security-change-password-wrong-current');

    await fillPasswords(page, PASSWORD, fresh, 'something else entirely');
    await expectFieldError(page, 'Confirm new password', /do not match/);

    await fillPasswords(page, PASSWORD, 'short');
    await expectFieldError(page, 'New password', /longer than or equal to 8/); // the API's policy message

    await fillPasswords(page, PASSWORD, fresh);
    const status = page.getByRole('status');
    await status.getByText(/Your password has been changed/).waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest('[role="status"]') !== null)).toBe(true);
    expect(await page.getByLabel('Current password').inputValue()).toBe('');
    await screenshot(page, 'security-change-password-done');

    // This session goes on; the one elsewhere ended; only the new password signs in.
    await page.reload();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await request(app.t.server).get('/api/v1/me').set('Cookie', otherCookie).expect(401);
    await request(app.t.server).post('/sessions').send({ email: user.email, password: PASSWORD }).expect(401);
    await request(app.t.server).post('/sessions').send({ email: user.email, password: fresh }).expect(201);
  });

  it('offers an account without a password (single sign-on) no form, and says it signs in through its identity provider', async () => {
    await signInThroughSso(app, page);
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await page.getByText(/signs in through your identity provider only and has no password/).waitFor();
    expect(await page.getByLabel('Current password').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Change password' }).count()).toBe(0);
    await screenshot(page, 'security-change-password-sso-only');
  });
});

describe('browser: Security settings when local login is disabled', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp({ AUTH_LOCAL_LOGIN_ENABLED: 'false' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('offers no password change, and says why: turned off for the role, or no password at all', async () => {
    const page = await app.newPage();
    await signInThroughSso(app, page, { withPassword: true });
    await page.getByText(/Password sign-in is turned off for your role by the administrator/).waitFor();
    expect(await page.getByLabel('Current password').count()).toBe(0);
    await page.context().close();

    const ssoOnly = await app.newPage();
    await signInThroughSso(app, ssoOnly);
    await ssoOnly.getByText(/signs in through your identity provider only and has no password/).waitFor();
    expect(await ssoOnly.getByLabel('Current password').count()).toBe(0);
    await ssoOnly.context().close();
  });
});
