import { createHash, randomUUID } from 'node:crypto';
import request from 'supertest';
import { as, Browser, cookiesOf, signIn } from './support/sessions';
import type { OidcIdp } from './support/oidc-idp';
import { makeKeyPair, SamlIdp, SamlUser } from './support/saml-idp';
import { callbackUrl, countRows, countsOf, createProvider, expectNoSignIn, lastFailure, oauth2Client, oauth2ProviderFields, oidcProviderFields, ssoLogin, SsoSuite, startSso, startSsoSuite, userByEmail } from './support/sso';
import type { TestApp } from './support/test-app';

const run = randomUUID().slice(0, 8);
const OIDC = `blk-oidc-${run}`;
const OAUTH = `blk-oauth-${run}`;
const SAML = `blk-saml-${run}`;
const SECRET = `secret-${randomUUID()}`;
const mail = (name: string) => `${name}-${run}@removed.example`;
const TABLES = ['users', 'sessions', 'sso_identities'];

interface BlockDto {
  id: string;
  provider_id: string;
  provider_name: string;
  provider_label: string;
  identity_label: string;
  created_at: string;
}

describe('SSO identities of permanently removed users (sso_identity_blocks)', () => {
  let t: TestApp;
  let idp: OidcIdp;
  let samlIdp: SamlIdp;
  let root: Browser;
  let rootId: string;
  let samlId: string;
  let suite: SsoSuite;

  beforeAll(async () => {
    // Counts of users, sessions and identities are instance-wide: startSsoSuite gives the app a database of its own.
    suite = await startSsoSuite({
      clients: [
        { client_id: 'hearth', client_secret: SECRET, redirect_uris: [callbackUrl(OIDC)] },
        oauth2Client(OAUTH, SECRET),
      ],
      providers: (idp) => [
        oidcProviderFields(idp, OIDC, SECRET, { label: 'Blocks OIDC', enabled: true }),
        oauth2ProviderFields(idp, OAUTH, SECRET, { enabled: true }),
      ],
    });
    ({ t, idp, admin: root, adminId: rootId } = suite);
    const keys = makeKeyPair('Blocks IdP');
    samlIdp = new SamlIdp(keys);
    samlId = (
      await createProvider(t.server, root, { name: SAML, strategy: 'saml', sso_url: samlIdp.ssoUrl, idp_entity_id: samlIdp.entityId, idp_certificate: keys.cert, enabled: true })
    ).id;
    const metadata = await request(t.server)
      .get(`/auth/saml/${samlId}/metadata`)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      });
    samlIdp.trust(metadata.body);
  });
  afterAll(() => suite?.close());

  const account = (id: string, email: string) => {
    idp.accounts[id] = { email, email_verified: true };
    return id;
  };
  const counts = () => countsOf(t, TABLES);
  const remove = (browser: Browser, id: string, email: string) => as(t.server, browser, 'delete', `/api/v1/admin/users/${id}`).send({ confirmation_email: email });
  const blocks = async (): Promise<BlockDto[]> => (await as(t.server, root, 'get', '/api/v1/admin/sso_identity_blocks').expect(200)).body.sso_identity_blocks;

  /** The sign-in ends on the login page with the removed-identity message, creates nothing, and is audited. */
  async function expectRemoved(attempt: () => Promise<{ location: string; setCookies: string[] }>, providerName: string) {
    const { result, failure } = await expectNoSignIn(t, providerName, attempt);
    expect(result.location).toBe('/login?error=sso_identity_removed');
    expect(failure.reason).toBe('removed_identity');
    expect(failure.row.user_id).toBeNull();
  }

  async function samlLogin(user: SamlUser) {
    const started = await startSso(t.server, SAML);
    const { SAMLResponse } = await samlIdp.respond(started.authorizationUrl, user);
    const posted = await request(t.server).post(`/auth/saml/${samlId}/callback`).type('form').send({ SAMLResponse });
    expect(posted.status).toBe(303);
    const res = await request(t.server).get(posted.headers.location).set('Cookie', started.cookie);
    const setCookies = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
    return { location: res.headers.location as string, setCookies, cookie: [started.cookie, cookiesOf(setCookies)].join('; ') };
  }

  describe('OIDC', () => {
    let block: BlockDto;

    it('blocks the identities of a removed JIT user: the same subject is refused, audited, and nothing is created', async () => {
      const sub = account(`rex-${run}`, mail('rex'));
      expect((await ssoLogin(t.server, idp, OIDC, sub)).location).toBe('/');
      const rex = (await userByEmail(t, mail('rex')))!;
      await remove(root, rex.id, mail('rex')).expect(204);
      const [removal] = await t.dataSource.query(`SELECT details FROM audit_logs WHERE event = 'user_removed' AND user_id = $1`, [rex.id]);
      expect(removal.details).toEqual({ actor_user_id: rootId, target_user_id: rex.id, blocked_identities: 1 });

      // Only a keyed digest of the subject is stored, and the label is encrypted.
      const rows = await t.dataSource.query(`SELECT b.* FROM sso_identity_blocks b JOIN sso_providers p ON p.id = b.provider_id WHERE p.name = $1`, [OIDC]);
      expect(rows).toHaveLength(1);
      expect(rows[0].uid_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(rows[0].uid_digest).not.toBe(createHash('sha256').update(sub).digest('hex'));
      expect(JSON.stringify(rows[0])).not.toContain(sub);
      expect(JSON.stringify(rows[0])).not.toContain(mail('rex'));
      expect(rows[0].identity_label_encrypted).toMatch(/^enc:v1:/);

      await expectRemoved(() => ssoLogin(t.server, idp, OIDC, sub), OIDC);
      expect(await userByEmail(t, mail('rex'))).toBeUndefined();
    });

    it('refuses to link the blocked identity to an existing account with the e-mail the IdP now reports', async () => {
      const local = await t.newHousehold({ role: 'member' });
      idp.accounts[`rex-${run}`].email = local.email;
      await expectRemoved(() => ssoLogin(t.server, idp, OIDC, `rex-${run}`), OIDC);
      idp.accounts[`rex-${run}`].email = mail('rex');
    });

    it('refuses to connect the blocked identity to a signed-in account', async () => {
      const other = await t.newHousehold({ role: 'member' });
      const browser = await signIn(t.server, other.email);
      await expectRemoved(() => ssoLogin(t.server, idp, OIDC, `rex-${run}`, browser.cookie, true), OIDC);
    });

    it('blocks by identity, not by e-mail: another subject with the same e-mail gets a new account', async () => {
      expect((await ssoLogin(t.server, idp, OIDC, account(`rex-other-${run}`, mail('rex')))).location).toBe('/');
      const again = (await userByEmail(t, mail('rex')))!;
      // Removed again so the original subject can be allowed back onto an unused e-mail below.
      await remove(root, again.id, mail('rex')).expect(204);
      expect((await blocks()).filter((b) => b.provider_name === OIDC)).toHaveLength(2);
    });

    it('lists blocks for super admins only, with the provider and the decrypted label', async () => {
      const listed = (await blocks()).filter((b) => b.provider_name === OIDC);
      expect(listed.every((b) => b.identity_label === mail('rex') && b.provider_label === 'Blocks OIDC')).toBe(true);
      block = listed[0];

      const admin = await t.newHousehold({ role: 'admin' });
      const adminBrowser = await signIn(t.server, admin.email);
      await as(t.server, adminBrowser, 'get', '/api/v1/admin/sso_identity_blocks').expect(403);
      await as(t.server, adminBrowser, 'delete', `/api/v1/admin/sso_identity_blocks/${block.id}`).expect(403);
      const member = await signIn(t.server, (await t.newHousehold({ role: 'member' })).email);
      await as(t.server, member, 'delete', `/api/v1/admin/sso_identity_blocks/${block.id}`).expect(403);
      await request(t.server).get('/api/v1/admin/sso_identity_blocks').expect(401);
      expect(await countRows(t, `sso_identity_blocks WHERE id = '${block.id}'`)).toBe(1);
    });

    it('"allow again" deletes the block, audited; the subject can sign in and get an account again', async () => {
      const removed = (await blocks()).filter((b) => b.provider_name === OIDC);
      for (const b of removed) await as(t.server, root, 'delete', `/api/v1/admin/sso_identity_blocks/${b.id}`).expect(204);
      await as(t.server, root, 'delete', `/api/v1/admin/sso_identity_blocks/${block.id}`).expect(404);
      const [audit] = await t.dataSource.query(`SELECT * FROM audit_logs WHERE event = 'identity_unblocked' AND details->>'identity_block_id' = $1`, [block.id]);
      expect(audit).toMatchObject({ user_id: null, provider_name: OIDC, details: { actor_user_id: rootId, identity_block_id: block.id } });
      expect(JSON.stringify(audit)).not.toContain(mail('rex'));
      expect((await blocks()).filter((b) => b.provider_name === OIDC)).toEqual([]);

      expect((await ssoLogin(t.server, idp, OIDC, `rex-${run}`)).location).toBe('/');
      expect(await userByEmail(t, mail('rex'))).toBeDefined();
    });

    it('refuses a pending link whose identity was blocked after the callback (checked again under the identity lock)', async () => {
      const local = await t.newHousehold({ role: 'member' });
      const sub = account(`lena-${run}`, local.email);
      const pending = await ssoLogin(t.server, idp, OIDC, sub);
      expect(pending.location).toBe('/sso/link');
      // Meanwhile the subject is linked to another user, who is then removed: the identity is blocked.
      const other = await t.newHousehold({ role: 'member' });
      await t.dataSource.query(`INSERT INTO sso_identities (user_id, provider_id, uid) SELECT $1, id, $2 FROM sso_providers WHERE name = $3`, [other.userId, sub, OIDC]);
      await remove(root, other.userId, other.email).expect(204);

      const before = await counts();
      const res = await request(t.server).post('/auth/link').set('Cookie', pending.cookie).send({ password: 'correct horse battery' }).expect(403);
      expect(res.body.error).toBe('removed_identity');
      expect(res.headers['set-cookie']?.toString() ?? '').not.toContain('hearth_session=');
      expect(await counts()).toEqual(before);
      expect((await lastFailure(t, OIDC)).reason).toBe('removed_identity');
    });
  });

  it('OAuth2: a removed user is refused, then allowed again', async () => {
    const sub = account(`otto-${run}`, mail('otto'));
    expect((await ssoLogin(t.server, idp, OAUTH, sub)).location).toBe('/');
    const otto = (await userByEmail(t, mail('otto')))!;
    await remove(root, otto.id, mail('otto')).expect(204);
    await expectRemoved(() => ssoLogin(t.server, idp, OAUTH, sub), OAUTH);
    const [b] = (await blocks()).filter((x) => x.provider_name === OAUTH);
    await as(t.server, root, 'delete', `/api/v1/admin/sso_identity_blocks/${b.id}`).expect(204);
    expect((await ssoLogin(t.server, idp, OAUTH, sub)).location).toBe('/');
  });

  it('SAML: a removed user is refused, then allowed again', async () => {
    const user: SamlUser = { nameId: mail('sam'), attributes: { email: mail('sam'), first_name: 'Sam' } };
    expect((await samlLogin(user)).location).toBe('/');
    const sam = (await userByEmail(t, mail('sam')))!;
    await remove(root, sam.id, mail('sam')).expect(204);
    await expectRemoved(() => samlLogin(user), SAML);
    const [b] = (await blocks()).filter((x) => x.provider_name === SAML);
    expect(b.identity_label).toBe(mail('sam'));
    await as(t.server, root, 'delete', `/api/v1/admin/sso_identity_blocks/${b.id}`).expect(204);
    expect((await samlLogin(user)).location).toBe('/');
  });

  it('blocks every identity of the user, and only when the removal commits', async () => {
    const sub = account(`multi-${run}`, mail('multi'));
    expect((await ssoLogin(t.server, idp, OIDC, sub)).location).toBe('/');
    const multi = (await userByEmail(t, mail('multi')))!;
    // A refused removal (wrong confirmation) blocks nothing.
    const before = await countRows(t, 'sso_identity_blocks');
    await remove(root, multi.id, 'someone@else.example').expect(422);
    expect(await countRows(t, 'sso_identity_blocks')).toBe(before);
    await t.dataSource.query(
      `INSERT INTO sso_identities (user_id, provider_id, uid, email) SELECT $1, id, $2, $3 FROM sso_providers WHERE name = $4`,
      [multi.id, `multi-oauth-${run}`, mail('multi'), OAUTH],
    );
    await remove(root, multi.id, mail('multi')).expect(204);
    expect(await countRows(t, 'sso_identity_blocks')).toBe(before + 2);
  });
});
