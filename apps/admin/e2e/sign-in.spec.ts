import request from 'supertest';
import type { Page } from 'playwright-core';
import { LogMailer, MAILER } from '../../api/src/auth/mailer';
import { hashToken } from '../../api/src/auth/session-token';
import { freePort, PASSWORD, screenshot, signIn, signInAs, startBrowserApp, submitSignIn, type BrowserApp } from './support/browser-app';

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

  it('signs out once with the button when the session was already revoked: one refused logout, then sign-in', async () => {
    const admin = await app.newUser({ role: 'admin' });
    await signIn(page, admin.email);
    await page.waitForLoadState('networkidle');
    await app.t.dataSource.query(`UPDATE sessions SET revoked_at = now() WHERE user_id = $1`, [admin.id]);
    const logouts: number[] = [];
    page.on('response', (res) => void (res.url().endsWith('/auth/logout') && logouts.push(res.status())));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    await quiet(page);
    expect(logouts).toEqual([401]);
  });

  it.each([
    ['revoked', 'revoked_at = now()', false],
    ['left unused past SESSION_IDLE_MINUTES', "last_seen_at = now() - interval '121 minutes'", true],
  ])('sends a user whose session ended (%s) to sign-in, and back to the page they were on once signed in again', async (_, ending, idle) => {
    const admin = await app.newUser({ role: 'admin' });
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'Your keys' }).waitFor();
    // The page's own queries finish first: one still in flight when the session ends would send it to sign-in early.
    await page.waitForLoadState('networkidle');
    await app.t.dataSource.query(`UPDATE sessions SET ${ending} WHERE user_id = $1`, [admin.id]);
    const logouts: number[] = [];
    page.on('response', (res) => void (res.url().endsWith('/auth/logout') && logouts.push(res.status())));

    await page.getByLabel('Name').fill('after expiry');
    await page.getByRole('button', { name: 'Create key' }).click();
    // An idle session's page is kept for its user alone, not in the address (where it would send whoever signs in).
    await page.waitForURL(idle ? /\/sign-in\?error=session_idle$/ : /\/sign-in\?next=%2Fsettings%2Fapi_keys$/);
    await expectVisible(page.getByRole('heading', { name: 'Sign in to Hearth' }));
    // The app signed the session out once: an idle one is ended (no provider here, so sign-in with the reason); a
    // revoked one answers 401 and there is nothing to say but sign in.
    await quiet(page);
    expect(logouts).toEqual([idle ? 200 : 401]);
    const alert = page.getByRole('alert');
    if (idle) expect(await alert.textContent()).toBe('Your session ended after a period of inactivity. Sign in again to continue.');
    else expect(await alert.count()).toBe(0);
    const [row] = await app.t.dataSource.query(`SELECT revoked_at FROM sessions WHERE user_id = $1`, [admin.id]);
    expect(row.revoked_at).not.toBeNull();
    if (idle) await screenshot(page, 'sign-in-after-idle');

    await submitSignIn(page, admin.email);
    await page.waitForURL(/\/settings\/api_keys$/);
    await page.getByRole('heading', { name: 'Your keys' }).waitFor();
  });

  it('brings a user whose session went idle back to the page and query they were on, after a reload of it too', async () => {
    const admin = await app.newUser({ role: 'admin' });
    await signInAs(page, admin.email, '/budgets?month=2024-03');
    await page.getByRole('button', { name: 'Start this month’s budget' }).waitFor();
    await page.waitForLoadState('networkidle');
    await app.t.dataSource.query(`UPDATE sessions SET last_seen_at = now() - interval '121 minutes' WHERE user_id = $1`, [admin.id]);
    const logouts: number[] = [];
    page.on('response', (res) => void (res.url().endsWith('/auth/logout') && logouts.push(res.status())));

    // A reload: the page starts with /me, which answers 401; the app signs the idle session out all the same.
    await page.reload();
    await page.waitForURL(/\/sign-in\?error=session_idle$/);
    await expectVisible(page.getByRole('alert'));
    expect(logouts).toEqual([200]);
    await submitSignIn(page, admin.email);
    await page.waitForURL(/\/budgets\?month=2024-03$/);
    await page.getByRole('button', { name: 'Start this month’s budget' }).waitFor();
  });

  it("sends someone else who signs in on that browser after an idle sign-out home, not to the previous user's page", async () => {
    const first = await app.newUser({ role: 'admin' });
    const second = await app.newUser({ role: 'admin' });
    await signInAs(page, first.email, '/budgets?month=2024-03');
    const start = page.getByRole('button', { name: 'Start this month’s budget' });
    await start.waitFor();
    await page.waitForLoadState('networkidle');
    await app.t.dataSource.query(`UPDATE sessions SET last_seen_at = now() - interval '121 minutes' WHERE user_id = $1`, [first.id]);

    await start.click();
    await page.waitForURL(/\/sign-in\?error=session_idle$/);
    const visited: string[] = [];
    page.on('framenavigated', (frame) => void (frame === page.mainFrame() && visited.push(new URL(frame.url()).pathname)));
    await submitSignIn(page, second.email);
    await page.waitForURL(/\/dashboard$/);
    await expectVisible(page.getByText(second.email));
    // Not even on the way: the second user never passes through the first one's page.
    expect(visited).not.toContain('/budgets');
  });

  it.each(['//example.com/', '/\\example.com/', '/\t/example.com/', 'https://example.com/'])('sends a sign-in whose next leaves the app (%j) home', async (next) => {
    const admin = await app.newUser({ role: 'admin' });
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await submitSignIn(page, admin.email);
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/dashboard$/);
  });

  it('lands a user who signed out with the button on sign-in, and at home once signed in again', async () => {
    const admin = await app.newUser({ role: 'admin' });
    await signInAs(page, admin.email, '/budgets?month=2024-03');
    await page.getByRole('button', { name: 'Start this month’s budget' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    await submitSignIn(page, admin.email);
    await page.waitForURL(/\/dashboard$/);
  });

  it('tries an idle session\'s sign-out once: a failed one is not retried, the user still lands on sign-in', async () => {
    const admin = await app.newUser({ role: 'admin' });
    await signIn(page, admin.email);
    await page.waitForLoadState('networkidle');
    await app.t.dataSource.query(`UPDATE sessions SET last_seen_at = now() - interval '121 minutes' WHERE user_id = $1`, [admin.id]);
    let attempts = 0;
    await page.route('**/auth/logout', (route) => {
      attempts += 1;
      return route.abort('connectionrefused');
    });

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(/\/sign-in\?next=%2Fsettings%2Fapi_keys$/);
    await expectVisible(page.getByRole('heading', { name: 'Sign in to Hearth' }));
    // Back into the app: still signed out, and no second attempt.
    await page.goBack();
    await page.waitForURL(/\/sign-in\?next=/);
    await quiet(page);
    expect(attempts).toBe(1);
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

describe('browser: password reset by e-mailed link', () => {
  let app: BrowserApp;
  let page: Page;
  let consoleText: string[];
  beforeAll(async () => {
    // APP_URL is this app's own address, so the mailed link is followed exactly as it was sent.
    const port = await freePort();
    app = await startBrowserApp({ APP_URL: `http://127.0.0.1:${port}` }, port);
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    page = await app.newPage();
    consoleText = [];
    page.on('console', (message) => consoleText.push(message.text()));
  });
  afterEach(async () => {
    await page.context().close();
  });

  /** The last reset link mailed to `email`, read from the development mailer's outbox as the API tests read it. */
  const mailedLink = (email: string): string | undefined => {
    const mail = [...(app.t.app.get(MAILER) as LogMailer).outbox].reverse().find((m) => m.to === email);
    return mail && /https?:\/\/\S+\/password_reset\?token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  };
  const requestLink = async (email: string): Promise<string> => {
    const res = await page.context().request.post('/api/v1/auth/password_reset', { data: { email } });
    expect(res.status()).toBe(202);
    return mailedLink(email)!;
  };

  it('asks for a link from sign-in with the same answer for any address, then sets a new password through the mailed link', async () => {
    const user = await app.newUser({ role: 'member' });
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    await expectVisible(page.getByRole('heading', { name: 'Reset your password' }));

    // An unknown address gets exactly the answer a known one gets: the page tells nothing about which accounts exist.
    await page.getByLabel('E-mail').fill('nobody-at-all@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const status = page.getByRole('status');
    await status.getByText(/If an account exists for that address/).waitFor();
    const unknownAnswer = await status.textContent();
    expect(await page.evaluate(() => document.activeElement?.closest('[role="status"]') !== null)).toBe(true);
    await page.getByRole('button', { name: 'Send another link' }).click();
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await status.getByText(/If an account exists for that address/).waitFor();
    expect(await status.textContent()).toBe(unknownAnswer);
    await screenshot(page, 'password-reset-requested');

    const link = mailedLink(user.email)!;
    expect(link).toBeDefined();
    const token = new URL(link).searchParams.get('token')!;
    const opened = await page.goto(link);
    // Nor do the page's own requests carry it as a Referer before it is read.
    expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
    await expectVisible(page.getByRole('heading', { name: 'Choose a new password' }));
    // The token leaves the address bar (and so the history and any Referer) as soon as the page has read it.
    await page.waitForURL((url) => url.pathname === '/password_reset' && !url.search.includes('token'));

    const fresh = 'a brand new passphrase';
    await page.getByLabel('New password', { exact: true }).fill(fresh);
    await page.getByLabel('Confirm new password').fill('a different passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expectFieldError(page, 'Confirm new password', /do not match/);

    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Confirm new password').fill('short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expectFieldError(page, 'New password', /at least 8|longer than or equal to 8/i); // the API's policy message
    await screenshot(page, 'password-reset-policy-error');

    await page.getByLabel('New password', { exact: true }).fill(fresh);
    await page.getByLabel('Confirm new password').fill(fresh);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await status.getByText(/Your password has been changed/).waitFor();
    expect(await page.evaluate(() => document.activeElement?.closest('[role="status"]') !== null)).toBe(true);
    await screenshot(page, 'password-reset-done');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, user.email, fresh);
    expect((await page.context().request.post('/sessions', { data: { email: user.email, password: PASSWORD } })).status()).toBe(401);
    expect(consoleText.filter((text) => text.includes(token))).toEqual([]);
  });

  it.each([
    ['used already', async (app: BrowserApp, token: string) => {
      const res = await request(app.t.server).post('/api/v1/auth/password_reset/complete').send({ token, password: 'first use of the link' });
      expect(res.status).toBe(204);
    }],
    ['expired', async (app: BrowserApp, token: string) => {
      await app.t.dataSource.query(`UPDATE password_reset_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [hashToken(token)]);
    }],
  ])('explains a link that was %s, in plain words, and links to request a new one', async (_, spoil) => {
    const user = await app.newUser({ role: 'member' });
    const link = await requestLink(user.email);
    await spoil(app, new URL(link).searchParams.get('token')!);

    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('Confirm new password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/invalid, has expired or has already been used/);
    await alert.getByRole('link', { name: 'Request a new link' }).click();
    await page.waitForURL(/\/forgot-password$/);
  });

  it('works for a signed-in visitor too, who is then signed out (every session of the account ends)', async () => {
    const user = await app.newUser({ role: 'member' });
    await signIn(page, user.email);
    const link = await requestLink(user.email);
    await page.goto(link);
    await expectVisible(page.getByRole('heading', { name: 'Choose a new password' }));
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('Confirm new password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('status').getByText(/Your password has been changed/).waitFor();
    expect(await page.evaluate(async () => (await fetch('/api/v1/me', { credentials: 'include' })).status)).toBe(401);
  });
});

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

  it('offers no password reset: no link on sign-in, and both reset pages say it is not available', async () => {
    await app.newUser({ role: 'admin' });
    const page = await app.newPage();
    await page.goto('/sign-in');
    await expectVisible(page.getByText('E-mail and password sign-in is turned off'));
    expect(await page.getByRole('link', { name: 'Forgot password?' }).count()).toBe(0);
    await page.goto('/forgot-password');
    await expectVisible(page.getByText(/Password reset is not available/));
    expect(await page.getByLabel('E-mail').count()).toBe(0);
    await page.goto(`/password_reset?token=${'x'.repeat(43)}`);
    await expectVisible(page.getByText(/Password reset is not available/));
    expect(await page.getByLabel('New password', { exact: true }).count()).toBe(0);
    await page.context().close();
  });
});

/** Network idle, then a moment more: a second sign-out, if the app sent one, has been sent by then. */
async function quiet(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1500);
}

async function expectVisible(locator: ReturnType<Page['getByText']>): Promise<void> {
  await locator.first().waitFor({ state: 'visible' });
}
