import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { UsersService } from '../src/users/users.service';
import { as, Browser, PASSWORD, signIn } from './support/sessions';
import { IdTokenTamper, OidcIdp, startOidcIdp } from './support/oidc-idp';
import {
  APP_ORIGIN,
  browserOf,
  callbackUrl,
  countRows,
  createProvider,
  expectNoSignIn,
  finishSso,
  lastFailure,
  oauth2Client,
  oauth2ProviderFields,
  oidcProviderFields,
  roleChanges,
  SsoAttempt,
  ssoLogin,
  SsoSuite,
  startSso,
  startSsoSuite,
  userByEmail,
} from './support/sso';
import type { TestApp } from './support/test-app';

const run = randomUUID().slice(0, 8);
const CORP = `corp-${run}`;
const PIN = `pin-${run}`;
const ROLES = `roles-${run}`;
const OAUTH = `oauth-${run}`;
const SECRET = `secret-${randomUUID()}`;
const mail = (name: string) => `${name}-${run}@corp.example`;
const callbacks = [CORP, PIN, ROLES].map(callbackUrl);

describe('SSO through a real oidc-provider: admin API, OIDC and OAuth2 sign-in, JIT, linking, role sync, logout', () => {
  let t: TestApp;
  let idp: OidcIdp;
  let admin: Browser;
  let adminId: string;
  let corpId: string;
  const started = new Date(Date.now() - 1000);

  let suite: SsoSuite;

  beforeAll(async () => {
    // Providers and sessions are instance-wide: startSsoSuite gives the app a database of its own, which keeps other
    // suites' rows out of the counts.
    suite = await startSsoSuite({
      clients: [
        { client_id: 'hearth', client_secret: SECRET, redirect_uris: callbacks, post_logout_redirect_uris: [`${APP_ORIGIN}/login`] },
        oauth2Client(OAUTH, SECRET),
      ],
      accounts: {
        alice: { email: mail('alice'), email_verified: true, given_name: 'Alice', family_name: 'Liddell', groups: ['staff'] },
        bob: { email: mail('bob'), email_verified: true, groups: ['finance-admins'] },
        dave: { email: mail('dave'), email_verified: false },
        erin: { email: mail('erin'), email_verified: 'true' },
        frank: { email: mail('frank') },
        gina: { email_verified: true },
        oscar: { email: mail('oscar'), email_verified: true },
      },
      providers: (idp) => [oidcProviderFields(idp, CORP, SECRET, { label: 'Corp SSO', scopes: 'openid email profile groups', enabled: true })],
    });
    ({ t, idp, admin, adminId } = suite);
    corpId = suite.providers[0].id;
  });
  afterAll(() => suite?.close());

  /** A refused sign-in: back to the sign-in page, no session cookie, no new session/user/identity row, audited. */
  async function expectRefused(attempt: () => Promise<SsoAttempt>, reason: string, provider = CORP): Promise<SsoAttempt> {
    const { result, failure } = await expectNoSignIn(t, provider, attempt);
    expect(result.location).toMatch(/^\/login\?error=sso_[a-z_]+$/);
    expect(`${failure.reason} ${failure.row.details.detail ?? ''}`.trim()).toMatch(new RegExp(`^${reason}\\b`));
    return result;
  }

  describe('provider administration', () => {
    it('stores the client secret encrypted, never returns it, and audits the change with the acting user', async () => {
      const row = (await t.dataSource.query(`SELECT * FROM sso_providers WHERE id = $1`, [corpId]))[0];
      expect(row.client_secret_encrypted).toMatch(/^enc:v1:/);
      expect(JSON.stringify(row)).not.toContain(SECRET);
      const shown = await as(t.server, admin, 'get', `/api/v1/admin/sso_providers/${corpId}`).expect(200);
      expect(shown.body).toMatchObject({ name: CORP, has_client_secret: true, callback_url: `${APP_ORIGIN}/auth/${CORP}/callback`, login_url: `${APP_ORIGIN}/auth/${CORP}` });
      expect(shown.body).not.toHaveProperty('client_secret');
      expect(JSON.stringify(shown.body)).not.toContain(SECRET);
      const [audit] = await t.dataSource.query(`SELECT * FROM audit_logs WHERE event = 'provider_created' AND provider_id = $1`, [corpId]);
      expect(audit).toMatchObject({ user_id: adminId, provider_name: CORP });
      expect(audit.details.actor_user_id).toBe(adminId);
      expect(JSON.stringify(audit)).not.toContain(SECRET);
    });

    it('refuses incomplete providers, a discovery issuer that does not match exactly, and a taken name, saving nothing', async () => {
      const before = await countRows(t, 'sso_providers');
      const missing = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers').send({ name: `x-${run}`, strategy: 'openid_connect' }).expect(422);
      expect(missing.body.error).toBe('validation_failed');
      expect(missing.body.errors).toEqual(expect.arrayContaining(['issuer is required for openid_connect providers', 'client_id is required for openid_connect providers']));
      const oauth = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers').send({ name: `y-${run}`, strategy: 'oauth2', client_id: 'c', client_secret: 's' }).expect(422);
      expect(oauth.body.errors).toContain('token_url is required for oauth2 providers');
      const slash = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers')
        .send({ name: `z-${run}`, strategy: 'openid_connect', issuer: `${idp.issuer}/`, client_id: 'hearth', client_secret: SECRET })
        .expect(422);
      expect(slash.body).toMatchObject({ error: 'discovery_failed' });
      expect(slash.body.message).toContain('different issuer');
      const unreachable = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers')
        .send({ name: `w-${run}`, strategy: 'openid_connect', issuer: 'http://127.0.0.1:1/', client_id: 'hearth', client_secret: SECRET })
        .expect(422);
      expect(unreachable.body.error).toBe('discovery_failed');
      const mapping = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers')
        .send({ name: `v-${run}`, strategy: 'openid_connect', issuer: idp.issuer, client_id: 'hearth', client_secret: SECRET, role_mapping: { groupMappings: [{ group: 'g', role: 'owner' }] } })
        .expect(422);
      expect(mapping.body.errors[0]).toContain('groupMappings[0].role must be one of');
      // Sure's { role: [groups] } would be kept and never read: every user would get the default role.
      const sureShape = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers')
        .send({ name: `v-${run}`, strategy: 'openid_connect', issuer: idp.issuer, client_id: 'hearth', client_secret: SECRET, role_mapping: { admin: ['Admins'] } })
        .expect(422);
      expect(sureShape.body.errors).toEqual([expect.stringContaining('role_mapping has no setting admin; it takes groupMappings')]);
      const taken = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers')
        .send({ name: CORP, strategy: 'openid_connect', issuer: idp.issuer, client_id: 'hearth', client_secret: SECRET })
        .expect(409);
      expect(taken.body.error).toBe('name_taken');
      const reserved = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers')
        .send({ name: 'link', strategy: 'openid_connect', issuer: idp.issuer, client_id: 'hearth', client_secret: SECRET })
        .expect(422);
      expect(reserved.body.errors).toContain('name "link" is reserved');
      expect(await countRows(t, 'sso_providers')).toBe(before);
    });

    it.each([
      ['groupMappings not a list', { groupMappings: 'admins' }],
      ['a group mapping that is not an object', { groupMappings: [null] }],
      ['a group that is not text', { groupMappings: [{ group: ['admins'], role: 'admin' }] }],
      ['conditions not a list', { conditions: { role: 'admin' } }],
      ['condition groups given as text', { conditions: [{ groups: 'admins', role: 'admin' }] }],
      ['a condition value that is not text', { conditions: [{ attribute: 'department', value: 7, role: 'admin' }] }],
      ['an attribute mapping to a number', { attributeMappings: { given_name: 5 } }],
      ['attributeMappings as a list', { attributeMappings: ['given_name'] }],
      ['a role hierarchy entry that is not a list', { roleHierarchy: { admin: 'member' } }],
    ])('refuses a role_mapping with %s (422, nothing saved), so no sign-in can trip over it', async (_, roleMapping) => {
      const before = (await t.dataSource.query(`SELECT role_mapping, updated_at FROM sso_providers WHERE id = $1`, [corpId]))[0];
      const res = await as(t.server, admin, 'patch', `/api/v1/admin/sso_providers/${corpId}`).send({ role_mapping: roleMapping });
      expect(res.status).toBe(422);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.errors.length).toBeGreaterThan(0);
      expect((await t.dataSource.query(`SELECT role_mapping, updated_at FROM sso_providers WHERE id = $1`, [corpId]))[0]).toEqual(before);
    });

    it.each([
      ['scopes', { scopes: '   ' }, 'scopes must not be empty'],
      ['group_attribute', { group_attribute: ' ' }, 'group_attribute must not be empty'],
    ])('refuses a blank %s with 422, on create and on update, saving nothing', async (_, fields, message) => {
      const before = await countRows(t, 'sso_providers');
      const oauth = { name: `blank-${run}`, strategy: 'oauth2', authorization_url: `${idp.issuer}/auth`, token_url: `${idp.issuer}/token`, userinfo_url: `${idp.issuer}/me`, client_id: 'c', client_secret: 's' };
      const created = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers').send({ ...oauth, ...fields });
      expect(created.status).toBe(422);
      expect(created.body.errors).toContain(message);
      expect(await countRows(t, 'sso_providers')).toBe(before);
      const updated = await as(t.server, admin, 'patch', `/api/v1/admin/sso_providers/${corpId}`).send(fields);
      expect(updated.status).toBe(422);
      expect(updated.body.errors).toContain(message);
      expect((await as(t.server, admin, 'get', `/api/v1/admin/sso_providers/${corpId}`).expect(200)).body).toMatchObject({ scopes: 'openid email profile groups', group_attribute: 'groups' });
    });

    it('is for super admins only', async () => {
      const familyAdmin = await signIn(t.server, (await t.newHousehold({ role: 'admin' })).email);
      await as(t.server, familyAdmin, 'get', '/api/v1/admin/sso_providers').expect(403);
      await as(t.server, familyAdmin, 'post', `/api/v1/admin/sso_providers/${corpId}/disable`).expect(403);
      await request(t.server).get('/api/v1/admin/sso_providers').expect(401);
      const list = await as(t.server, admin, 'get', '/api/v1/admin/sso_providers').expect(200);
      expect(list.body.sso_providers.map((p: { name: string }) => p.name)).toContain(CORP);
    });
  });

  describe('sign-in', () => {
    it('creates an account at first sign-in (JIT) as admin of a new family, and pins the issuer on the identity', async () => {
      const sessionsBefore = await countRows(t, 'sessions');
      const attempt = await ssoLogin(t.server, idp, CORP, 'alice');
      expect(attempt.location).toBe('/');
      expect(await countRows(t, 'sessions')).toBe(sessionsBefore + 1);
      const me = await request(t.server).get('/api/v1/me').set('Cookie', browserOf(attempt).cookie).expect(200);
      expect(me.body).toMatchObject({ email: mail('alice'), first_name: 'Alice', last_name: 'Liddell', role: 'admin' });
      expect((await userByEmail(t, mail('alice'))).password_hash).toBeNull();
      const [identity] = await t.dataSource.query(`SELECT * FROM sso_identities WHERE provider_id = $1 AND uid = 'alice'`, [corpId]);
      expect(identity).toMatchObject({ issuer: idp.issuer, email: mail('alice'), user_id: me.body.id });
      const events = await t.dataSource.query(`SELECT event, provider_name FROM audit_logs WHERE user_id = $1 ORDER BY created_at`, [me.body.id]);
      expect(events).toEqual([
        { event: 'jit_account_created', provider_name: CORP },
        { event: 'login', provider_name: CORP },
      ]);
      const [session] = await t.dataSource.query(`SELECT * FROM sessions WHERE user_id = $1`, [me.body.id]);
      expect(session.sso_provider_id).toBe(corpId);
    });

    it('signs the same identity in again without a new account, updating last use', async () => {
      const users = await countRows(t, 'users');
      const [before] = await t.dataSource.query(`SELECT last_used_at FROM sso_identities WHERE provider_id = $1 AND uid = 'alice'`, [corpId]);
      const attempt = await ssoLogin(t.server, idp, CORP, 'alice');
      expect(attempt.location).toBe('/');
      expect(await countRows(t, 'users')).toBe(users);
      const [after] = await t.dataSource.query(`SELECT last_used_at FROM sso_identities WHERE provider_id = $1 AND uid = 'alice'`, [corpId]);
      expect(new Date(after.last_used_at).getTime()).toBeGreaterThan(new Date(before.last_used_at).getTime());
    });

    it('ends an SSO session left unused past SESSION_IDLE_MINUTES, as it ends a password one', async () => {
      const attempt = await ssoLogin(t.server, idp, CORP, 'alice');
      const { cookie } = browserOf(attempt);
      const me = await request(t.server).get('/api/v1/me').set('Cookie', cookie).expect(200);
      const [session] = await t.dataSource.query(`SELECT id, last_seen_at, created_at FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`, [me.body.id]);
      expect(new Date(session.last_seen_at).getTime()).toBeGreaterThanOrEqual(new Date(session.created_at).getTime() - 1000);
      await t.dataSource.query(`UPDATE sessions SET last_seen_at = now() - interval '121 minutes' WHERE id = $1`, [session.id]);
      const idle = await request(t.server).get('/api/v1/me').set('Cookie', cookie).expect(401);
      expect(idle.body.error).toBe('unauthorized');
      await request(t.server).get('/api/v1/me').set('Cookie', cookie).expect(401);
    });

    it.each([
      ['dave', 'false'],
      ['erin', 'the string "true"'],
      ['frank', 'absent'],
    ])('refuses JIT and linking when email_verified is %s (%s)', async (account) => {
      await expectRefused(() => ssoLogin(t.server, idp, CORP, account), 'email_unverified');
      expect(await userByEmail(t, mail(account))).toBeUndefined();
    });

    it('refuses an identity without an e-mail address', async () => {
      await expectRefused(() => ssoLogin(t.server, idp, CORP, 'gina'), 'email_missing');
    });

    it('never signs in to an existing local account by e-mail: its password links the identity first', async () => {
      const local = await t.newHousehold({ role: 'member' });
      idp.accounts.carol = { email: local.email, email_verified: true };
      const pending = await expectRefusedLink(() => ssoLogin(t.server, idp, CORP, 'carol'));
      const info = await request(t.server).get('/auth/link').set('Cookie', pending.cookie).expect(200);
      expect(info.body).toEqual({ email: local.email, provider_name: CORP, provider_label: 'Corp SSO' });

      const wrong = await request(t.server).post('/auth/link').set('Cookie', pending.cookie).send({ password: 'not the password' }).expect(401);
      expect(wrong.body.error).toBe('invalid_credentials');
      expect(wrong.headers['set-cookie']).toBeUndefined();
      const failure = await lastFailure(t, CORP);
      expect(failure.reason).toBe('link_password_invalid');
      expect(failure.row.user_id).toBe(local.userId);
      expect(JSON.stringify(failure.row)).not.toContain('not the password');

      const linked = await request(t.server).post('/auth/link').set('Cookie', pending.cookie).send({ password: PASSWORD }).expect(201);
      expect(linked.body.user).toMatchObject({ id: local.userId, email: local.email });
      const [link] = await t.dataSource.query(`SELECT * FROM audit_logs WHERE event = 'link' AND user_id = $1`, [local.userId]);
      expect(link.provider_name).toBe(CORP);
      // Used once: the same pending link cannot be redeemed again.
      await request(t.server).post('/auth/link').set('Cookie', pending.cookie).send({ password: PASSWORD }).expect(404);

      const again = await ssoLogin(t.server, idp, CORP, 'carol');
      expect(again.location).toBe('/');
      const me = await request(t.server).get('/api/v1/me').set('Cookie', browserOf(again).cookie).expect(200);
      expect(me.body.id).toBe(local.userId);

      // Password plus identity: the identity may be disconnected, and that is audited.
      const settings = await request(t.server).get('/api/v1/settings/sso_identities').set('Cookie', browserOf(again).cookie).expect(200);
      expect(settings.body.sso_identities).toHaveLength(1);
      expect(settings.body.sso_identities[0]).toMatchObject({ provider_name: CORP, provider_label: 'Corp SSO', email: local.email });
      expect(settings.body.sso_identities[0].last_used_at).not.toBeNull();
      await as(t.server, browserOf(again), 'delete', `/api/v1/settings/sso_identities/${settings.body.sso_identities[0].id}`).expect(204);
      const [unlink] = await t.dataSource.query(`SELECT * FROM audit_logs WHERE event = 'unlink' AND user_id = $1`, [local.userId]);
      expect(unlink.provider_name).toBe(CORP);
    });

    it('keeps a pending link to the browser that signed in, for ten minutes', async () => {
      const local = await t.newHousehold({ role: 'member' });
      idp.accounts.ivy = { email: local.email, email_verified: true };
      const pending = await expectRefusedLink(() => ssoLogin(t.server, idp, CORP, 'ivy'));
      // Another browser, even one with a sign-in of its own under way, neither sees nor completes it.
      const other = await startSso(t.server, CORP);
      expect((await request(t.server).get('/auth/link').set('Cookie', other.cookie).expect(404)).body.error).toBe('link_not_found');
      await request(t.server).post('/auth/link').set('Cookie', other.cookie).send({ password: PASSWORD }).expect(404);
      await request(t.server).post('/auth/link').send({ password: PASSWORD }).expect(404);
      expect(await countRows(t, `sso_identities WHERE user_id = '${local.userId}'`)).toBe(0);
      // Past its ten minutes, not even the browser that signed in can complete it.
      await t.dataSource.query(`UPDATE sso_login_states SET expires_at = now() - interval '1 second' WHERE purpose = 'link' AND user_id = $1`, [local.userId]);
      await request(t.server).get('/auth/link').set('Cookie', pending.cookie).expect(404);
      await request(t.server).post('/auth/link').set('Cookie', pending.cookie).send({ password: PASSWORD }).expect(404);
      expect(await countRows(t, `sso_identities WHERE user_id = '${local.userId}'`)).toBe(0);
    });

    it("checks no more link passwords than the account's failure budget (10) when the guesses arrive all at once", async () => {
      const local = await t.newHousehold({ role: 'member' });
      idp.accounts.hank = { email: local.email, email_verified: true };
      const pending = await expectRefusedLink(() => ssoLogin(t.server, idp, CORP, 'hank'));
      const guesses = await Promise.all(
        Array.from({ length: 15 }, (_, i) => request(t.server).post('/auth/link').set('Cookie', pending.cookie).send({ password: `guess ${i}` })),
      );
      expect(guesses.map((g) => g.status).sort()).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);
      const [{ checked }] = await t.dataSource.query(
        `SELECT count(*)::int AS checked FROM audit_logs WHERE user_id = $1 AND details->>'reason' = 'link_password_invalid'`,
        [local.userId],
      );
      expect(checked).toBe(10);
      // Past the budget even the right password waits, as at sign-in.
      const refused = await request(t.server).post('/auth/link').set('Cookie', pending.cookie).send({ password: PASSWORD }).expect(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    });

    async function expectRefusedLink(attempt: () => Promise<SsoAttempt>): Promise<SsoAttempt> {
      const sessions = await countRows(t, 'sessions');
      const result = await attempt();
      expect(result.location).toBe('/sso/link');
      expect(result.setCookies.some((c) => c.startsWith('hearth_session='))).toBe(false);
      expect(await countRows(t, 'sessions')).toBe(sessions);
      return result;
    }

    it('keeps the only login method of an SSO-only user connected', async () => {
      const attempt = await ssoLogin(t.server, idp, CORP, 'alice');
      const browser = browserOf(attempt);
      // The JIT-provisioned account has no password, and /me says so (the admin app offers no password form).
      expect((await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(200)).body.password).toEqual({ set: false, sign_in_allowed: true, usable: false });
      const list = await request(t.server).get('/api/v1/settings/sso_identities').set('Cookie', browser.cookie).expect(200);
      const res = await as(t.server, browser, 'delete', `/api/v1/settings/sso_identities/${list.body.sso_identities[0].id}`).expect(409);
      // Only what the user can do: an SSO-provisioned account cannot set a password (PUT /me/password is 422 password_not_set).
      expect(res.body).toMatchObject({ error: 'last_login_method', message: 'This is your only way to sign in; connect another provider first.' });
      await as(t.server, browser, 'delete', `/api/v1/settings/sso_identities/${randomUUID()}`).expect(404);
      expect((await request(t.server).get('/api/v1/settings/sso_identities').set('Cookie', browser.cookie)).body.sso_identities).toHaveLength(1);
    });

    it('connects another provider account to the signed-in user (settings), never to a session-less browser', async () => {
      const local = await t.newHousehold({ role: 'member' });
      const browser = await signIn(t.server, local.email);
      idp.accounts.connie = { email: `elsewhere-${run}@other.example`, email_verified: true };
      const attempt = await ssoLogin(t.server, idp, CORP, 'connie', browser.cookie, true);
      expect(attempt.location).toBe(`/settings/security?connected=${CORP}`);
      const [identity] = await t.dataSource.query(`SELECT * FROM sso_identities WHERE provider_id = $1 AND uid = 'connie'`, [corpId]);
      expect(identity.user_id).toBe(local.userId);
      const [link] = await t.dataSource.query(`SELECT * FROM audit_logs WHERE event = 'link' AND user_id = $1`, [local.userId]);
      expect(link.provider_name).toBe(CORP);
      const anonymous = await request(t.server).get(`/auth/${CORP}?intent=connect`).expect(302);
      expect(anonymous.headers.location).toBe('/login?error=sso_session_required');
    });

    it('logs out at the provider too (RP-initiated logout) and ends the session', async () => {
      const browser = browserOf(await ssoLogin(t.server, idp, CORP, 'alice'));
      const res = await as(t.server, browser, 'post', '/auth/logout').expect(200);
      const url = new URL(res.body.logout_url);
      expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/session/end`);
      expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${APP_ORIGIN}/login`);
      expect(url.searchParams.get('id_token_hint')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      // The provider accepts the hint: it shows its sign-out confirmation rather than an error.
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/session/end/confirm');
      await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(401);
      const me = await userByEmail(t, mail('alice'));
      const [row] = await t.dataSource.query(`SELECT * FROM audit_logs WHERE event = 'logout_idp' AND user_id = $1`, [me.id]);
      expect(row.provider_name).toBe(CORP);
    });

    it('logs out locally when the stored ID token no longer decrypts (keys rotated), instead of failing the sign-out', async () => {
      const browser = browserOf(await ssoLogin(t.server, idp, CORP, 'alice'));
      const me = await userByEmail(t, mail('alice'));
      const [session] = await t.dataSource.query(`SELECT id FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`, [me.id]);
      // A token sealed under another key: the same envelope shape, an authentication tag that cannot match.
      const [{ sealed }] = await t.dataSource.query(`SELECT id_token_encrypted AS sealed FROM sso_sessions WHERE session_id = $1`, [session.id]);
      const parts = (sealed as string).split(':');
      parts[3] = Buffer.alloc(16, 7).toString('base64url');
      await t.dataSource.query(`UPDATE sso_sessions SET id_token_encrypted = $2 WHERE session_id = $1`, [session.id, parts.join(':')]);

      const res = await as(t.server, browser, 'post', '/auth/logout').expect(200);
      expect(res.body).toEqual({ logout_url: null });
      await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(401);
      const [event] = await t.dataSource.query(`SELECT event FROM audit_logs WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`, [me.id]);
      expect(event).toEqual({ event: 'logout' });
    });

    it('still logs out at the provider when the session has gone idle, so the next sign-in is not silent', async () => {
      const browser = browserOf(await ssoLogin(t.server, idp, CORP, 'alice'));
      const me = await userByEmail(t, mail('alice'));
      const [session] = await t.dataSource.query(`SELECT id FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`, [me.id]);
      await t.dataSource.query(`UPDATE sessions SET last_seen_at = now() - interval '121 minutes' WHERE id = $1`, [session.id]);
      await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(401);
      const audited = await countRows(t, 'audit_logs');

      const res = await as(t.server, browser, 'post', '/auth/logout').expect(200);
      const url = new URL(res.body.logout_url);
      expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/session/end`);
      expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${APP_ORIGIN}/login`);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/session/end/confirm');
      const [row] = await t.dataSource.query(`SELECT revoked_at FROM sessions WHERE id = $1`, [session.id]);
      expect(row.revoked_at).not.toBeNull();
      const events = await t.dataSource.query(`SELECT event, user_id, provider_name FROM audit_logs ORDER BY created_at DESC LIMIT 1`);
      expect(events).toEqual([{ event: 'logout_idp', user_id: me.id, provider_name: CORP }]);
      expect(await countRows(t, 'audit_logs')).toBe(audited + 1);
      // Ended: the provider's URL (and its ID token) is not handed out again.
      await as(t.server, browser, 'post', '/auth/logout').expect(401);
    });

    it('ends an idle provider session with its CSRF token and returns the end-session URL; without the token it is refused, idle or not', async () => {
      // A page of the app (its Origin, the API's cookie) that sends no token: refused whether the session is live or idle.
      const tokenless = (browser: Browser) => request(t.server).post('/auth/logout').set('Origin', APP_ORIGIN).set('Cookie', browser.cookie);
      const live = browserOf(await ssoLogin(t.server, idp, CORP, 'alice'));
      expect((await tokenless(live).expect(403)).body.error).toBe('csrf_failed');
      await request(t.server).get('/api/v1/me').set('Cookie', live.cookie).expect(200);

      const idle = browserOf(await ssoLogin(t.server, idp, CORP, 'alice'));
      const me = await userByEmail(t, mail('alice'));
      const [session] = await t.dataSource.query(`SELECT id FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`, [me.id]);
      await t.dataSource.query(`UPDATE sessions SET last_seen_at = now() - interval '121 minutes' WHERE id = $1`, [session.id]);
      expect((await tokenless(idle).expect(403)).body.error).toBe('csrf_failed');
      expect(await t.dataSource.query(`SELECT revoked_at IS NOT NULL AS ended FROM sessions WHERE id = $1`, [session.id])).toEqual([{ ended: false }]);

      const res = await as(t.server, idle, 'post', '/auth/logout').set('Origin', APP_ORIGIN).expect(200);
      const url = new URL(res.body.logout_url);
      expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/session/end`);
      expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${APP_ORIGIN}/login`);
      expect(await t.dataSource.query(`SELECT revoked_at IS NOT NULL AS ended FROM sessions WHERE id = $1`, [session.id])).toEqual([{ ended: true }]);
      const [event] = await t.dataSource.query(`SELECT event, provider_name FROM audit_logs WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1`, [me.id]);
      expect(event).toEqual({ event: 'logout_idp', provider_name: CORP });
      // Ended once: the end-session URL and its ID token are not handed out again, and the live session is untouched.
      const again = await as(t.server, idle, 'post', '/auth/logout').expect(401);
      expect(again.body).toEqual({ error: 'unauthorized', message: expect.any(String) });
      await request(t.server).get('/api/v1/me').set('Cookie', live.cookie).expect(200);
    });

    it('logs a password session out locally', async () => {
      const res = await as(t.server, admin, 'post', '/auth/logout').expect(200);
      expect(res.body.logout_url).toBeNull();
      await request(t.server).get('/api/v1/me').set('Cookie', admin.cookie).expect(401);
      admin = await signIn(t.server, (await t.dataSource.query(`SELECT email FROM users WHERE id = $1`, [adminId]))[0].email);
    });
  });

  describe('refusals (hostile-input group F): no session, no account, an audit row with the reason', () => {
    const tampered = (tamper: IdTokenTamper) => async () => {
      idp.tamperIdToken(tamper);
      try {
        return await ssoLogin(t.server, idp, CORP, 'alice');
      } finally {
        idp.tamperIdToken(null);
      }
    };
    const now = () => Math.floor(Date.now() / 1000);

    it('an ID token signed by another key', async () => {
      await expectRefused(tampered((jwt) => ({ ...jwt, signer: 'attacker' })), 'invalid_id_token');
    });

    it('an unsigned ID token (alg none)', async () => {
      await expectRefused(tampered((jwt) => ({ ...jwt, signer: 'none' })), 'invalid_id_token');
    });

    it('a validly signed ID token from another issuer', async () => {
      await expectRefused(tampered((jwt) => ({ ...jwt, payload: { ...jwt.payload, iss: 'http://evil.example' }, signer: 'idp' })), 'invalid_id_token');
    });

    it('a validly signed ID token for another audience', async () => {
      await expectRefused(tampered((jwt) => ({ ...jwt, payload: { ...jwt.payload, aud: 'someone-else' }, signer: 'idp' })), 'invalid_id_token');
    });

    it('an expired ID token', async () => {
      await expectRefused(tampered((jwt) => ({ ...jwt, payload: { ...jwt.payload, iat: now() - 7200, exp: now() - 3600 }, signer: 'idp' })), 'invalid_id_token');
    });

    it('an ID token that also names an untrusted audience, even with azp = this client', async () => {
      await expectRefused(tampered((jwt) => ({ ...jwt, payload: { ...jwt.payload, aud: ['hearth', 'untrusted-rp'], azp: 'hearth' }, signer: 'idp' })), 'invalid_id_token');
    });

    it('an ID token issued a week ago that has not expired', async () => {
      await expectRefused(tampered((jwt) => ({ ...jwt, payload: { ...jwt.payload, iat: now() - 7 * 86_400 }, signer: 'idp' })), 'invalid_id_token');
    });

    it('an ID token carrying the nonce of another sign-in (nonce replay)', async () => {
      const other = new URL((await startSso(t.server, CORP)).authorizationUrl).searchParams.get('nonce');
      expect(other).toBeTruthy();
      await expectRefused(tampered((jwt) => ({ ...jwt, payload: { ...jwt.payload, nonce: other }, signer: 'idp' })), 'invalid_id_token');
    });

    it('a replayed callback (state used once)', async () => {
      const first = await ssoLogin(t.server, idp, CORP, 'alice');
      expect(first.location).toBe('/');
      await expectRefused(() => finishSso(t.server, first.callbackPath, first.cookie), 'state_invalid');
    });

    it('a callback in another browser than the one that started the sign-in', async () => {
      const started = await startSso(t.server, CORP);
      const back = await idp.login(started.authorizationUrl, 'alice');
      await expectRefused(() => finishSso(t.server, back.pathname + back.search, ''), 'state_browser_mismatch');
    });

    it('a callback without state, or with a made-up one', async () => {
      await expectRefused(() => finishSso(t.server, `/auth/${CORP}/callback?code=abc`, ''), 'state_missing');
      await expectRefused(() => finishSso(t.server, `/auth/${CORP}/callback?code=abc&state=forged`, ''), 'state_invalid');
    });

    it('an error from the provider, without reflecting its description', async () => {
      const started = await startSso(t.server, CORP);
      const state = new URL(started.authorizationUrl).searchParams.get('state')!;
      const result = await expectRefused(
        () => finishSso(t.server, `/auth/${CORP}/callback?error=access_denied&error_description=%3Cscript%3E&state=${state}&iss=${encodeURIComponent(idp.issuer)}`, started.cookie),
        'provider_error',
      );
      expect(result.location).toBe('/login?error=sso_failed');
    });

    it('a provider disabled in the admin API, on the very next request, and re-enabled', async () => {
      const inFlight = await startSso(t.server, CORP);
      await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${corpId}/disable`).expect(200);
      try {
        const start = await request(t.server).get(`/auth/${CORP}`).expect(302);
        expect(start.headers.location).toBe('/login?error=sso_provider_unavailable');
        const back = await idp.login(inFlight.authorizationUrl, 'alice');
        const result = await finishSso(t.server, back.pathname + back.search, inFlight.cookie);
        expect(result.location).toBe('/login?error=sso_provider_unavailable');
      } finally {
        await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${corpId}/enable`).expect(200);
      }
      expect((await ssoLogin(t.server, idp, CORP, 'alice')).location).toBe('/');
      const changes = await t.dataSource.query(
        `SELECT details FROM audit_logs WHERE event = 'provider_updated' AND provider_id = $1 ORDER BY created_at DESC LIMIT 2`,
        [corpId],
      );
      expect(changes.map((c: { details: { enabled: boolean; actor_user_id: string } }) => [c.details.enabled, c.details.actor_user_id])).toEqual([
        [true, adminId],
        [false, adminId],
      ]);
    });
  });

  describe('issuer pinning', () => {
    let idp2: OidcIdp;
    afterAll(() => idp2?.close());

    it('refuses an identity made with one issuer when the provider now names another', async () => {
      idp2 = await startOidcIdp({
        clients: [{ client_id: 'hearth', client_secret: SECRET, redirect_uris: callbacks }],
        accounts: { hank: { email: mail('hank'), email_verified: true } },
      });
      idp.accounts.hank = { email: mail('hank'), email_verified: true };
      const pin = await createProvider(t.server, admin, oidcProviderFields(idp, PIN, SECRET, { enabled: true }));
      expect((await ssoLogin(t.server, idp, PIN, 'hank')).location).toBe('/');
      await as(t.server, admin, 'patch', `/api/v1/admin/sso_providers/${pin.id}`).send({ issuer: idp2.issuer, client_secret: '' }).expect(200);
      await expectRefused(() => ssoLogin(t.server, idp2, PIN, 'hank'), 'issuer_mismatch', PIN);
    });
  });

  describe('role mapping', () => {
    it('maps groups to roles on every login (case-sensitive, highest wins) and falls back to the default role', async () => {
      const provider = await createProvider(
        t.server,
        admin,
        oidcProviderFields(idp, ROLES, SECRET, {
          scopes: 'openid email profile groups',
          default_role: 'member',
          role_mapping: { groupMappings: [{ group: 'staff', role: 'member' }, { group: 'finance-admins', role: 'super_admin' }] },
          enabled: true,
        }),
      );
      const roleOf = async () => (await userByEmail(t, mail('bob'))).role;
      idp.accounts.bob.groups = ['staff', 'finance-admins'];
      expect((await ssoLogin(t.server, idp, ROLES, 'bob')).location).toBe('/');
      expect(await roleOf()).toBe('super_admin');

      // Someone else joins bob's family, so the family-creator floor (admin) no longer applies.
      const bob = await userByEmail(t, mail('bob'));
      await t.app.get(UsersService).create({ email: `peer-${run}@corp.example`, role: 'member', familyId: bob.family_id });
      idp.accounts.bob.groups = ['Finance-Admins', 'staff'];
      await ssoLogin(t.server, idp, ROLES, 'bob');
      expect(await roleOf()).toBe('member');
      idp.accounts.bob.groups = 'finance-admins';
      await ssoLogin(t.server, idp, ROLES, 'bob');
      expect(await roleOf()).toBe('super_admin');
      expect((await roleChanges(t, bob.id)).map((change) => [change.from, change.to])).toEqual([
        ['super_admin', 'member'],
        ['member', 'super_admin'],
      ]);
      expect(provider.name).toBe(ROLES);
    });
  });

  describe('generic OAuth2', () => {
    it('signs in through authorization, token (client_secret_basic) and user info URLs', async () => {
      await createProvider(t.server, admin, oauth2ProviderFields(idp, OAUTH, SECRET, { enabled: true }));
      const attempt = await ssoLogin(t.server, idp, OAUTH, 'oscar');
      expect(attempt.location).toBe('/');
      const me = await request(t.server).get('/api/v1/me').set('Cookie', browserOf(attempt).cookie).expect(200);
      expect(me.body.email).toBe(mail('oscar'));
      const [identity] = await t.dataSource.query(`SELECT i.uid FROM sso_identities i JOIN sso_providers p ON p.id = i.provider_id WHERE p.name = $1`, [OAUTH]);
      expect(identity.uid).toBe('oscar');
    });
  });

  describe('audit log API', () => {
    it('filters by event and time range, paginated, for super admins only', async () => {
      const path = `/api/v1/admin/audit_logs?event=login_failed&from=${encodeURIComponent(started.toISOString())}&per_page=2`;
      const first = await as(t.server, admin, 'get', path).expect(200);
      expect(first.body.total).toBeGreaterThanOrEqual(10);
      expect(first.body.audit_logs).toHaveLength(2);
      expect(first.body.audit_logs.every((row: { event: string }) => row.event === 'login_failed')).toBe(true);
      const second = await as(t.server, admin, 'get', `${path}&page=2`).expect(200);
      expect(second.body.audit_logs[0].id).not.toBe(first.body.audit_logs[0].id);
      const future = await as(t.server, admin, 'get', `/api/v1/admin/audit_logs?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`).expect(200);
      expect(future.body).toMatchObject({ total: 0, audit_logs: [] });
      const bad = await as(t.server, admin, 'get', '/api/v1/admin/audit_logs?event=nope&from=yesterday').expect(422);
      expect(bad.body.error).toBe('validation_failed');
      const member = await signIn(t.server, (await t.newHousehold({ role: 'admin' })).email);
      await as(t.server, member, 'get', '/api/v1/admin/audit_logs').expect(403);
    });
  });

  describe('deleting a provider', () => {
    it('removes it and its identities, audited', async () => {
      const list = await as(t.server, admin, 'get', '/api/v1/admin/sso_providers').expect(200);
      const pin = list.body.sso_providers.find((p: { name: string }) => p.name === PIN);
      await as(t.server, admin, 'delete', `/api/v1/admin/sso_providers/${pin.id}`).expect(204);
      await as(t.server, admin, 'get', `/api/v1/admin/sso_providers/${pin.id}`).expect(404);
      expect(await t.dataSource.query(`SELECT * FROM sso_identities WHERE provider_id = $1`, [pin.id])).toEqual([]);
      const [row] = await t.dataSource.query(`SELECT * FROM audit_logs WHERE event = 'provider_deleted' AND provider_id = $1`, [pin.id]);
      expect(row.user_id).toBe(adminId);
      expect((await request(t.server).get(`/auth/${PIN}`).expect(302)).headers.location).toBe('/login?error=sso_provider_unavailable');
    });
  });

  describe('sessions opened through a provider', () => {
    const me = (attempt: SsoAttempt) => request(t.server).get('/api/v1/me').set('Cookie', browserOf(attempt).cookie);
    const liveSessions = async (providerId: string): Promise<number> =>
      Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM sessions WHERE sso_provider_id = $1 AND revoked_at IS NULL`, [providerId]))[0].n);

    it('end when the provider is disabled, not when it is only edited; other sessions go on', async () => {
      const alice = await ssoLogin(t.server, idp, CORP, 'alice');
      await me(alice).expect(200);
      await as(t.server, admin, 'patch', `/api/v1/admin/sso_providers/${corpId}`).send({ label: 'Corp sign-in' }).expect(200);
      await me(alice).expect(200);
      const live = await liveSessions(corpId);
      await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${corpId}/disable`).expect(200);
      try {
        await me(alice).expect(401);
        await as(t.server, admin, 'get', '/api/v1/me').expect(200);
        const [change] = await t.dataSource.query(
          `SELECT details FROM audit_logs WHERE event = 'provider_updated' AND provider_id = $1 ORDER BY created_at DESC LIMIT 1`,
          [corpId],
        );
        expect(change.details).toMatchObject({ enabled: false, sessions_ended: live });
        expect(await liveSessions(corpId)).toBe(0);
      } finally {
        await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${corpId}/enable`).expect(200);
      }
      // Re-enabling does not bring the ended session back.
      await me(alice).expect(401);
    });

    it('end when the provider is deleted, except the session of the super admin deleting it', async () => {
      // bob is a super admin through the role mapping of ROLES (above), signed in twice through it.
      idp.accounts.bob.groups = ['finance-admins'];
      const [acting, other] = [await ssoLogin(t.server, idp, ROLES, 'bob'), await ssoLogin(t.server, idp, ROLES, 'bob')];
      const roles = (await as(t.server, admin, 'get', '/api/v1/admin/sso_providers').expect(200)).body.sso_providers.find((p: { name: string }) => p.name === ROLES);
      const live = await liveSessions(roles.id);
      await as(t.server, browserOf(acting), 'delete', `/api/v1/admin/sso_providers/${roles.id}`).expect(204);
      await me(other).expect(401);
      await me(acting).expect(200);
      const [row] = await t.dataSource.query(`SELECT details FROM audit_logs WHERE event = 'provider_deleted' AND provider_id = $1`, [roles.id]);
      expect(row.details).toMatchObject({ sessions_ended: live - 1 });
      expect(await liveSessions(roles.id)).toBe(1);
    });
  });
});
