/** @jest-environment ./apps/api/test/support/time-zone-environment.ts */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { LogMailer, MAILER } from '../src/auth/mailer';
import { hashToken } from '../src/auth/session-token';
import { SessionsService } from '../src/auth/sessions.service';
import { newProvider } from '../src/sso/provider-fields';
import { SsoProvider } from '../src/sso/sso.entities';
import { SsoRepository } from '../src/sso/sso.repository';
import { User } from '../src/users/user.entity';
import { startFreshTestApp } from './support/fresh-database';
import { as, cookiesOf, PASSWORD, signIn, ssoSession } from './support/sessions';
import { startTestApp, TestApp } from './support/test-app';
import { withTimeZone } from './support/time-zone';

const INVALID = { error: 'invalid_credentials', message: 'Invalid email or password.' };
const DISABLED = { error: 'local_login_disabled', message: 'Local password login is disabled. Please use single sign-on.' };
const RESET_DISABLED = {
  error: 'password_reset_disabled',
  message: 'Password reset is disabled. Please reset your password through your identity provider.',
};
const HIGH_LIMITS = { RATE_LIMIT_ADMIN_PER_MINUTE: '100000', RATE_LIMIT_ADMIN_READS_PER_MINUTE: '100000', RATE_LIMIT_LOGIN_PER_MINUTE: '100000', LOGIN_MAX_FAILURES_PER_ACCOUNT: '100000' };

const PASSWORD_SESSION_ENDED = { error: 'unauthorized', message: 'Password sign-in is turned off for your account. Sign in with single sign-on.' };
const ORIGIN = { ip: '127.0.0.1', userAgent: 'spec' };

const linkToken = (t: TestApp, email: string): string | undefined => {
  const mail = [...(t.app.get(MAILER) as LogMailer).outbox].reverse().find((m) => m.to === email);
  return mail && /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
};

