import request from 'supertest';
import { Session } from '../src/auth/auth.entities';
import { hashToken } from '../src/auth/session-token';
import { User } from '../src/users/user.entity';
import { as, cookiesOf, PASSWORD, signIn, ssoSession } from './support/sessions';
import { startTestApp, TestApp } from './support/test-app';

const INVALID = { error: 'invalid_credentials', message: 'Invalid email or password.' };
const tokenOf = (cookie: string) => /hearth_session=([^;]+)/.exec(cookie)![1];

describe('local sign-in and sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '10000', LOGIN_MAX_FAILURES_PER_ACCOUNT: '10000', TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  const audits = (userId: string, event: string) =>
    t.dataSource.query(`SELECT * FROM audit_logs WHERE user_id = $1 AND event = $2 ORDER BY created_at`, [userId, event]);

  it('signs in with JSON: httpOnly SameSite=Lax cookie, only the token hash stored, login audited', async () => {
    const h = await t.newHousehold();
    const res = await request(t.server).post('/sessions').set('User-Agent', 'jest\tforged').send({ email: h.email, password: PASSWORD }).expect(201);
    expect(res.body.user).toMatchObject({ id: h.userId, email: h.email, role: 'admin', status: 'active', family_id: h.familyId });
    expect(res.body.user.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookies = res.headers['set-cookie'] as unknown as string[];
    const session = cookies.find((c) => c.startsWith('hearth_session='))!;
    const csrf = cookies.find((c) => c.startsWith('hearth_csrf='))!;
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).not.toMatch(/Secure/);
    expect(csrf).not.toMatch(/HttpOnly/);
    expect(csrf).toContain(`hearth_csrf=${res.body.user.csrf_token}`);

    const token = tokenOf(session);
    const rows = await t.dataSource.query(`SELECT * FROM sessions WHERE user_id = $1`, [h.userId]);
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(hashToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect((await t.dataSource.getRepository(User).findOneByOrFail({ id: h.userId })).lastLoginAt).not.toBeNull();
    const [login] = await audits(h.userId, 'login');
    expect(login).toMatchObject({ provider_name: 'local', family_id: h.familyId, user_agent: 'jestforged' });
  });

  it('accepts an HTML form post, ignores case and spaces in the e-mail', async () => {
    const h = await t.newHousehold();
    await request(t.server)
      .post('/sessions')
      .type('form')
      .send({ email: `  ${h.email.toUpperCase()} `, password: PASSWORD })
      .expect(201);
  });

  it('sets Secure on the cookies when the request came over https', async () => {
    const h = await t.newHousehold();
    const res = await request(t.server).post('/sessions').set('X-Forwarded-Proto', 'https').send({ email: h.email, password: PASSWORD }).expect(201);
    for (const cookie of res.headers['set-cookie'] as unknown as string[]) expect(cookie).toMatch(/; Secure/);
  });

  it('answers unknown e-mail, wrong password, password-less and suspended users identically, and audits each', async () => {
    const wrong = await t.newHousehold();
    const suspended = await t.newHousehold();
    const ssoOnly = await t.newHousehold();
    await t.dataSource.getRepository(User).update({ id: suspended.userId }, { status: 'suspended' });
    await t.dataSource.getRepository(User).update({ id: ssoOnly.userId }, { passwordHash: null });
    const attempts = [
      { email: 'nobody-here@example.com', password: PASSWORD },
      { email: wrong.email, password: 'not the password' },
      { email: suspended.email, password: PASSWORD },
      { email: ssoOnly.email, password: PASSWORD },
    ];
    for (const attempt of attempts) {
      const res = await request(t.server).post('/sessions').send(attempt).expect(401);
      expect(res.body).toEqual(INVALID);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    for (const h of [wrong, suspended, ssoOnly]) {
      const [failed] = await audits(h.userId, 'login_failed');
      expect(failed.provider_name).toBe('local');
      expect(JSON.stringify(failed)).not.toContain(PASSWORD);
      expect(JSON.stringify(failed)).not.toContain('not the password');
    }
    expect(await t.dataSource.getRepository(Session).countBy({ userId: suspended.userId })).toBe(0);
  });

  it.each([
    ['missing password', { email: 'a@example.com' }],
    ['missing e-mail', { password: 'x' }],
    ['a non-string password', { email: 'a@example.com', password: 123 }],
    ['an oversized password', { email: 'a@example.com', password: 'x'.repeat(100_000) }],
  ])('refuses %s with 422 before hashing anything', async (_, body) => {
    const res = await request(t.server).post('/sessions').send(body).expect(422);
    expect(res.body.error).toBe('validation_failed');
  });

  it('serves the signed-in user at /api/v1/me and 401 without a session', async () => {
    const h = await t.newHousehold();
    const browser = await signIn(t.server, h.email);
    const me = await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(200);
    expect(me.body).toMatchObject({ id: h.userId, email: h.email, family_id: h.familyId, csrf_token: browser.csrf });
    expect(me.body.family_name).toMatch(/^Family /);
    const anonymous = await request(t.server).get('/api/v1/me').expect(401);
    expect(anonymous.body.error).toBe('unauthorized');
    await request(t.server).get('/api/v1/me').set('Cookie', 'hearth_session=forged').expect(401);
    // an API key is not a session
    await request(t.server).get('/api/v1/me').set('X-Api-Key', h.apiKey).expect(401);
  });

  it("lets the admin app's session read its family's settings (the budget month it opens on needs them); only an admin changes them", async () => {
    const h = await t.newHousehold({ role: 'member' });
    // The currency, month start and time zone decide every budget of the household: a member's key is refused.
    const refused = await request(t.server).patch('/api/v1/family_settings').set('X-Api-Key', h.apiKey).send({ month_start_day: 15 }).expect(403);
    expect(refused.body).toEqual({ error: 'forbidden', message: "This action requires the 'admin' role" });
    await t.dataSource.query(`UPDATE families SET month_start_day = 15, timezone = 'Pacific/Auckland' WHERE id = $1`, [h.familyId]);
    const browser = await signIn(t.server, h.email);
    const settings = await as(t.server, browser, 'get', '/api/v1/family_settings').expect(200);
    expect(settings.body).toMatchObject({ id: h.familyId, month_start_day: 15, timezone: 'Pacific/Auckland' });
    await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', h.apiKey).expect(200);
    await request(t.server).get('/api/v1/family_settings').set('Cookie', 'hearth_session=forged').expect(401);
    await as(t.server, browser, 'patch', '/api/v1/family_settings').send({ month_start_day: 1 }).expect(403);
    expect((await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', h.apiKey).expect(200)).body.month_start_day).toBe(15);

    // An admin changes them with a key or from the admin app (CSRF token required).
    const admin = await t.newHousehold({ role: 'admin' });
    const adminBrowser = await signIn(t.server, admin.email);
    await request(t.server).patch('/api/v1/family_settings').set('Cookie', adminBrowser.cookie).send({ month_start_day: 3 }).expect(403);
    expect((await as(t.server, adminBrowser, 'patch', '/api/v1/family_settings').send({ month_start_day: 3 }).expect(200)).body.month_start_day).toBe(3);
    expect((await request(t.server).patch('/api/v1/family_settings').set('X-Api-Key', admin.apiKey).send({ month_start_day: 4 }).expect(200)).body.month_start_day).toBe(4);
  });

  it('tells the signed-in user whether they have a password and may use it: a local user yes, an SSO-only user has none', async () => {
    const local = await t.newHousehold({ role: 'member' });
    const signedIn = await request(t.server).post('/sessions').send({ email: local.email, password: PASSWORD }).expect(201);
    expect(signedIn.body.user.password).toEqual({ set: true, sign_in_allowed: true, usable: true });
    const me = await request(t.server).get('/api/v1/me').set('Cookie', cookiesOf(signedIn.headers['set-cookie'] as unknown as string[])).expect(200);
    expect(me.body.password).toEqual({ set: true, sign_in_allowed: true, usable: true });

    const ssoOnly = await t.newHousehold({ role: 'member' });
    await t.dataSource.getRepository(User).update({ id: ssoOnly.userId }, { passwordHash: null });
    const browser = await ssoSession(t, ssoOnly.userId);
    const theirs = await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(200);
    expect(theirs.body.password).toEqual({ set: false, sign_in_allowed: true, usable: false });
    // What `usable: false` stands for: the change is refused.
    const refused = await as(t.server, browser, 'put', '/api/v1/me/password').send({ current_password: 'anything', new_password: 'a brand new passphrase' }).expect(422);
    expect(refused.body.error).toBe('password_not_set');
  });

  it('never reuses the session presented at sign-in (no fixation)', async () => {
    const h = await t.newHousehold();
    const first = await signIn(t.server, h.email);
    const again = await request(t.server).post('/sessions').set('Cookie', first.cookie).send({ email: h.email, password: PASSWORD }).expect(201);
    const second = cookiesOf(again.headers['set-cookie'] as unknown as string[]);
    expect(tokenOf(second)).not.toBe(tokenOf(first.cookie));
    await request(t.server).get('/api/v1/me').set('Cookie', first.cookie).expect(401);
    await request(t.server).get('/api/v1/me').set('Cookie', second).expect(200);
  });

  it('refuses an expired or revoked session', async () => {
    const h = await t.newHousehold();
    const browser = await signIn(t.server, h.email);
    await t.dataSource.getRepository(Session).update({ tokenHash: hashToken(tokenOf(browser.cookie)) }, { expiresAt: new Date(Date.now() - 1000) });
    await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(401);
  });

  describe('idle timeout (SESSION_IDLE_MINUTES, default 120)', () => {
    const lastUse = async (browser: { cookie: string }) => {
      const [row] = await t.dataSource.query(`SELECT last_seen_at, xmin::text AS version FROM sessions WHERE token_hash = $1`, [hashToken(tokenOf(browser.cookie))]);
      return { at: new Date(row.last_seen_at), version: row.version as string };
    };
    const setLastUse = (browser: { cookie: string }, minutesAgo: number) =>
      t.dataSource.query(`UPDATE sessions SET last_seen_at = now() - make_interval(mins => $2) WHERE token_hash = $1`, [hashToken(tokenOf(browser.cookie)), minutesAgo]);

    it('records the last use when the session opens', async () => {
      const h = await t.newHousehold();
      const before = Date.now();
      const browser = await signIn(t.server, h.email);
      expect((await lastUse(browser)).at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    });

    it('answers a session unused for longer than the limit as expired, and it stays unusable', async () => {
      const h = await t.newHousehold();
      const expired = await signIn(t.server, h.email);
      await t.dataSource.getRepository(Session).update({ tokenHash: hashToken(tokenOf(expired.cookie)) }, { expiresAt: new Date(Date.now() - 1000) });
      const expiredAnswer = await request(t.server).get('/api/v1/me').set('Cookie', expired.cookie).expect(401);

      const idle = await signIn(t.server, h.email);
      await setLastUse(idle, 121);
      const stale = await lastUse(idle);
      const idleAnswer = await request(t.server).get('/api/v1/me').set('Cookie', idle.cookie).expect(401);
      expect(idleAnswer.body).toEqual(expiredAnswer.body);
      expect(idleAnswer.body.error).toBe('unauthorized');
      // Refusing it does not count as a use: the next request is refused too, and the last use stays where it was.
      await request(t.server).get('/api/v1/me').set('Cookie', idle.cookie).expect(401);
      await as(t.server, idle, 'post', '/api/v1/settings/api_keys').send({ name: 'after idle', scope: 'read' }).expect(401);
      expect((await lastUse(idle)).at).toEqual(stale.at);
    });

    it('keeps a session used within the limit and moves its last use forward', async () => {
      const h = await t.newHousehold();
      const browser = await signIn(t.server, h.email);
      await setLastUse(browser, 119);
      const before = await lastUse(browser);
      await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(200);
      const after = await lastUse(browser);
      expect(after.at.getTime()).toBeGreaterThan(before.at.getTime() + 118 * 60_000);
      await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(200);
    });

    it('writes the last use at most once a minute: a second request within the minute leaves the row alone', async () => {
      const h = await t.newHousehold();
      const browser = await signIn(t.server, h.email);
      await setLastUse(browser, 2);
      const stale = await lastUse(browser);
      await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(200);
      const first = await lastUse(browser);
      expect(first.at.getTime()).toBeGreaterThan(stale.at.getTime());
      await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(200);
      // xmin changes with every UPDATE of the row, even one writing the same value.
      expect(await lastUse(browser)).toEqual(first);
    });

    it('still signs out a session gone idle, as a live one is: with its CSRF token, row revoked, logout audited', async () => {
      const h = await t.newHousehold();
      const browser = await signIn(t.server, h.email);
      await setLastUse(browser, 121);
      const noToken = await request(t.server).post('/auth/logout').set('Cookie', browser.cookie).expect(403);
      expect(noToken.body.error).toBe('csrf_failed');
      const other = await signIn(t.server, h.email);
      await request(t.server).post('/auth/logout').set('Cookie', browser.cookie).set('X-CSRF-Token', other.csrf).expect(403);
      await as(t.server, browser, 'post', '/auth/logout').set('Origin', 'https://evil.example').expect(403);
      const res = await as(t.server, browser, 'post', '/auth/logout').expect(200);
      expect(res.body).toEqual({ logout_url: null });
      expect((res.headers['set-cookie'] as unknown as string[]).join()).toMatch(/hearth_session=;.*Expires=Thu, 01 Jan 1970/);
      const [row] = await t.dataSource.query(`SELECT revoked_at FROM sessions WHERE token_hash = $1`, [hashToken(tokenOf(browser.cookie))]);
      expect(row.revoked_at).not.toBeNull();
      expect(await audits(h.userId, 'logout')).toHaveLength(1);
      // Ended once: the same cookie again is an ended session, and the idle session is no more usable than before.
      await as(t.server, browser, 'post', '/auth/logout').expect(401);
      await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(401);
      expect(await audits(h.userId, 'logout')).toHaveLength(1);

      const local = await signIn(t.server, h.email);
      await setLastUse(local, 121);
      await as(t.server, local, 'delete', '/sessions').expect(204);
      expect(await audits(h.userId, 'logout')).toHaveLength(2);
    });

    it('needs the CSRF token to end an idle session as a live one, from a page of this instance too (its Origin alone is no proof)', async () => {
      const h = await t.newHousehold();
      // The page's own request: the Origin a browser sends with every POST, naming the host it was sent to.
      const fromPage = (browser: { cookie: string }, method: 'post' | 'delete', path: string) =>
        request(t.server)[method](path).set('Host', 'hearth.test').set('Origin', 'http://hearth.test').set('Cookie', browser.cookie);
      for (const idle of [false, true]) {
        const browser = await signIn(t.server, h.email);
        if (idle) await setLastUse(browser, 121);
        expect((await fromPage(browser, 'post', '/auth/logout').expect(403)).body.error).toBe('csrf_failed');
        await fromPage(browser, 'delete', '/sessions').expect(403);
        const [row] = await t.dataSource.query(`SELECT revoked_at FROM sessions WHERE token_hash = $1`, [hashToken(tokenOf(browser.cookie))]);
        expect(row.revoked_at).toBeNull();
      }
      expect(await audits(h.userId, 'logout')).toEqual([]);
    });

    it('refuses sign-out with a revoked, expired or unknown session, idle or not, as before', async () => {
      const h = await t.newHousehold();
      const revoked = await signIn(t.server, h.email);
      await setLastUse(revoked, 121);
      await t.dataSource.getRepository(Session).update({ tokenHash: hashToken(tokenOf(revoked.cookie)) }, { revokedAt: new Date() });
      const expired = await signIn(t.server, h.email);
      await setLastUse(expired, 121);
      await t.dataSource.getRepository(Session).update({ tokenHash: hashToken(tokenOf(expired.cookie)) }, { expiresAt: new Date(Date.now() - 1000) });
      const unknown = { cookie: `hearth_session=${'A'.repeat(43)}`, csrf: 'A'.repeat(43), setCookies: [] };
      for (const browser of [revoked, expired, unknown]) {
        const res = await as(t.server, browser, 'post', '/auth/logout').expect(401);
        expect(res.body.error).toBe('unauthorized');
        await as(t.server, browser, 'delete', '/sessions').expect(401);
        // Without the token, from a page of this instance: the same answer, nothing more.
        const tokenless = await request(t.server).post('/auth/logout').set('Host', 'hearth.test').set('Origin', 'http://hearth.test').set('Cookie', browser.cookie);
        expect([tokenless.status, tokenless.body]).toEqual([401, res.body]);
      }
      expect(await audits(h.userId, 'logout')).toEqual([]);
    });

    it('writes the last use once when two requests of a stale session arrive together', async () => {
      const h = await t.newHousehold();
      const browser = await signIn(t.server, h.email);
      await setLastUse(browser, 2);
      const [{ id }] = await t.dataSource.query(`SELECT id FROM sessions WHERE token_hash = $1`, [hashToken(tokenOf(browser.cookie))]);
      // Fixture: a trigger logs every UPDATE of the row, so the writes can be counted.
      await t.dataSource.query(`CREATE TABLE test_session_writes (session_id uuid NOT NULL)`);
      await t.dataSource.query(
        `CREATE FUNCTION test_log_session_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO test_session_writes VALUES (NEW.id); RETURN NEW; END $$`,
      );
      await t.dataSource.query(`CREATE TRIGGER test_session_writes AFTER UPDATE ON sessions FOR EACH ROW EXECUTE FUNCTION test_log_session_write()`);
      try {
        await Promise.all([1, 2, 3].map(() => request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(200)));
        expect(await t.dataSource.query(`SELECT count(*)::int AS writes FROM test_session_writes WHERE session_id = $1`, [id])).toEqual([{ writes: 1 }]);
      } finally {
        await t.dataSource.query(`DROP TRIGGER test_session_writes ON sessions`);
        await t.dataSource.query(`DROP FUNCTION test_log_session_write()`);
        await t.dataSource.query(`DROP TABLE test_session_writes`);
      }
    });
  });

  it('signs out: CSRF token required, row revoked, cookies cleared, old cookie refused, logout audited', async () => {
    const h = await t.newHousehold();
    const browser = await signIn(t.server, h.email);
    const noToken = await request(t.server).delete('/sessions').set('Cookie', browser.cookie).expect(403);
    expect(noToken.body.error).toBe('csrf_failed');
    const res = await as(t.server, browser, 'delete', '/sessions').expect(204);
    expect((res.headers['set-cookie'] as unknown as string[]).join()).toMatch(/hearth_session=;.*Expires=Thu, 01 Jan 1970/);
    const [row] = await t.dataSource.query(`SELECT revoked_at FROM sessions WHERE token_hash = $1`, [hashToken(tokenOf(browser.cookie))]);
    expect(row.revoked_at).not.toBeNull();
    await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(401);
    expect(await audits(h.userId, 'logout')).toHaveLength(1);
  });

  describe('CSRF', () => {
    it('refuses a cross-site request carrying the victim cookie, even a form post or with the token', async () => {
      const h = await t.newHousehold();
      const browser = await signIn(t.server, h.email);
      const forged = await request(t.server)
        .post('/api/v1/settings/api_keys')
        .set('Cookie', browser.cookie)
        .set('Origin', 'https://evil.example')
        .type('form')
        .send({ name: 'stolen', scope: 'read_write' })
        .expect(403);
      expect(forged.body).toEqual({ error: 'csrf_failed', message: 'Cross-origin requests are not allowed' });
      await as(t.server, browser, 'post', '/api/v1/settings/api_keys').set('Origin', 'https://evil.example').send({ name: 'x', scope: 'read' }).expect(403);
      await request(t.server).post('/api/v1/settings/api_keys').set('Cookie', browser.cookie).set('Sec-Fetch-Site', 'cross-site').set('X-CSRF-Token', browser.csrf).send({ name: 'x', scope: 'read' }).expect(403);
      const wrongToken = await request(t.server).post('/api/v1/settings/api_keys').set('Cookie', browser.cookie).set('X-CSRF-Token', 'A'.repeat(43)).send({ name: 'x', scope: 'read' }).expect(403);
      expect(wrongToken.body.error).toBe('csrf_failed');
      expect(await t.dataSource.query(`SELECT * FROM api_keys WHERE user_id = $1 AND name IN ('stolen', 'x')`, [h.userId])).toEqual([]);
    });

    it("refuses another session's CSRF token", async () => {
      const a = await t.newHousehold();
      const b = await t.newHousehold();
      const browserA = await signIn(t.server, a.email);
      const browserB = await signIn(t.server, b.email);
      await request(t.server).delete('/sessions').set('Cookie', browserA.cookie).set('X-CSRF-Token', browserB.csrf).expect(403);
    });

    it('accepts a same-origin request with the token, and leaves API-key requests alone', async () => {
      const h = await t.newHousehold();
      const browser = await signIn(t.server, h.email);
      const host = `127.0.0.1:${(t.server.address() as { port: number } | null)?.port ?? ''}`;
      void host;
      await as(t.server, browser, 'post', '/api/v1/settings/api_keys').send({ name: 'mine', scope: 'read' }).expect(201);
      await request(t.server).patch('/api/v1/family_settings').set('X-Api-Key', h.apiKey).set('Origin', 'https://evil.example').send({ name: 'Key write' }).expect(200);
    });
  });

  describe('own API keys', () => {
    it('creates one active key of a name when several requests ask for it at once', async () => {
      const h = await t.newHousehold();
      const browser = await signIn(t.server, h.email);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => as(t.server, browser, 'post', '/api/v1/settings/api_keys').send({ name: 'bank sync', scope: 'read' })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422, 422, 422]);
      for (const refused of answers.filter((a) => a.status === 422)) {
        expect(refused.body).toMatchObject({ error: 'validation_failed', errors: ['name is already used by another of your active API keys'] });
      }
      expect(await t.dataSource.query(`SELECT id FROM api_keys WHERE user_id = $1 AND name = 'bank sync'`, [h.userId])).toHaveLength(1);
    });
  });

  describe('change password', () => {
    it('needs the current password, ends the other sessions and keeps this one', async () => {
      const h = await t.newHousehold();
      const here = await signIn(t.server, h.email);
      const elsewhere = await signIn(t.server, h.email);
      const wrong = await as(t.server, here, 'put', '/api/v1/me/password').send({ current_password: 'nope', new_password: 'a brand new passphrase' }).expect(422);
      expect(wrong.body.error).toBe('invalid_current_password');
      const short = await as(t.server, here, 'put', '/api/v1/me/password').send({ current_password: PASSWORD, new_password: 'short' }).expect(422);
      expect(short.body.error).toBe('validation_failed');
      await as(t.server, here, 'put', '/api/v1/me/password').send({ current_password: PASSWORD, new_password: 'a brand new passphrase' }).expect(204);
      await request(t.server).get('/api/v1/me').set('Cookie', here.cookie).expect(200);
      await request(t.server).get('/api/v1/me').set('Cookie', elsewhere.cookie).expect(401);
      await request(t.server).post('/sessions').send({ email: h.email, password: PASSWORD }).expect(401);
      await signIn(t.server, h.email, 'a brand new passphrase');
      expect(await audits(h.userId, 'password_changed')).toHaveLength(1);
    });
  });
});
