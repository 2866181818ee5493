import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Server } from 'node:http';
import { as, Browser, cookiesOf, PASSWORD, signIn } from './support/sessions';
import { decode, encode, KeyPair, makeKeyPair, RespondOptions, SamlIdp, SamlUser, SHA1 } from './support/saml-idp';
import { APP_ORIGIN, countRows, createProvider, lastFailure, SSO_ENV, startSso } from './support/sso';
import { startFreshTestApp } from './support/fresh-database';
import type { TestApp } from './support/test-app';

const run = randomUUID().slice(0, 8);
const CORP = `saml-${run}`;
const SIGNED = `saml-signed-${run}`;
const mail = (name: string) => `${name}-${run}@corp.example`;

/** supertest leaves unknown content types (application/samlmetadata+xml) unparsed. */
const asText = (res: request.Response, done: (error: Error | null, body: string) => void) => {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.on('end', () => done(null, text));
};

const metadataOf = (server: Server, providerId: string) => request(server).get(`/auth/saml/${providerId}/metadata`).buffer(true).parse(asText);

/** The IdP's cross-site POST to the ACS: no cookies of ours, as browsers send it. */
const postResponse = (server: Server, providerId: string, SAMLResponse: string) =>
  request(server).post(`/auth/saml/${providerId}/callback`).type('form').send({ SAMLResponse, RelayState: 'https://evil.example/' });

/** The POST, then the browser following the ACS's 303 with its own cookies (those of the browser that started). */
async function postAndReturn(server: Server, providerId: string, SAMLResponse: string, cookie: string): Promise<request.Response> {
  const posted = await postResponse(server, providerId, SAMLResponse);
  if (posted.status !== 303) return posted;
  expect(posted.headers.location).toMatch(new RegExp(`^/auth/saml/${providerId}/callback\\?state=[A-Za-z0-9_-]{43}$`));
  expect(posted.headers['set-cookie']).toBeUndefined();
  return request(server).get(posted.headers.location).set('Cookie', cookie);
}