describe('local login enabled (default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ...HIGH_LIMITS, APP_URL: 'https://hearth.example.com' });
  });
  afterAll(() => t.close());

  it('tells the sign-in page to show the form and password reset', async () => {
    const res = await request(t.server).get('/api/v1/auth/config').expect(200);
    expect(res.body).toMatchObject({
      local_login_enabled: true,
      local_admin_override_enabled: false,
      local_login_form_visible: true,
      local_login_notice: null,
      password_reset_enabled: true,
    });
  });

  it('lists the enabled providers for the sign-in buttons, by label, and never a disabled one or a secret', async () => {
    const suffix = Date.now().toString(36);
    const providers = t.dataSource.getRepository(SsoProvider);
    const saml = await providers.save({ ...newProvider('saml', `saml-${suffix}`), label: 'A Corp SAML', enabled: true });
    const oidc = await providers.save({ ...newProvider('openid_connect', `oidc-${suffix}`), label: 'B Corp SSO', enabled: true, clientSecretEncrypted: 'not for the public' });
    const off = await providers.save({ ...newProvider('oauth2', `off-${suffix}`), label: 'C Off', enabled: false });
    const res = await request(t.server).get('/api/v1/auth/config').expect(200);
    const ours = res.body.providers.filter((p: { name: string }) => p.name.endsWith(suffix));
    expect(ours).toEqual([
      { name: saml.name, label: 'A Corp SAML', strategy: 'saml' },
      { name: oidc.name, label: 'B Corp SSO', strategy: 'openid_connect' },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('not for the public');
    expect(ours.map((p: { name: string }) => p.name)).not.toContain(off.name);
  });

  it('resets a password by e-mailed link: hashed, single use, sessions ended, same answer for unknown addresses', async () => {
    const h = await t.newHousehold();
    const browser = await signIn(t.server, h.email);
    const accepted = await request(t.server).post('/api/v1/auth/password_reset').send({ email: h.email.toUpperCase() }).expect(202);
    const unknown = await request(t.server).post('/api/v1/auth/password_reset').send({ email: 'nobody-at-all@example.com' }).expect(202);
    expect(unknown.body).toEqual(accepted.body);
    const token = linkToken(t, h.email)!;
    expect((t.app.get(MAILER) as LogMailer).outbox.some((m) => m.to === 'nobody-at-all@example.com')).toBe(false);
    expect((t.app.get(MAILER) as LogMailer).outbox.find((m) => m.to === h.email)!.text).toContain('https://hearth.example.com/password_reset?token=');
    const [row] = await t.dataSource.query(`SELECT * FROM password_reset_tokens WHERE user_id = $1`, [h.userId]);
    expect(row.token_hash).toBe(hashToken(token));
    expect(new Date(row.expires_at).getTime() - Date.now()).toBeGreaterThan(59 * 60_000);

    await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token, password: 'short' }).expect(422);
    await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token, password: 'my new long passphrase' }).expect(204);
    const reused = await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token, password: 'another long passphrase' }).expect(422);
    expect(reused.body.error).toBe('invalid_token');
    await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(401);
    await request(t.server).post('/sessions').send({ email: h.email, password: PASSWORD }).expect(401);
    await signIn(t.server, h.email, 'my new long passphrase');
    const events = await t.dataSource.query(`SELECT event FROM audit_logs WHERE user_id = $1 AND event LIKE 'password_reset%'`, [h.userId]);
    expect(events.map((e: { event: string }) => e.event).sort()).toEqual(['password_reset', 'password_reset_requested']);
  });

  it("refuses a reset request or completion posted from another site's page, sending no mail", async () => {
    const h = await t.newHousehold();
    const outbox = () => (t.app.get(MAILER) as LogMailer).outbox.filter((m) => m.to === h.email);
    const forged = await request(t.server).post('/api/v1/auth/password_reset').set('Origin', 'https://evil.example').type('form').send({ email: h.email }).expect(403);
    expect(forged.body.error).toBe('csrf_failed');
    await request(t.server).post('/api/v1/auth/password_reset/complete').set('Origin', 'https://evil.example').send({ token: 'x'.repeat(43), password: 'my new long passphrase' }).expect(403);
    expect(outbox()).toEqual([]);
    expect(await t.dataSource.query(`SELECT id FROM password_reset_tokens WHERE user_id = $1`, [h.userId])).toEqual([]);
  });

  it('refuses an expired reset token and keeps only the newest link alive', async () => {
    const h = await t.newHousehold();
    await request(t.server).post('/api/v1/auth/password_reset').send({ email: h.email }).expect(202);
    const first = linkToken(t, h.email)!;
    await request(t.server).post('/api/v1/auth/password_reset').send({ email: h.email }).expect(202);
    const second = linkToken(t, h.email)!;
    await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token: first, password: 'a long passphrase' }).expect(422);
    await t.dataSource.query(`UPDATE password_reset_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [hashToken(second)]);
    await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token: second, password: 'a long passphrase' }).expect(422);
    await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token: 'garbage', password: 'a long passphrase' }).expect(422);
  });

  it('answers a known address without waiting for the mail transport, which may be slow or failing', async () => {
    const h = await t.newHousehold();
    // The first send hangs until the answer is in: a handler that awaited it would never answer.
    let release = () => {};
    const send = jest
      .spyOn(t.app.get(MAILER) as LogMailer, 'send')
      .mockImplementationOnce(() => new Promise<void>((resolve) => (release = resolve)))
      .mockImplementationOnce(() => Promise.reject(new Error('SMTP 421')));
    try {
      const known = await request(t.server).post('/api/v1/auth/password_reset').send({ email: h.email }).expect(202);
      release();
      const unknown = await request(t.server).post('/api/v1/auth/password_reset').send({ email: 'nobody-at-all@example.com' }).expect(202);
      expect(known.body).toEqual(unknown.body);
      const down = await request(t.server).post('/api/v1/auth/password_reset').send({ email: h.email }).expect(202);
      expect(down.body).toEqual(unknown.body);
      expect(send).toHaveBeenCalledTimes(2);
    } finally {
      send.mockRestore();
    }
  });

  it('spends an outstanding reset link when the password is changed another way', async () => {
    const h = await t.newHousehold();
    await request(t.server).post('/api/v1/auth/password_reset').send({ email: h.email }).expect(202);
    const token = linkToken(t, h.email)!;
    const browser = await signIn(t.server, h.email);
    await as(t.server, browser, 'put', '/api/v1/me/password').send({ current_password: PASSWORD, new_password: 'a brand new passphrase' }).expect(204);
    const refused = await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token, password: 'the attacker passphrase' }).expect(422);
    expect(refused.body.error).toBe('invalid_token');
    await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(200);
    await signIn(t.server, h.email, 'a brand new passphrase');
  });

  it('spends every other live link of the account when one completes a reset (two requests made at once leave two)', async () => {
    const h = await t.newHousehold();
    await request(t.server).post('/api/v1/auth/password_reset').send({ email: h.email }).expect(202);
    const used = linkToken(t, h.email)!;
    // What two requests racing each other leave behind: a second live link next to the first.
    const other = randomBytes(32).toString('base64url'); // a fixed one collides with itself on a reused database
    await t.dataSource.query(`INSERT INTO password_reset_tokens (user_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '1 hour')`, [h.userId, hashToken(other)]);
    await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token: used, password: 'my new long passphrase' }).expect(204);
    const refused = await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token: other, password: 'the attacker passphrase' }).expect(422);
    expect(refused.body.error).toBe('invalid_token');
    await signIn(t.server, h.email, 'my new long passphrase');
  });

  it("reads an API key's expires_at without an offset as UTC on every server", async () => {
    const h = await t.newHousehold();
    const browser = await signIn(t.server, h.email);
    await withTimeZone('America/New_York', async () => {
      const created = await as(t.server, browser, 'post', '/api/v1/settings/api_keys').send({ name: 'tz', scope: 'read', expires_at: '2099-03-01T10:00:00' }).expect(201);
      expect(created.body.expires_at).toBe('2099-03-01T10:00:00.000Z');
      const week = await as(t.server, browser, 'post', '/api/v1/settings/api_keys').send({ name: 'week', scope: 'read', expires_at: '2099-W10' }).expect(422);
      expect(week.body.errors).toEqual(['expires_at must be an ISO 8601 date or date-time']);
    });
  });

  it('manages the caller\'s own API keys: shown once, listed by prefix, unique names, revoked', async () => {
    const h = await t.newHousehold();
    const other = await t.newHousehold();
    const browser = await signIn(t.server, h.email);
    const created = await as(t.server, browser, 'post', '/api/v1/settings/api_keys').send({ name: 'sync', scope: 'read' }).expect(201);
    expect(created.body).toMatchObject({ name: 'sync', scope: 'read', revoked_at: null, last_used_at: null });
    expect(created.body.key.startsWith(`${created.body.prefix}_`)).toBe(true);
    await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', created.body.key).expect(200);
    const taken = await as(t.server, browser, 'post', '/api/v1/settings/api_keys').send({ name: 'sync', scope: 'read_write' }).expect(422);
    expect(taken.body.error).toBe('validation_failed');
    await as(t.server, browser, 'post', '/api/v1/settings/api_keys').send({ name: 'x', scope: 'admin' }).expect(422);

    const list = await as(t.server, browser, 'get', '/api/v1/settings/api_keys').expect(200);
    expect(list.body.api_keys.map((k: { prefix: string }) => k.prefix).sort()).toEqual([h.apiKeyPrefix, created.body.prefix].sort());
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    expect(list.body.api_keys.find((k: { prefix: string }) => k.prefix === created.body.prefix).last_used_at).not.toBeNull();

    const otherKey = (await t.dataSource.query(`SELECT id FROM api_keys WHERE prefix = $1`, [other.apiKeyPrefix]))[0].id;
    await as(t.server, browser, 'delete', `/api/v1/settings/api_keys/${otherKey}`).expect(404);
    await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', other.apiKey).expect(200);
    await as(t.server, browser, 'delete', `/api/v1/settings/api_keys/${created.body.id}`).expect(204);
    await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', created.body.key).expect(401);
    await as(t.server, browser, 'post', '/api/v1/settings/api_keys').send({ name: 'sync', scope: 'read' }).expect(201); // revoked names are free
    const events = await t.dataSource.query(`SELECT event FROM audit_logs WHERE user_id = $1 AND event LIKE 'api_key%' ORDER BY created_at`, [h.userId]);
    expect(events.map((e: { event: string }) => e.event)).toEqual(['api_key_created', 'api_key_revoked', 'api_key_created']);
  });
});

describe('local login disabled, no override', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ...HIGH_LIMITS, AUTH_LOCAL_LOGIN_ENABLED: 'false' });
  });
  afterAll(() => t.close());

  it('hides the form, refuses every local credential with a clear error, disables password reset', async () => {
    const root = await t.newHousehold({ role: 'super_admin' });
    expect((await request(t.server).get('/api/v1/auth/config').expect(200)).body).toMatchObject({
      local_login_enabled: false,
      local_login_form_visible: false,
      password_reset_enabled: false,
    });
    for (const body of [{ email: root.email, password: PASSWORD }, { email: 'nobody@example.com', password: 'x' }]) {
      const res = await request(t.server).post('/sessions').send(body).expect(403);
      expect(res.body).toEqual(DISABLED);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect((await request(t.server).post('/api/v1/auth/password_reset').send({ email: root.email }).expect(403)).body).toEqual(RESET_DISABLED);
    expect((await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token: 'x'.repeat(43), password: 'long enough pw' }).expect(403)).body).toEqual(RESET_DISABLED);
    expect(await t.dataSource.query(`SELECT id FROM sessions WHERE user_id = $1`, [root.userId])).toEqual([]);
  });

  it('tells a user signed in through SSO that their password is kept but may not be used, even a super admin', async () => {
    for (const role of ['member', 'super_admin'] as const) {
      const h = await t.newHousehold({ role });
      const browser = await ssoSession(t, h.userId);
      const me = await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(200);
      expect(me.body.password).toEqual({ set: true, sign_in_allowed: false, usable: false });
      const refused = await as(t.server, browser, 'put', '/api/v1/me/password').send({ current_password: PASSWORD, new_password: 'a brand new passphrase' }).expect(403);
      expect(refused.body).toEqual(DISABLED);
    }
  });

  it('ends a password session opened before local login was turned off, and keeps single sign-on sessions', async () => {
    const root = await t.newHousehold({ role: 'super_admin' });
    const user = await t.dataSource.getRepository(User).findOneByOrFail({ id: root.userId });
    const sessions = t.app.get(SessionsService);
    // What a password sign-in left in the database before the restart with AUTH_LOCAL_LOGIN_ENABLED=false.
    const before = await sessions.openSession(user, ORIGIN, { method: 'password' });
    const res = await request(t.server).get('/api/v1/me').set('Cookie', `hearth_session=${before.token}`).expect(401);
    expect(res.body).toEqual(PASSWORD_SESSION_ENDED);
    const [row] = await t.dataSource.query(`SELECT revoked_at FROM sessions WHERE token_hash = $1`, [hashToken(before.token)]);
    expect(row.revoked_at).not.toBeNull();

    const provider = await t.dataSource.getRepository(SsoProvider).save(newProvider('openid_connect', `corp-${root.userId.slice(0, 8)}`));
    const sso = await sessions.openSession(user, ORIGIN, { method: 'sso' }, provider.name);
    await t.app.get(SsoRepository).recordSsoSession(hashToken(sso.token), provider.id);
    expect((await request(t.server).get('/api/v1/me').set('Cookie', `hearth_session=${sso.token}`).expect(200)).body.email).toBe(root.email);
  });
});

describe('local login disabled with the super-admin override', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ...HIGH_LIMITS, AUTH_LOCAL_LOGIN_ENABLED: 'false', AUTH_LOCAL_ADMIN_OVERRIDE_ENABLED: 'true' });
  });
  afterAll(() => t.close());

  it('shows the form with the administrators-only notice and no password reset', async () => {
    expect((await request(t.server).get('/api/v1/auth/config').expect(200)).body).toMatchObject({
      local_login_form_visible: true,
      local_login_notice: 'Local login is restricted to administrators.',
      password_reset_enabled: false,
    });
    await request(t.server).post('/api/v1/auth/password_reset').send({ email: 'a@example.com' }).expect(403);
  });

  it('lets a super admin in and audits the override login', async () => {
    const root = await t.newHousehold({ role: 'super_admin' });
    await signIn(t.server, root.email);
    const [login] = await t.dataSource.query(`SELECT * FROM audit_logs WHERE user_id = $1 AND event = 'login'`, [root.userId]);
    expect(login).toMatchObject({ provider_name: 'local', details: { method: 'password', admin_override: true } });
  });

  it('tells a super admin their password is usable, and a family admin signed in through SSO that theirs is not', async () => {
    const root = await t.newHousehold({ role: 'super_admin' });
    const signedIn = await request(t.server).post('/sessions').send({ email: root.email, password: PASSWORD }).expect(201);
    expect(signedIn.body.user.password).toEqual({ set: true, sign_in_allowed: true, usable: true });
    const rootCookie = cookiesOf(signedIn.headers['set-cookie'] as unknown as string[]);
    expect((await request(t.server).get('/api/v1/me').set('Cookie', rootCookie).expect(200)).body.password).toEqual({ set: true, sign_in_allowed: true, usable: true });

    const admin = await t.newHousehold({ role: 'admin' });
    const browser = await ssoSession(t, admin.userId);
    expect((await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(200)).body.password).toEqual({ set: true, sign_in_allowed: false, usable: false });
    await as(t.server, browser, 'put', '/api/v1/me/password').send({ current_password: PASSWORD, new_password: 'a brand new passphrase' }).expect(403);
  });

  it('answers a family admin or member with the right password exactly like a wrong password', async () => {
    const admin = await t.newHousehold({ role: 'admin' });
    const memberUser = await t.newHousehold({ role: 'member' });
    for (const email of [admin.email, memberUser.email]) {
      expect((await request(t.server).post('/sessions').send({ email, password: PASSWORD }).expect(401)).body).toEqual(INVALID);
    }
    expect((await request(t.server).post('/sessions').send({ email: admin.email, password: 'wrong' }).expect(401)).body).toEqual(INVALID);
    const [failed] = await t.dataSource.query(`SELECT details FROM audit_logs WHERE user_id = $1 AND event = 'login_failed'`, [memberUser.userId]);
    expect(failed.details.reason).toBe('local_login_restricted');
  });

  it("ends a super admin's password session once they are no longer a super admin", async () => {
    const first = await t.newHousehold({ role: 'super_admin' });
    const second = await t.newHousehold({ role: 'super_admin' });
    const demoted = await signIn(t.server, first.email);
    const other = await signIn(t.server, second.email);
    await as(t.server, demoted, 'get', '/api/v1/admin/users').expect(200);
    await as(t.server, other, 'patch', `/api/v1/admin/users/${first.userId}`).send({ role: 'admin' }).expect(200);
    // An admin may not sign in with a password now, so the session opened with one under the override ends too.
    expect((await as(t.server, demoted, 'get', '/api/v1/me').expect(401)).body).toEqual(PASSWORD_SESSION_ENDED);
    await as(t.server, demoted, 'get', '/api/v1/admin/users').expect(401);
    await as(t.server, other, 'get', '/api/v1/me').expect(200);
  });
});

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '3', RATE_LIMIT_ADMIN_READS_PER_MINUTE: '4', LOGIN_MAX_FAILURES_PER_ACCOUNT: '100000' });
  });
  afterAll(() => t.close());

  it('throttles sign-in attempts per IP with 429 rate_limit_exceeded and Retry-After, whatever X-Forwarded-For says', async () => {
    for (let i = 0; i < 3; i++) {
      await request(t.server).post('/sessions').set('X-Forwarded-For', `10.0.0.${i}`).send({ email: 'nobody@example.com', password: 'x' }).expect(401);
    }
    const res = await request(t.server).post('/sessions').set('X-Forwarded-For', '10.0.0.99').send({ email: 'nobody@example.com', password: 'x' }).expect(429);
    expect(res.body).toMatchObject({ error: 'rate_limit_exceeded' });
    expect(res.body.message).toMatch(/^Rate limit exceeded\. Try again in \d+ seconds\.$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it('counts admin reads against their own budget (configured: 4), then 429 with Retry-After', async () => {
    const admin = await t.newHousehold({ role: 'admin' });
    // sign in through the service: the login budget of this IP is spent by the test above
    const { SessionsService } = await import('../src/auth/sessions.service');
    const signedIn = await t.app.get(SessionsService).openSession((await t.dataSource.query(`SELECT * FROM users WHERE id = $1`, [admin.userId]))[0], { ip: null, userAgent: null }, {});
    const cookie = `hearth_session=${signedIn.token}`;
    for (let i = 0; i < 4; i++) await request(t.server).get('/api/v1/admin/users').set('Cookie', cookie).expect(200);
    const res = await request(t.server).get('/api/v1/admin/sso_identity_blocks').set('Cookie', cookie).expect(429);
    expect(res.body.error).toBe('rate_limit_exceeded');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    // other routes are not counted against the admin budgets
    await request(t.server).get('/api/v1/me').set('Cookie', cookie).expect(200);
  });
});

describe('admin rate limit: changes at 10 a minute, reads apart', () => {
  let t: TestApp;
  beforeAll(async () => {
    // RATE_LIMIT_ADMIN_PER_MINUTE and RATE_LIMIT_ADMIN_READS_PER_MINUTE at their defaults (10 and 300).
    t = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  it('lets an admin browse the lists freely; the 11th change in a minute is 429 with Retry-After, and reads go on', async () => {
    const root = await t.newHousehold({ role: 'super_admin' });
    const other = await t.newHousehold({ role: 'admin' });
    const admin = await signIn(t.server, root.email);
    const lists = ['/api/v1/admin/users', '/api/v1/admin/sso_providers', '/api/v1/admin/audit_logs', '/api/v1/admin/sso_identity_blocks'];
    // Loading the users screen 15 times (its two lists each time), and the other screens: far past 10 requests.
    for (let i = 0; i < 15; i++) for (const path of lists) await as(t.server, admin, 'get', path).expect(200);

    const roles = ['member', 'admin'];
    for (let i = 0; i < 10; i++) await as(t.server, admin, 'patch', `/api/v1/admin/users/${other.userId}`).send({ role: roles[i % 2] }).expect(200);
    const refused = await as(t.server, admin, 'patch', `/api/v1/admin/users/${other.userId}`).send({ role: 'member' }).expect(429);
    expect(refused.body).toMatchObject({ error: 'rate_limit_exceeded', details: { limit: 10, period_seconds: 60 } });
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.body.message).toBe(`Rate limit exceeded. Try again in ${wait} seconds.`);
    // The refused change changed nothing, and the lists still answer.
    expect((await t.dataSource.query(`SELECT role FROM users WHERE id = $1`, [other.userId]))[0].role).toBe('admin');
    for (const path of lists) await as(t.server, admin, 'get', path).expect(200);
  });
});

describe('per-account sign-in throttle', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '100000', LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' });
  });
  afterAll(() => t.close());

  it('refuses an account after repeated failures from any IP, even with the right password, known or not', async () => {
    const h = await t.newHousehold();
    for (let i = 0; i < 3; i++) await request(t.server).post('/sessions').send({ email: h.email, password: `guess ${i}` }).expect(401);
    const res = await request(t.server).post('/sessions').send({ email: h.email, password: PASSWORD }).expect(429);
    expect(res.body.error).toBe('rate_limit_exceeded');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(800);
    const ghost = `ghost-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`; // the audit log may be shared
    for (let i = 0; i < 3; i++) await request(t.server).post('/sessions').send({ email: ghost, password: `guess ${i}` }).expect(401);
    await request(t.server).post('/sessions').send({ email: ghost, password: 'again' }).expect(429);
    const failures = await t.dataSource.query(`SELECT details FROM audit_logs WHERE user_id = $1 AND event = 'login_failed'`, [h.userId]);
    expect(failures).toHaveLength(4);
    // other accounts are unaffected
    const other = await t.newHousehold();
    await signIn(t.server, other.email);
  });

  it('checks no more passwords than the budget when the guesses arrive all at once', async () => {
    const h = await t.newHousehold();
    const guesses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => request(t.server).post('/sessions').send({ email: h.email, password: `guess ${i}` })),
    );
    expect(guesses.map((res) => res.status).sort()).toEqual([...Array(3).fill(401), ...Array(7).fill(429)]);
    const reasons = await t.dataSource.query(`SELECT details->>'reason' AS reason FROM audit_logs WHERE user_id = $1 AND event = 'login_failed'`, [h.userId]);
    expect(reasons.filter((row: { reason: string }) => row.reason === 'invalid_password')).toHaveLength(3);
  });

  it('refuses password changes after repeated wrong current passwords, so a stolen session cannot guess on', async () => {
    const h = await t.newHousehold();
    const browser = await signIn(t.server, h.email);
    const change = (current: string) =>
      as(t.server, browser, 'put', '/api/v1/me/password').send({ current_password: current, new_password: 'a brand new passphrase' });
    for (let i = 0; i < 3; i++) await change(`guess ${i}`).expect(422);
    const res = await change(PASSWORD).expect(429);
    expect(res.body.error).toBe('rate_limit_exceeded');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.dataSource.query(`SELECT id FROM audit_logs WHERE user_id = $1 AND event = 'password_changed'`, [h.userId]))).toEqual([]);
  });
});

describe('first-run setup', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startFreshTestApp(HIGH_LIMITS);
  });
  afterAll(() => t.close());

  it('makes the first user super_admin and signs them in, then closes', async () => {
    expect((await request(t.server).get('/api/v1/auth/config').expect(200)).body.setup_required).toBe(true);
    const bad = await request(t.server).post('/api/v1/auth/setup').send({ email: 'first@example.com', password: 'short', family_name: 'F' }).expect(422);
    expect(bad.body.error).toBe('validation_failed');
    const [first, second] = await Promise.all([
      request(t.server).post('/api/v1/auth/setup').send({ email: 'First@Example.com', password: 'a long passphrase', family_name: 'The Firsts', currency: 'EUR' }),
      request(t.server).post('/api/v1/auth/setup').send({ email: 'second@example.com', password: 'a long passphrase', family_name: 'The Seconds' }),
    ]);
    const winner = first.status === 201 ? first : second;
    const loser = first.status === 201 ? second : first;
    expect(winner.status).toBe(201);
    expect(loser.status).toBe(409);
    expect(loser.body.error).toBe('already_set_up');
    expect(winner.body.user.role).toBe('super_admin');
    const cookie = (winner.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    await request(t.server).get('/api/v1/me').set('Cookie', cookie).expect(200);
    expect(await t.dataSource.query(`SELECT role FROM users`)).toEqual([{ role: 'super_admin' }]);
    expect((await request(t.server).get('/api/v1/auth/config').expect(200)).body.setup_required).toBe(false);
  });
});
