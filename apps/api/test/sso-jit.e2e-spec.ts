import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { as, Browser } from './support/sessions';
import { OidcIdp, startOidcIdp } from './support/oidc-idp';
import { callbackUrl, countRows, createProvider, expectNoSignIn, oidcProviderFields, roleOf, ssoLogin, startSsoApp, userByEmail } from './support/sso';
import type { TestApp } from './support/test-app';

const run = randomUUID().slice(0, 8);
const NAME = `jit-${run}`;
const SECRET = `secret-${randomUUID()}`;

describe('JIT provisioning rules', () => {
  let idp: OidcIdp;
  beforeAll(async () => {
    idp = await startOidcIdp({
      clients: [{ client_id: 'hearth', client_secret: SECRET, redirect_uris: [callbackUrl(NAME)] }],
      accounts: {},
    });
  });
  afterAll(() => idp?.close());

  const account = (id: string, email: unknown, groups: string[] = []) => {
    idp.accounts[id] = { email, email_verified: true, groups };
    return id;
  };

  async function refused(t: TestApp, id: string, reason: string) {
    const { result: attempt, failure } = await expectNoSignIn(t, NAME, () => ssoLogin(t.server, idp, NAME, id));
    expect(attempt.location).toMatch(/^\/login\?error=/);
    expect(failure.reason).toBe(reason);
    return attempt;
  }

  describe('ALLOWED_OIDC_DOMAINS, and the last super admin under role mapping', () => {
    let t: TestApp;
    let admin: Browser;
    let adminId: string;
    beforeAll(async () => {
      ({ t, admin, adminId } = await startSsoApp({ ALLOWED_OIDC_DOMAINS: 'allowed.test, Other.Test' }));
      await createProvider(
        t.server,
        admin,
        oidcProviderFields(idp, NAME, SECRET, {
          scopes: 'openid email profile groups',
          role_mapping: { groupMappings: [{ group: 'root', role: 'super_admin' }] },
          enabled: true,
        }),
      );
    });
    afterAll(() => t?.close());

    it('creates accounts for a listed domain, compared case-insensitively', async () => {
      expect((await ssoLogin(t.server, idp, NAME, account('upper', `upper-${run}@ALLOWED.TEST`))).location).toBe('/');
      expect((await ssoLogin(t.server, idp, NAME, account('other', `other-${run}@other.test`))).location).toBe('/');
      const rows = await t.dataSource.query(`SELECT email FROM users WHERE email IN ($1, $2)`, [`upper-${run}@allowed.test`, `other-${run}@other.test`]);
      expect(rows).toHaveLength(2);
    });

    it.each([
      ['a subdomain', `u-${run}@sub.allowed.test`, 'domain_not_allowed'],
      ['a look-alike suffix', `u-${run}@allowed.test.evil.test`, 'domain_not_allowed'],
      ['another domain', `u-${run}@evil.test`, 'domain_not_allowed'],
      ['two @ (evil first)', `u-${run}@evil.test@allowed.test`, 'email_missing'],
      ['two @ (allowed first)', `u-${run}@allowed.test@evil.test`, 'email_missing'],
      ['a trailing dot', `u-${run}@allowed.test.`, 'email_missing'],
      ['surrounding space', `u-${run}@allowed.test `, 'email_missing'],
      ['an array', [`u-${run}@allowed.test`], 'email_missing'],
    ])('refuses JIT for %s', async (_label, email, reason) => {
      const result = await refused(t, account(`bad-${randomUUID()}`, email), reason);
      expect(result.location).toBe(reason === 'domain_not_allowed' ? '/login?error=sso_domain_not_allowed' : '/login?error=sso_email_unverified');
    });

    it('still offers linking to an existing account outside the listed domains (the list gates creation only)', async () => {
      const local = await t.newHousehold({ role: 'member' });
      const attempt = await ssoLogin(t.server, idp, NAME, account('local', local.email));
      expect(attempt.location).toBe('/sso/link');
    });

    it('never demotes the last active super admin, and audits the refusal', async () => {
      await ssoLogin(t.server, idp, NAME, account('rita', `rita-${run}@allowed.test`, ['root']));
      const rita = await userByEmail(t, `rita-${run}@allowed.test`);
      expect(rita.role).toBe('super_admin');
      // The setup super admin steps down, leaving rita the only one.
      await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [adminId]);
      idp.accounts.rita.groups = [];
      expect((await ssoLogin(t.server, idp, NAME, 'rita')).location).toBe('/');
      expect(await roleOf(t, rita.id)).toBe('super_admin');
      const [refusal] = await t.dataSource.query(`SELECT details FROM audit_logs WHERE event = 'role_changed' AND user_id = $1`, [rita.id]);
      expect(refusal.details).toMatchObject({ from: 'super_admin', to: 'super_admin', refused: 'admin', reason: 'last_super_admin' });
    });
  });

  describe('AUTH_JIT_MODE=link_only', () => {
    let t: TestApp;
    beforeAll(async () => {
      const s = await startSsoApp({ AUTH_JIT_MODE: 'link_only' });
      t = s.t;
      await createProvider(t.server, s.admin, oidcProviderFields(idp, NAME, SECRET, { enabled: true }));
    });
    afterAll(() => t?.close());

    it('creates no account at SSO sign-in', async () => {
      const result = await refused(t, account('newcomer', `newcomer-${run}@example.org`), 'jit_disabled');
      expect(result.location).toBe('/login?error=sso_account_creation_disabled');
    });

    it('links to an existing account after its password', async () => {
      const local = await t.newHousehold({ role: 'member' });
      const attempt = await ssoLogin(t.server, idp, NAME, account('existing', local.email));
      expect(attempt.location).toBe('/sso/link');
      const linked = await request(t.server).post('/auth/link').set('Cookie', attempt.cookie).send({ password: 'correct horse battery' }).expect(201);
      expect(linked.body.user.id).toBe(local.userId);
    });
  });

  describe('without SSO_ALLOW_INSECURE_HTTP', () => {
    let t: TestApp;
    let admin: Browser;
    beforeAll(async () => {
      ({ t, admin } = await startSsoApp({ SSO_ALLOW_INSECURE_HTTP: 'false' }, { fresh: false }));
    });
    afterAll(() => t?.close());

    it('requires https issuer and endpoint URLs', async () => {
      const before = await countRows(t, 'sso_providers');
      const oidc = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers')
        .send({ name: NAME, strategy: 'openid_connect', issuer: idp.issuer, client_id: 'hearth', client_secret: SECRET })
        .expect(422);
      expect(oidc.body.errors).toContain('issuer must use https (got http)');
      const oauth = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers')
        .send({
          name: NAME,
          strategy: 'oauth2',
          authorization_url: `${idp.issuer}/auth`,
          token_url: 'https://idp.example/token',
          userinfo_url: 'https://user:pw@idp.example/me',
          client_id: 'hearth',
          client_secret: SECRET,
        })
        .expect(422);
      expect(oauth.body.errors).toEqual(['authorization_url must use https (got http)', 'userinfo_url must not contain credentials']);
      expect(await countRows(t, 'sso_providers')).toBe(before);
    });
  });
});