describe('SAML 2.0 sign-in through a real samlify IdP', () => {
  let idpKeys: KeyPair;
  let attackerKeys: KeyPair;
  let spKeys: KeyPair;
  let idp: SamlIdp;
  let signingIdp: SamlIdp;
  let t: TestApp;
  let admin: Browser;
  let corpId: string;
  let signedId: string;

  beforeAll(async () => {
    idpKeys = makeKeyPair('Hearth test IdP');
    attackerKeys = makeKeyPair('Attacker');
    spKeys = makeKeyPair('Hearth SP');
    idp = new SamlIdp(idpKeys);
    // The same IdP as a second provider that wants our AuthnRequests signed.
    signingIdp = new SamlIdp(idpKeys, { entityId: idp.entityId, wantAuthnRequestsSigned: true });
    // A database of its own: refusals are checked against instance-wide row counts.
    t = await startFreshTestApp({ ...SSO_ENV, ALLOWED_OIDC_DOMAINS: 'corp.example' });
    const h = await t.newHousehold({ role: 'super_admin' });
    admin = await signIn(t.server, h.email);
    const common = { strategy: 'saml', sso_url: idp.ssoUrl, idp_entity_id: idp.entityId, idp_certificate: idpKeys.cert, enabled: true };
    corpId = (
      await createProvider(t.server, admin, {
        ...common,
        name: CORP,
        label: 'Corp SAML',
        group_attribute: 'memberOf',
        role_mapping: { groupMappings: [{ group: 'root', role: 'super_admin' }] },
      })
    ).id;
    signedId = (await createProvider(t.server, admin, { ...common, name: SIGNED, sign_requests: true, sp_private_key: spKeys.key, sp_certificate: spKeys.cert })).id;
    idp.trust((await metadataOf(t.server, corpId)).body);
    signingIdp.trust((await metadataOf(t.server, signedId)).body);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Starts a sign-in at /auth/<name> and lets the IdP parse the AuthnRequest it redirects to. */
  async function begin(providerName = CORP, provider = idp, cookie = '') {
    const started = await startSso(t.server, providerName, cookie);
    const { id } = await provider.parseRequest(started.authorizationUrl);
    return { ...started, requestId: id };
  }

  /** A whole sign-in: /auth/<name>, the IdP's answer, its cross-site POST to the ACS (no cookies, as browsers send it). */
  async function samlLogin(user: SamlUser, options: RespondOptions = {}, providerName = CORP, provider = idp, providerId = corpId) {
    const started = await begin(providerName, provider);
    const res = await postAndReturn(t.server, providerId, await provider.response(started.requestId, user, options), started.cookie);
    const setCookies = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
    return { res, location: res.headers.location as string, setCookies, cookie: [started.cookie, cookiesOf(setCookies)].filter(Boolean).join('; ') };
  }

  const person = (name: string, groups: string[] = [], extra: Record<string, string | string[]> = {}): SamlUser => ({
    nameId: mail(name),
    attributes: { email: mail(name), first_name: name[0].toUpperCase() + name.slice(1), last_name: 'Tester', memberOf: groups, ...extra },
  });

  const userByEmail = async (email: string) => (await t.dataSource.query(`SELECT * FROM users WHERE email = $1`, [email]))[0];

  /** A refused response: back to the sign-in page, no session cookie, no session/user/identity row, audited. */
  async function expectRefused(post: () => Promise<request.Response>, reason: string, providerName = CORP): Promise<void> {
    const before = await Promise.all(['sessions', 'users', 'sso_identities'].map((table) => countRows(t, table)));
    const failuresBefore = await countRows(t, `audit_logs WHERE event = 'login_failed'`);
    const res = await post();
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/login\?error=sso_[a-z_]+$/);
    expect(((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).some((c) => c.startsWith('hearth_session='))).toBe(false);
    expect(await Promise.all(['sessions', 'users', 'sso_identities'].map((table) => countRows(t, table)))).toEqual(before);
    expect(await countRows(t, `audit_logs WHERE event = 'login_failed'`)).toBe(failuresBefore + 1);
    const failure = await lastFailure(t, providerName);
    expect(failure.reason).toBe(reason);
    expect(JSON.stringify(failure.row)).not.toContain('SAMLResponse');
  }

  /** A correctly signed answer to a fresh request, with some fields changed. */
  async function refusedWith(options: RespondOptions, reason: string, user = person('mallory')) {
    const started = await begin();
    const response = await idp.response(started.requestId, user, options);
    await expectRefused(() => postResponse(t.server, corpId, response), reason);
  }

  it('refuses a provider whose IdP certificate is not one, and takes a bare base64 body as IdP metadata prints it', async () => {
    const saml = (name: string, cert: string) =>
      as(t.server, admin, 'post', '/api/v1/admin/sso_providers').send({ strategy: 'saml', name, sso_url: idp.ssoUrl, idp_certificate: cert, enabled: false });
    const before = await countRows(t, 'sso_providers');
    for (const bad of ['not a cert', '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----', `${idpKeys.cert}\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----`]) {
      const refused = await saml(`bad-cert-${run}`, bad).expect(422);
      expect(refused.body.errors).toContain('idp_certificate must be an X.509 certificate (PEM, or its base64 body)');
    }
    expect(await countRows(t, 'sso_providers')).toBe(before);
    const body = idpKeys.cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, '');
    await saml(`bare-cert-${run}`, body).expect(201);
  });

  describe('service-provider metadata', () => {
    it('names our entity ID, ACS and SLO addresses, asks for e-mail NameIDs and signed assertions', async () => {
      const res = await metadataOf(t.server, corpId).expect(200);
      expect(res.headers['content-type']).toContain('application/samlmetadata+xml');
      const xml = res.body as string;
      const base = `${APP_ORIGIN}/auth/saml/${corpId}`;
      expect(xml).toContain(`entityID="${base}"`);
      expect(xml).toMatch(new RegExp(`<AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${base}/callback"`));
      expect(xml).toMatch(new RegExp(`<SingleLogoutService[^>]*Location="${base}/logout"`));
      expect(xml).toContain('<NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</NameIDFormat>');
      expect(xml).toContain('WantAssertionsSigned="true"');
      expect(xml).toContain('AuthnRequestsSigned="false"');
      expect(xml).not.toContain('KeyDescriptor');
    });

    it('includes the signing certificate when request signing is on, and never the private key (stored encrypted)', async () => {
      const xml = (await metadataOf(t.server, signedId).expect(200)).body as string;
      const certBody = spKeys.cert.replace(/-----[^-]+-----|\s/g, '');
      const keyBody = spKeys.key.replace(/-----[^-]+-----|\s/g, '');
      expect(xml).toContain('AuthnRequestsSigned="true"');
      expect(xml).toMatch(/<KeyDescriptor use="signing">/);
      expect(xml.replace(/\s/g, '')).toContain(certBody);
      expect(xml).not.toContain('PRIVATE KEY');
      expect(xml.replace(/\s/g, '')).not.toContain(keyBody.slice(0, 64));
      const [row] = await t.dataSource.query(`SELECT sp_private_key_encrypted FROM sso_providers WHERE id = $1`, [signedId]);
      expect(row.sp_private_key_encrypted).toMatch(/^enc:v1:/);
      const shown = await as(t.server, admin, 'get', `/api/v1/admin/sso_providers/${signedId}`).expect(200);
      expect(shown.body).toMatchObject({ has_sp_private_key: true, sign_requests: true, callback_url: `${APP_ORIGIN}/auth/saml/${signedId}/callback` });
      expect(JSON.stringify(shown.body)).not.toContain(keyBody.slice(0, 64));
    });

    it('answers 404 for unknown ids, non-UUIDs and providers of other strategies', async () => {
      await request(t.server).get(`/auth/saml/${randomUUID()}/metadata`).expect(404);
      await request(t.server).get(`/auth/saml/not-a-uuid/metadata`).expect(404);
      const oauth = await createProvider(t.server, admin, {
        name: `oauth-${run}`,
        strategy: 'oauth2',
        authorization_url: 'https://idp.test/authorize',
        token_url: 'https://idp.test/token',
        userinfo_url: 'https://idp.test/me',
        client_id: 'c',
        client_secret: 's',
      });
      await request(t.server).get(`/auth/saml/${oauth.id}/metadata`).expect(404);
    });
  });

  describe('sign-in', () => {
    it('starts at /auth/<name> with a schema-valid AuthnRequest (HTTP-Redirect) remembered in the database', async () => {
      const started = await begin();
      const parsed = await idp.parseRequest(started.authorizationUrl);
      const base = `${APP_ORIGIN}/auth/saml/${corpId}`;
      expect(parsed.extract.issuer).toBe(base);
      expect(parsed.extract.request).toMatchObject({ id: started.requestId, destination: idp.ssoUrl, assertionConsumerServiceUrl: `${base}/callback` });
      expect(parsed.extract.nameIDPolicy).toMatchObject({ format: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress' });
      const [row] = await t.dataSource.query(`SELECT * FROM saml_requests WHERE id = $1`, [started.requestId]);
      expect(row).toMatchObject({ provider_id: corpId, purpose: 'login', consumed_at: null });
      expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now());
    });

    it('creates an account at first sign-in (JIT) from the cross-site POST, with names, groups and issuer', async () => {
      const attempt = await samlLogin(person('alice', ['staff']));
      expect(attempt.location).toBe('/');
      expect(attempt.setCookies.some((c) => c.startsWith('hearth_session='))).toBe(true);
      const alice = await userByEmail(mail('alice'));
      expect(alice).toMatchObject({ first_name: 'Alice', last_name: 'Tester', role: 'admin', password_hash: null });
      const [identity] = await t.dataSource.query(`SELECT * FROM sso_identities WHERE user_id = $1`, [alice.id]);
      expect(identity).toMatchObject({ provider_id: corpId, uid: mail('alice'), issuer: idp.entityId, email: mail('alice') });
      const events = await t.dataSource.query(`SELECT event, provider_name FROM audit_logs WHERE user_id = $1 ORDER BY created_at`, [alice.id]);
      expect(events).toEqual([
        { event: 'jit_account_created', provider_name: CORP },
        { event: 'login', provider_name: CORP },
      ]);
      const me = await request(t.server).get('/api/v1/me').set('Cookie', attempt.cookie).expect(200);
      expect(me.body.email).toBe(mail('alice'));
    });

    it('signs the same NameID in again and syncs the role from the configured group attribute on every login', async () => {
      expect((await samlLogin(person('bob', ['staff']))).location).toBe('/');
      const bob = await userByEmail(mail('bob'));
      expect(bob.role).toBe('admin');
      expect((await samlLogin(person('bob', ['root']))).location).toBe('/');
      expect((await userByEmail(mail('bob'))).role).toBe('super_admin');
      // The standard `groups` attribute is not what this provider reads.
      expect((await samlLogin(person('bob', [], { groups: ['root'] }))).location).toBe('/');
      expect((await userByEmail(mail('bob'))).role).toBe('admin');
      expect(await countRows(t, `users WHERE email = '${mail('bob')}'`)).toBe(1);
      const changes = await t.dataSource.query(`SELECT details FROM audit_logs WHERE event = 'role_changed' AND user_id = $1 ORDER BY created_at`, [bob.id]);
      expect(changes.map((c: { details: { from: string; to: string } }) => `${c.details.from}->${c.details.to}`)).toEqual(['admin->super_admin', 'super_admin->admin']);
    });

    it('signs AuthnRequests with the SP key when asked to (the IdP verifies the signature) and accepts fully signed responses', async () => {
      const attempt = await samlLogin(person('carol'), { signing: 'both' }, SIGNED, signingIdp, signedId);
      expect(attempt.location).toBe('/');
      const url = new URL((await startSso(t.server, SIGNED)).authorizationUrl);
      expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
      expect(url.searchParams.get('Signature')).toBeTruthy();
      // A tampered request no longer verifies at the IdP.
      url.searchParams.set('RelayState', 'x');
      await expect(signingIdp.parseRequest(url.toString())).rejects.toThrow();
    });

    it('accepts an assertion whose NotOnOrAfter passed within the allowed clock skew (60 s)', async () => {
      const past = new Date(Date.now() - 30_000).toISOString();
      expect((await samlLogin(person('dora'), { fields: { subjectNotOnOrAfter: past, notOnOrAfter: past } })).location).toBe('/');
    });

    it('never signs in to an existing local account by e-mail: its password links the identity first', async () => {
      const local = await t.newHousehold({ role: 'member' });
      const attempt = await samlLogin({ nameId: local.email, attributes: { email: local.email } });
      expect(attempt.location).toBe('/sso/link');
      expect(attempt.setCookies.some((c) => c.startsWith('hearth_session='))).toBe(false);
      // The link is bound to the browser that started the sign-in, although the ACS POST carried no cookie.
      const pending = await request(t.server).get('/auth/link').set('Cookie', attempt.cookie).expect(200);
      expect(pending.body).toMatchObject({ email: local.email, provider_name: CORP });
      await request(t.server).post('/auth/link').send({ password: PASSWORD }).expect(404);
      const linked = await request(t.server).post('/auth/link').set('Cookie', attempt.cookie).send({ password: PASSWORD }).expect(201);
      expect(linked.body.user.id).toBe(local.userId);
      expect((await samlLogin({ nameId: local.email, attributes: { email: local.email } })).location).toBe('/');
    });

    it('connects the provider to a signed-in account (?intent=connect)', async () => {
      const local = await t.newHousehold({ role: 'member' });
      const browser = await signIn(t.server, local.email);
      const started = await startSso(t.server, CORP, browser.cookie, true);
      const { SAMLResponse } = await idp.respond(started.authorizationUrl, person('connected'));
      const res = await postAndReturn(t.server, corpId, SAMLResponse, started.cookie);
      expect(res.headers.location).toBe(`/settings/security?connected=${CORP}`);
      const [identity] = await t.dataSource.query(`SELECT * FROM sso_identities WHERE provider_id = $1 AND uid = $2`, [corpId, mail('connected')]);
      expect(identity.user_id).toBe(local.userId);
      expect(await userByEmail(mail('connected'))).toBeUndefined();
    });

    it('refuses JIT creation outside ALLOWED_OIDC_DOMAINS', async () => {
      const outsider = { nameId: `eve-${run}@other.example`, attributes: { email: `eve-${run}@other.example` } };
      await expectRefused(async () => (await samlLogin(outsider)).res, 'domain_not_allowed');
      expect((await samlLogin(outsider)).location).toBe('/login?error=sso_domain_not_allowed');
    });

    it('refuses a GET to the ACS without the one-time state (responses come by POST only)', async () => {
      await expectRefused(() => request(t.server).get(`/auth/saml/${corpId}/callback?SAMLResponse=abc`), 'state_missing');
      await expectRefused(() => request(t.server).get(`/auth/saml/${corpId}/callback?state=${'x'.repeat(43)}`), 'state_invalid');
    });

    it('signs in only the browser that started the sign-in (no login CSRF), once', async () => {
      const started = await begin();
      const posted = await postResponse(t.server, corpId, await idp.response(started.requestId, person('lena'))).expect(303);
      // An attacker's verified response delivered to a victim's browser: that browser has another (or no) cookie.
      const other = await startSso(t.server, CORP);
      await expectRefused(() => request(t.server).get(posted.headers.location).set('Cookie', other.cookie), 'state_browser_mismatch');
      await expectRefused(() => request(t.server).get(posted.headers.location).set('Cookie', started.cookie), 'state_invalid');
      expect(await userByEmail(mail('lena'))).toBeUndefined();
    });

    it('refuses responses for a disabled provider at once, and unknown provider ids', async () => {
      const started = await begin(SIGNED, signingIdp);
      const response = await signingIdp.response(started.requestId, person('frank'));
      await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${signedId}/disable`).expect(200);
      try {
        await expectRefused(() => postResponse(t.server, signedId, response), 'provider_disabled', SIGNED);
      } finally {
        await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${signedId}/enable`).expect(200);
      }
      const res = await postResponse(t.server, randomUUID(), response).expect(302);
      expect(res.headers.location).toBe('/login?error=sso_provider_unavailable');
    });

    it('ends the sessions of an identity on a signed IdP-initiated LogoutRequest and answers with a LogoutResponse', async () => {
      const attempt = await samlLogin(person('gina'));
      await request(t.server).get('/api/v1/me').set('Cookie', attempt.cookie).expect(200);
      const unsigned = encode(decode(idp.logoutRequest(mail('gina'))).replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, ''));
      const refused = await request(t.server).post(`/auth/saml/${corpId}/logout`).type('form').send({ SAMLRequest: unsigned }).expect(302);
      expect(refused.headers.location).toBe('/login');
      await request(t.server).get('/api/v1/me').set('Cookie', attempt.cookie).expect(200);
      const res = await request(t.server).post(`/auth/saml/${corpId}/logout`).type('form').send({ SAMLRequest: idp.logoutRequest(mail('gina')) }).expect(302);
      const target = new URL(res.headers.location);
      expect(`${target.origin}${target.pathname}`).toBe(idp.ssoUrl);
      expect(target.searchParams.get('SAMLResponse')).toBeTruthy();
      await request(t.server).get('/api/v1/me').set('Cookie', attempt.cookie).expect(401);
      const gina = await userByEmail(mail('gina'));
      const [event] = await t.dataSource.query(`SELECT * FROM audit_logs WHERE event = 'logout_idp' AND user_id = $1`, [gina.id]);
      expect(event).toMatchObject({ provider_name: CORP });
    });
    it('ends no session with a LogoutRequest seen before (captured and replayed), issued long ago, signed with SHA-1 or meant for another service', async () => {
      const logout = (SAMLRequest: string) => request(t.server).post(`/auth/saml/${corpId}/logout`).type('form').send({ SAMLRequest }).expect(302);
      const captured = idp.logoutRequest(mail('hugo'));
      const first = await samlLogin(person('hugo'));
      expect(new URL((await logout(captured)).headers.location).origin).toBe(new URL(idp.ssoUrl).origin);
      await request(t.server).get('/api/v1/me').set('Cookie', first.cookie).expect(401);
      const again = await samlLogin(person('hugo'));
      expect((await logout(captured)).headers.location).toBe('/login');
      expect((await logout(idp.logoutRequest(mail('hugo'), new Date(Date.now() - 60 * 60_000)))).headers.location).toBe('/login');
      expect((await logout(idp.logoutRequest(mail('hugo'), new Date(), SHA1))).headers.location).toBe('/login');
      expect((await logout(idp.logoutRequest(mail('hugo'), new Date(), undefined, 'https://wiki.corp.example/saml/slo'))).headers.location).toBe('/login');
      await request(t.server).get('/api/v1/me').set('Cookie', again.cookie).expect(200);
      const hugo = await userByEmail(mail('hugo'));
      expect(await t.dataSource.query(`SELECT id FROM audit_logs WHERE event = 'logout_idp' AND user_id = $1`, [hugo.id])).toHaveLength(1);
    });
  });

  describe('test login before enabling (SPEC.md 5.2)', () => {
    it('on a disabled provider: shows the attributes and the mapped role, signs nobody in, and the provider stays unusable', async () => {
      const trialName = `saml-trial-${run}`;
      const trialId = (
        await createProvider(t.server, admin, {
          strategy: 'saml',
          name: trialName,
          sso_url: idp.ssoUrl,
          idp_entity_id: idp.entityId,
          idp_certificate: idpKeys.cert,
          enabled: false,
          group_attribute: 'memberOf',
          role_mapping: { groupMappings: [{ group: 'root', role: 'super_admin' }] },
        })
      ).id;
      const trialIdp = new SamlIdp(idpKeys, { entityId: idp.entityId });
      trialIdp.trust((await metadataOf(t.server, trialId)).body);
      const before = await Promise.all(['sessions', 'users', 'sso_identities'].map((table) => countRows(t, table)));

      const started = await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${trialId}/test_login`).expect(201);
      const cookie = `${admin.cookie}; ${cookiesOf(started.headers['set-cookie'] as unknown as string[])}`;
      const { SAMLResponse } = await trialIdp.respond(started.body.authorization_url, person('tina', ['root']));
      const back = await postAndReturn(t.server, trialId, SAMLResponse, cookie);
      expect(back.status).toBe(302);
      expect(back.headers.location).toBe(`/admin/sso_providers?test_login=${trialId}`);
      expect(((back.headers['set-cookie'] as unknown as string[] | undefined) ?? []).some((c) => c.startsWith('hearth_session='))).toBe(false);

      const shown = await as(t.server, admin, 'get', `/api/v1/admin/sso_providers/${trialId}/test_login/result`).expect(200);
      expect(shown.body).toMatchObject({
        status: 'succeeded',
        error: null,
        subject: mail('tina'),
        issuer: idp.entityId,
        email: mail('tina'),
        groups: ['root'],
        role_mapping: { configured: true, role: 'super_admin' },
        account: { identity_user_id: null, email_user_id: null },
      });
      expect(await Promise.all(['sessions', 'users', 'sso_identities'].map((table) => countRows(t, table)))).toEqual(before);
      const audit = await t.dataSource.query(`SELECT details FROM audit_logs WHERE event = 'provider_test_login' AND provider_id = $1 ORDER BY created_at`, [trialId]);
      expect(audit.map((a: { details: { stage: string } }) => a.details.stage)).toEqual(['started', 'completed']);

      // The answer is spent, and the provider still signs nobody in.
      await expectRefused(() => postResponse(t.server, trialId, SAMLResponse), 'in_response_to_invalid', trialName);
      expect((await request(t.server).get(`/auth/${trialName}`).expect(302)).headers.location).toBe('/login?error=sso_provider_unavailable');
    });

    it('sends a test answer that comes back in another browser nowhere', async () => {
      const started = await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${corpId}/test_login`).expect(201);
      const { SAMLResponse } = await idp.respond(started.body.authorization_url, person('uma'));
      const other = await startSso(t.server, CORP);
      await expectRefused(async () => postAndReturn(t.server, corpId, SAMLResponse, other.cookie), 'state_browser_mismatch');
      expect((await as(t.server, admin, 'get', `/api/v1/admin/sso_providers/${corpId}/test_login/result`).expect(200)).body.status).toBe('pending');
    });
  });

  describe('rejections (reliability.md 3.G): no session, audited as login_failed with a reason', () => {
    it('an unsigned response', async () => {
      await refusedWith({ signing: 'none' }, 'signature_invalid');
    });

    it('a signed response whose assertion is unsigned', async () => {
      await refusedWith({ signing: 'response' }, 'signature_invalid');
    });

    it('a response signed by an attacker key (its own certificate in KeyInfo)', async () => {
      const started = await begin();
      const forged = await idp.impostor(attackerKeys).response(started.requestId, person('mallory'), { signing: 'both' });
      await expectRefused(() => postResponse(t.server, corpId, forged), 'signature_invalid');
    });

    it('a SHA-1 signature, even by the right key', async () => {
      const started = await begin();
      const weak = await idp.impostor(idpKeys, { signatureAlgorithm: SHA1 }).response(started.requestId, person('mallory'));
      await expectRefused(() => postResponse(t.server, corpId, weak), 'weak_signature_algorithm');
    });

    describe('XML signature wrapping', () => {
      /** A correctly signed response for mallory, rewritten so an unsigned assertion for the victim is the one in view. */
      async function wrapped(rewrite: (xml: string, signedAssertion: string, forgedAssertion: string) => string) {
        const started = await begin();
        const xml = decode(await idp.response(started.requestId, person('mallory')));
        const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
        const forgedAssertion = signedAssertion
          .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
          .replace(/ID="[^"]+"/, `ID="_forged-${randomUUID()}"`)
          .split(mail('mallory'))
          .join(mail('victim'));
        return encode(rewrite(xml, signedAssertion, forgedAssertion));
      }

      it('a second, unsigned assertion appended', async () => {
        const response = await wrapped((xml, signed, forged) => xml.replace(signed, signed + forged));
        await expectRefused(() => postResponse(t.server, corpId, response), 'signature_invalid');
      });

      it('the signed assertion moved into samlp:Extensions, a forged one in its place', async () => {
        const response = await wrapped((xml, signed, forged) =>
          xml.replace(signed, forged).replace('<samlp:Status>', `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`),
        );
        await expectRefused(() => postResponse(t.server, corpId, response), 'signature_invalid');
      });

      it('a forged assertion carrying the signed one’s ID', async () => {
        const response = await wrapped((xml, signed, forged) => {
          const id = /ID="([^"]+)"/.exec(signed)![1];
          return xml.replace(signed, forged.replace(/ID="[^"]+"/, `ID="${id}"`)).replace('<samlp:Status>', `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`);
        });
        await expectRefused(() => postResponse(t.server, corpId, response), 'signature_invalid');
      });
    });

    it('the same response posted twice (captured and replayed)', async () => {
      const started = await begin();
      const response = await idp.response(started.requestId, person('hank'));
      expect((await postAndReturn(t.server, corpId, response, started.cookie)).headers.location).toBe('/');
      await expectRefused(() => postResponse(t.server, corpId, response), 'in_response_to_invalid');
    });

    it('an assertion ID seen before, even in an answer to a fresh request', async () => {
      const first = await begin();
      const assertionId = `_${randomUUID()}`;
      expect((await postAndReturn(t.server, corpId, await idp.response(first.requestId, person('ivan'), { fields: { assertionId } }), first.cookie)).headers.location).toBe('/');
      await refusedWith({ fields: { assertionId } }, 'assertion_replayed', person('ivan'));
    });

    it('an InResponseTo we never issued, none at all (unsolicited), or one already answered', async () => {
      await refusedWith({ fields: { inResponseTo: `_${randomUUID()}` } }, 'in_response_to_invalid');
      await refusedWith({ fields: { inResponseTo: null } }, 'in_response_to_invalid');
      const answered = await begin();
      expect((await postAndReturn(t.server, corpId, await idp.response(answered.requestId, person('judy')), answered.cookie)).headers.location).toBe('/');
      await refusedWith({ fields: { inResponseTo: answered.requestId } }, 'in_response_to_invalid', person('judy'));
    });

    it('an InResponseTo minted for another provider', async () => {
      const other = await begin(SIGNED, signingIdp);
      await refusedWith({ fields: { inResponseTo: other.requestId } }, 'in_response_to_invalid');
    });

    it('a wrong or absent Destination / Recipient', async () => {
      await refusedWith({ fields: { destination: 'https://evil.example/acs' } }, 'destination_mismatch');
      await refusedWith({ fields: { destination: `${APP_ORIGIN}/auth/saml/${signedId}/callback` } }, 'destination_mismatch');
      await refusedWith({ fields: { recipient: 'https://evil.example/acs' } }, 'recipient_mismatch');
      await refusedWith({ fields: { recipient: null } }, 'recipient_missing');
    });

    it('an Audience of another SP, or none', async () => {
      await refusedWith({ fields: { audience: `${APP_ORIGIN}/auth/saml/${signedId}` } }, 'audience_mismatch');
      await refusedWith({ fields: { audience: null } }, 'audience_mismatch');
    });

    it('an expired or not yet valid assertion (beyond the 60 s skew)', async () => {
      const past = new Date(Date.now() - 5 * 60_000).toISOString();
      const future = new Date(Date.now() + 5 * 60_000).toISOString();
      await refusedWith({ fields: { notOnOrAfter: past, subjectNotOnOrAfter: past } }, 'assertion_expired');
      await refusedWith({ fields: { notOnOrAfter: past } }, 'assertion_expired');
      await refusedWith({ fields: { notBefore: future } }, 'assertion_not_yet_valid');
    });

    it('a failure status (Responder, AuthnFailed) around a validly signed assertion', async () => {
      await refusedWith({ fields: { statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Responder' } }, 'idp_status_error');
      await refusedWith({ fields: { statusCode: 'urn:oasis:names:tc:SAML:2.0:status:AuthnFailed' } }, 'idp_status_error');
    });

    it('an assertion from another issuer signed with the configured key', async () => {
      await refusedWith({ fields: { issuer: 'https://other-idp.test/' } }, 'issuer_mismatch');
    });

    it('a transient NameID, which cannot identify an account', async () => {
      await refusedWith({}, 'nameid_transient', { ...person('kim'), nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient' });
    });

    it('DTDs, comments, non-base64 and non-XML bodies, before any parsing', async () => {
      const started = await begin();
      const xml = decode(await idp.response(started.requestId, person('mallory')));
      const doctype = encode(`<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${xml}`);
      await expectRefused(() => postResponse(t.server, corpId, doctype), 'response_malformed');
      const comment = encode(xml.replace(mail('mallory'), `${mail('victim')}<!---->.evil.example`));
      await expectRefused(() => postResponse(t.server, corpId, comment), 'response_malformed');
      await expectRefused(() => postResponse(t.server, corpId, '%%% not base64 %%%'), 'response_malformed');
      await expectRefused(() => postResponse(t.server, corpId, encode('just text')), 'response_malformed');
      await expectRefused(() => postResponse(t.server, corpId, ''), 'response_missing');
    });
  });
});

describe('SAML sign-in with AUTH_JIT_MODE=link_only', () => {
  let t: TestApp;
  let idp: SamlIdp;
  let providerId: string;
  const name = `saml-lo-${run}`;

  beforeAll(async () => {
    const keys = makeKeyPair('Hearth link-only IdP');
    idp = new SamlIdp(keys);
    t = await startFreshTestApp({ ...SSO_ENV, AUTH_JIT_MODE: 'link_only' });
    const h = await t.newHousehold({ role: 'super_admin' });
    const admin = await signIn(t.server, h.email);
    providerId = (await createProvider(t.server, admin, { name, strategy: 'saml', sso_url: idp.ssoUrl, idp_certificate: keys.cert, enabled: true })).id;
    idp.trust((await metadataOf(t.server, providerId)).body);
  });
  afterAll(() => t?.close());

  it('creates no account, session or identity, and audits jit_disabled', async () => {
    const before = await Promise.all(['users', 'sessions', 'sso_identities', 'families'].map((table) => countRows(t, table)));
    const started = await startSso(t.server, name);
    const { SAMLResponse } = await idp.respond(started.authorizationUrl, { nameId: `new-${run}@example.org`, attributes: { email: `new-${run}@example.org` } });
    const res = await postAndReturn(t.server, providerId, SAMLResponse, started.cookie);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login?error=sso_account_creation_disabled');
    expect(((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).some((c) => c.startsWith('hearth_session='))).toBe(false);
    expect(await Promise.all(['users', 'sessions', 'sso_identities', 'families'].map((table) => countRows(t, table)))).toEqual(before);
    expect((await lastFailure(t, name)).reason).toBe('jit_disabled');
  });
});
