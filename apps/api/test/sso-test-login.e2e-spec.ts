import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { as, Browser, cookiesOf, signIn } from './support/sessions';
import type { OidcIdp } from './support/oidc-idp';
import { callbackUrl, countsOf, oidcProviderFields, SsoSuite, startSsoSuite } from './support/sso';
import type { TestApp } from './support/test-app';

const run = randomUUID().slice(0, 8);
const NAME = `trial-${run}`;
const SECRET = `secret-${randomUUID()}`;
const mail = (name: string) => `${name}-${run}@corp.example`;

describe('provider test login before enabling through a real oidc-provider', () => {
  let t: TestApp;
  let idp: OidcIdp;
  let admin: Browser;
  let adminId: string;
  let providerId: string;
  let existingEmail: string;
  let existingUserId: string;
  let suite: SsoSuite;

  beforeAll(async () => {
    suite = await startSsoSuite({
      clients: [{ client_id: 'hearth', client_secret: SECRET, redirect_uris: [callbackUrl(NAME)] }],
      accounts: { alice: { email: mail('alice'), email_verified: true, given_name: 'Alice', family_name: 'Liddell', groups: ['finance-admins', 'staff'] } },
      // Not enabled: the test login is how an administrator tries a provider before turning it on.
      providers: (idp) => [
        oidcProviderFields(idp, NAME, SECRET, {
          label: 'Trial SSO',
          scopes: 'openid email profile groups',
          default_role: 'member',
          role_mapping: { groupMappings: [{ group: 'finance-admins', role: 'admin' }] },
        }),
      ],
    });
    ({ t, idp, admin, adminId } = suite);
    providerId = suite.providers[0].id;
    const member = await t.newHousehold({ role: 'admin' });
    existingEmail = member.email;
    existingUserId = member.userId;
    // bob's e-mail at the IdP is that of an existing account.
    idp.accounts.bob = { email: existingEmail, email_verified: true, groups: ['staff'] };
  });
  afterAll(() => suite?.close());

  const counts = () => countsOf(t, ['users', 'sessions', 'sso_identities', 'families']);
  const roles = async () => t.dataSource.query(`SELECT id, role FROM users ORDER BY id`);
  const result = (browser: Browser = admin) => as(t.server, browser, 'get', `/api/v1/admin/sso_providers/${providerId}/test_login/result`);

  /** Starts a test login as `browser`, signs in at the IdP as `account`, and follows the IdP's redirect back. */
  async function testLogin(account: string, browser: Browser = admin, options: { dropSsoCookie?: boolean } = {}) {
    const started = await as(t.server, browser, 'post', `/api/v1/admin/sso_providers/${providerId}/test_login`).expect(201);
    const ssoCookie = cookiesOf(started.headers['set-cookie'] as unknown as string[]);
    expect(ssoCookie).toMatch(/^hearth_sso=/);
    const back = await idp.login(started.body.authorization_url, account);
    const cookie = options.dropSsoCookie ? browser.cookie : `${browser.cookie}; ${ssoCookie}`;
    const callback = await request(t.server).get(back.pathname + back.search).set('Cookie', cookie);
    return { started, callback, callbackPath: back.pathname + back.search, cookie };
  }

  it('on a disabled provider: shows the claims, e-mail, groups and mapped role; creates no user, identity or session', async () => {
    expect((await as(t.server, admin, 'get', `/api/v1/admin/sso_providers/${providerId}`).expect(200)).body.enabled).toBe(false);
    await result().expect(404);
    const before = await counts();
    const rolesBefore = await roles();

    const { started, callback, callbackPath, cookie } = await testLogin('alice');
    expect(started.body.authorization_url.startsWith(`${idp.issuer}/`)).toBe(true);
    expect(new Date(started.body.expires_at).getTime()).toBeGreaterThan(Date.now());
    expect(callback.status).toBe(302);
    expect(callback.headers.location).toBe(`/admin/sso_providers?test_login=${providerId}`);
    const setCookies = (callback.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
    expect(setCookies.some((c) => c.startsWith('hearth_session='))).toBe(false);

    const shown = await result().expect(200);
    expect(shown.body).toMatchObject({
      status: 'succeeded',
      provider_id: providerId,
      error: null,
      subject: 'alice',
      issuer: idp.issuer,
      email: mail('alice'),
      email_verified: true,
      groups: ['finance-admins', 'staff'],
      claims: { sub: 'alice', email: mail('alice'), given_name: 'Alice', family_name: 'Liddell', iss: idp.issuer, aud: 'hearth' },
      role_mapping: {
        configured: true,
        role: 'admin',
        decided_by: { kind: 'group_mapping', role: 'admin', group: 'finance-admins' },
        effective_roles: expect.arrayContaining(['admin']),
      },
      account: { identity_user_id: null, email_user_id: null },
    });
    expect(shown.body.role_mapping.explanation).toEqual(expect.any(String));
    expect(JSON.stringify(shown.body)).not.toMatch(/id_token|access_token|eyJ/);

    expect(await counts()).toEqual(before);
    expect(await roles()).toEqual(rolesBefore);
    expect((await as(t.server, admin, 'get', `/api/v1/admin/sso_providers/${providerId}`).expect(200)).body.enabled).toBe(false);

    // The test state is spent; replayed, it is an ordinary callback of a disabled provider and refused.
    const replay = await request(t.server).get(callbackPath).set('Cookie', cookie).expect(302);
    expect(replay.headers.location).toBe('/login?error=sso_provider_unavailable');
    // And the provider still cannot be used to sign in.
    expect((await request(t.server).get(`/auth/${NAME}`).expect(302)).headers.location).toBe('/login?error=sso_provider_unavailable');
    expect(await counts()).toEqual(before);

    const audit = await t.dataSource.query(`SELECT * FROM audit_logs WHERE event = 'provider_test_login' AND provider_id = $1 ORDER BY created_at`, [providerId]);
    expect(audit.map((a: { details: { stage: string } }) => a.details.stage)).toEqual(['started', 'completed']);
    expect(audit[1]).toMatchObject({ user_id: adminId, provider_name: NAME });
    expect(audit[1].details).toMatchObject({ actor_user_id: adminId, outcome: 'succeeded', mapped_role: 'admin', groups: 2 });
    expect(JSON.stringify(audit)).not.toContain(mail('alice'));
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });

  it('names the existing account a sign-in would link to, without linking it or changing its role', async () => {
    const before = await counts();
    const rolesBefore = await roles();
    await testLogin('bob');
    const shown = await result().expect(200);
    expect(shown.body).toMatchObject({
      status: 'succeeded',
      email: existingEmail,
      groups: ['staff'],
      role_mapping: { configured: true, role: 'member', decided_by: { kind: 'default', role: 'member' } },
      account: { identity_user_id: null, email_user_id: existingUserId },
    });
    expect(await counts()).toEqual(before);
    expect(await roles()).toEqual(rolesBefore);
  });

  it('reports a refused provider answer as a failed test, with the reason', async () => {
    idp.tamperIdToken((jwt) => ({ ...jwt, signer: 'attacker' }));
    try {
      await testLogin('alice');
    } finally {
      idp.tamperIdToken(null);
    }
    const shown = await result().expect(200);
    expect(shown.body).toMatchObject({ status: 'failed', error: 'invalid_id_token', email: null, role_mapping: null });
  });

  it('binds the test to the browser that started it', async () => {
    const before = await counts();
    const { callback } = await testLogin('alice', admin, { dropSsoCookie: true });
    expect(callback.headers.location).toBe(`/admin/sso_providers?test_login=${providerId}`);
    expect((await result().expect(200)).body).toMatchObject({ status: 'failed', error: 'state_browser_mismatch', claims: {} });
    expect(await counts()).toEqual(before);
  });

  it('shows a started but unfinished test as pending, and only to the admin who started it', async () => {
    await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${providerId}/test_login`).expect(201);
    expect((await result().expect(200)).body).toMatchObject({ status: 'pending', completed_at: null });
    const other = await signIn(t.server, (await t.newHousehold({ role: 'super_admin' })).email);
    expect((await result(other).expect(404)).body.error).toBe('test_login_not_found');
  });

  it('is refused to anyone but a super admin', async () => {
    const familyAdmin = await signIn(t.server, existingEmail);
    await as(t.server, familyAdmin, 'post', `/api/v1/admin/sso_providers/${providerId}/test_login`).expect(403);
    await result(familyAdmin).expect(403);
    await request(t.server).post(`/api/v1/admin/sso_providers/${providerId}/test_login`).expect(401);
    await request(t.server).get(`/api/v1/admin/sso_providers/${providerId}/test_login/result`).expect(401);
    await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${randomUUID()}/test_login`).expect(404);
  });
});
