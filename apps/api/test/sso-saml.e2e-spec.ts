import { randomUUID } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import request from 'supertest';
import type { Server } from 'node:http';
import { as, Browser, cookiesOf, PASSWORD, signIn } from './support/sessions';
import { decode, encode, KeyPair, makeKeyPair, RespondOptions, SamlIdp, SamlUser, SHA1 } from './support/saml-idp';
import { APP_ORIGIN, browserOf, countRows, countsOf, createProvider, lastFailure, startSso, startSsoApp, userByEmail } from './support/sso';
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

const inflate = (base64: string) => inflateRawSync(Buffer.from(base64, 'base64')).toString('utf8');

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
    // A database of its own (startSsoApp): refusals are checked against instance-wide row counts.
    ({ t, admin } = await startSsoApp({ ALLOWED_OIDC_DOMAINS: 'corp.example' }));
    const common = { strategy: 'saml', sso_url: idp.ssoUrl, slo_url: idp.sloUrl, idp_entity_id: idp.entityId, idp_certificate: idpKeys.cert, enabled: true };
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

  const ssoSessionsOf = (userId: string): Promise<Record<string, unknown>[]> =>
    t.dataSource.query(`SELECT ss.* FROM sso_sessions ss JOIN sessions s ON s.id = ss.session_id WHERE s.user_id = $1 ORDER BY ss.created_at`, [userId]);

  /** A refused response: back to the sign-in page, no session cookie, no session/user/identity row, audited. */
  async function expectRefused(post: () => Promise<request.Response>, reason: string, providerName = CORP): Promise<void> {
    const before = await countsOf(t, ['sessions', 'users', 'sso_identities']);
    const failuresBefore = await countRows(t, `audit_logs WHERE event = 'login_failed'`);
    const res = await post();
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/login\?error=sso_[a-z_]+$/);
    expect(((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).some((c) => c.startsWith('hearth_session='))).toBe(false);
    expect(await countsOf(t, ['sessions', 'users', 'sso_identities'])).toEqual(before);
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

  it('takes an optional single logout URL, checked like the SSO URL, and clears it when emptied', async () => {
    const fields = { strategy: 'saml', sso_url: idp.ssoUrl, idp_certificate: idpKeys.cert };
    const before = await countRows(t, 'sso_providers');
    for (const [slo_url, problem] of [
      ['idp.test/slo', 'slo_url must be an absolute URL'],
      ['ftp://idp.test/slo', 'slo_url must use https (got ftp)'],
      ['https://user:pw@idp.test/slo', 'slo_url must not contain credentials'],
    ]) {
      const refused = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers').send({ ...fields, name: `slo-${run}`, slo_url }).expect(422);
      expect(refused.body.errors).toEqual([problem]);
    }
    expect(await countRows(t, 'sso_providers')).toBe(before);
    const created = await createProvider(t.server, admin, { ...fields, name: `slo-${run}`, slo_url: ' https://idp.test/slo ' });
    expect((await as(t.server, admin, 'get', `/api/v1/admin/sso_providers/${created.id}`).expect(200)).body.slo_url).toBe('https://idp.test/slo');
    const cleared = await as(t.server, admin, 'patch', `/api/v1/admin/sso_providers/${created.id}`).send({ slo_url: '' }).expect(200);
    expect(cleared.body.slo_url).toBeNull();
  });

  describe('service-provider metadata', () => {
    it('names our entity ID, ACS and SLO addresses, asks for e-mail NameIDs and signed assertions', async () => {
      const res = await metadataOf(t.server, corpId).expect(200);
      expect(res.headers['content-type']).toContain('application/samlmetadata+xml');
      const xml = res.body as string;
      const base = `${APP_ORIGIN}/auth/saml/${corpId}`;
      expect(xml).toContain(`entityID="${base}"`);
      expect(xml).toMatch(new RegExp(`<AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${base}/callback"`));
      for (const binding of ['HTTP-POST', 'HTTP-Redirect']) {
        expect(xml).toMatch(new RegExp(`<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${base}/logout"/>`));
      }
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
      const alice = await userByEmail(t, mail('alice'));
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
      const bob = await userByEmail(t, mail('bob'));
      expect(bob.role).toBe('admin');
      expect((await samlLogin(person('bob', ['root']))).location).toBe('/');
      expect((await userByEmail(t, mail('bob'))).role).toBe('super_admin');
      // The standard `groups` attribute is not what this provider reads.
      expect((await samlLogin(person('bob', [], { groups: ['root'] }))).location).toBe('/');
      expect((await userByEmail(t, mail('bob'))).role).toBe('admin');
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

    it('remembers on the session what a LogoutRequest names: the NameID (encrypted, it is personal data) and the SessionIndex', async () => {
      const sessionIndex = `_idp-session-${randomUUID()}`;
      expect((await samlLogin(person('nora'), { fields: { sessionIndex } })).location).toBe('/');
      const [row] = await ssoSessionsOf((await userByEmail(t, mail('nora'))).id);
      expect(row).toMatchObject({ provider_id: corpId, id_token_encrypted: null, saml_session_index: sessionIndex });
      expect(row.saml_name_id_encrypted).toMatch(/^enc:v1:/);
      expect(row.saml_name_id_encrypted).not.toContain('nora');
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
      // The SAML session survives the detour through the password: its sign-out can name it.
      expect((await ssoSessionsOf(local.userId))[0].saml_session_index).toMatch(/^_session-/);
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
      expect(await userByEmail(t, mail('connected'))).toBeUndefined();
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
      expect(await userByEmail(t, mail('lena'))).toBeUndefined();
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
      const res = await request(t.server).post(`/auth/saml/${corpId}/logout`).type('form').send({ SAMLRequest: idp.logoutRequest(mail('gina')), RelayState: 'idp state' }).expect(302);
      const target = new URL(res.headers.location);
      expect(`${target.origin}${target.pathname}`).toBe(idp.sloUrl);
      expect(target.searchParams.get('RelayState')).toBe('idp state');
      expect((await idp.parseLogoutResponse(res.headers.location)).extract).toMatchObject({ issuer: `${APP_ORIGIN}/auth/saml/${corpId}` });
      await request(t.server).get('/api/v1/me').set('Cookie', attempt.cookie).expect(401);
      const gina = await userByEmail(t, mail('gina'));
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
      const hugo = await userByEmail(t, mail('hugo'));
      expect(await t.dataSource.query(`SELECT id FROM audit_logs WHERE event = 'logout_idp' AND user_id = $1`, [hugo.id])).toHaveLength(1);
    });
  });

  describe('single logout started by the IdP by HTTP-Redirect', () => {
    const logoutByRedirect = (path: string) => request(t.server).get(path).expect(302);
    const idpLogouts = async (userId: string) => (await t.dataSource.query(`SELECT details FROM audit_logs WHERE event = 'logout_idp' AND user_id = $1`, [userId])).map((e: { details: unknown }) => e.details);

    it('ends the sessions of the identity and answers with a signed LogoutResponse the IdP accepts, carrying RelayState back', async () => {
      const attempt = await samlLogin(person('iris'), {}, SIGNED, signingIdp, signedId);
      await request(t.server).get('/api/v1/me').set('Cookie', attempt.cookie).expect(200);
      const path = signingIdp.logoutRequestUrl(mail('iris'), { relayState: "idp-state 4'2/&=(!)~*" });
      expect(path.startsWith(`/auth/saml/${signedId}/logout?SAMLRequest=`)).toBe(true);
      const res = await logoutByRedirect(path);
      await request(t.server).get('/api/v1/me').set('Cookie', attempt.cookie).expect(401);

      const answer = new URL(res.headers.location);
      expect(answer.searchParams.get('RelayState')).toBe("idp-state 4'2/&=(!)~*");
      expect(answer.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
      const requestId = /ID="([^"]+)"/.exec(inflate(new URLSearchParams(path.split('?')[1]).get('SAMLRequest')!))![1];
      // The IdP checks our signature (it wants them from this SP), our issuer and a Success status.
      const parsed = await signingIdp.parseLogoutResponse(res.headers.location);
      expect(parsed.extract).toMatchObject({ issuer: `${APP_ORIGIN}/auth/saml/${signedId}`, response: { inResponseTo: requestId, destination: signingIdp.sloUrl } });
      const iris = await userByEmail(t, mail('iris'));
      expect(await idpLogouts(iris.id)).toEqual([{ initiated_by: 'idp', sessions: 1 }]);
    });

    it('answers unsigned when request signing is off, and ends the sessions the same way', async () => {
      const attempt = await samlLogin(person('jonas'));
      const answer = (await logoutByRedirect(idp.logoutRequestUrl(mail('jonas')))).headers.location;
      await request(t.server).get('/api/v1/me').set('Cookie', attempt.cookie).expect(401);
      expect(new URL(answer).searchParams.get('Signature')).toBeNull();
      expect((await idp.parseLogoutResponse(answer)).extract).toMatchObject({ issuer: `${APP_ORIGIN}/auth/saml/${corpId}` });
      expect(await idpLogouts((await userByEmail(t, mail('jonas'))).id)).toEqual([{ initiated_by: 'idp', sessions: 1 }]);
    });

    it('ends no session, never with a 500, on a request unsigned, signed by another key or with SHA-1, changed, replayed, meant elsewhere, from another issuer, stale or too large', async () => {
      const captured = idp.logoutRequestUrl(mail('karl'));
      const first = await samlLogin(person('karl'));
      expect(new URL((await logoutByRedirect(captured)).headers.location).origin).toBe(new URL(idp.sloUrl).origin);
      await request(t.server).get('/api/v1/me').set('Cookie', first.cookie).expect(401);
      const again = await samlLogin(person('karl'));

      const hourAgo = new Date(Date.now() - 60 * 60_000).toISOString();
      const bomb = deflateRawSync(Buffer.alloc(4 * 1024 * 1024, 0x20)).toString('base64');
      const refused = [
        captured,
        idp.logoutRequestUrl(mail('karl'), { signed: false }),
        idp.impostor(attackerKeys).logoutRequestUrl(mail('karl')),
        idp.logoutRequestUrl(mail('karl'), { signatureAlgorithm: SHA1 }),
        idp.logoutRequestUrl(mail('karl'), { relayState: 'a' }).replace('RelayState=a', 'RelayState=b'),
        idp.logoutRequestUrl(mail('karl'), { fields: { destination: `${APP_ORIGIN}/auth/saml/${signedId}/logout` } }),
        idp.logoutRequestUrl(mail('karl'), { fields: { issuer: 'https://other-idp.test/' } }),
        idp.logoutRequestUrl(mail('karl'), { fields: { issueInstant: hourAgo } }),
        idp.logoutRequestUrl(mail('karl'), { relayState: 'r'.repeat(1025) }),
        `/auth/saml/${corpId}/logout?SAMLRequest=${encodeURIComponent(bomb)}`,
        `/auth/saml/${corpId}/logout?SAMLRequest=%25%25%25`,
      ];
      for (const path of refused) expect((await logoutByRedirect(path)).headers.location).toBe('/login');
      // A genuine request with its SAMLRequest given twice is refused rather than guessed at.
      const genuine = idp.logoutRequestUrl(mail('karl'));
      expect((await logoutByRedirect(`${genuine}&${genuine.split('?')[1].split('&')[0]}`)).headers.location).toBe('/login');

      await request(t.server).get('/api/v1/me').set('Cookie', again.cookie).expect(200);
      expect(await idpLogouts((await userByEmail(t, mail('karl'))).id)).toHaveLength(1);
    });

    it('sends a request for a disabled or unknown provider to the sign-in page', async () => {
      await samlLogin(person('lena'), {}, SIGNED, signingIdp, signedId);
      await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${signedId}/disable`).expect(200);
      try {
        expect((await logoutByRedirect(signingIdp.logoutRequestUrl(mail('lena')))).headers.location).toBe('/login');
      } finally {
        await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${signedId}/enable`).expect(200);
      }
      expect((await logoutByRedirect(`/auth/saml/${randomUUID()}/logout?SAMLRequest=abc`)).headers.location).toBe('/login');
      expect(await idpLogouts((await userByEmail(t, mail('lena'))).id)).toEqual([]);
    });
  });

  describe('single logout started here (SP-initiated)', () => {
    /** Signs in through the provider and returns the browser, the user and the sign-in's SessionIndex. */
    async function signedIn(name: string, groups: string[] = [], providerName = CORP, provider = idp, providerId = corpId) {
      const sessionIndex = `_idp-session-${randomUUID()}`;
      const attempt = await samlLogin(person(name, groups), { fields: { sessionIndex } }, providerName, provider, providerId);
      expect(attempt.location).toBe('/');
      return { browser: browserOf(attempt), user: await userByEmail(t, mail(name)), sessionIndex };
    }

    const logoutEvents = (userId: string) =>
      t.dataSource.query(`SELECT event, user_id, family_id, provider_id, provider_name, details FROM audit_logs WHERE user_id = $1 AND event LIKE 'logout%' ORDER BY created_at`, [
        userId,
      ]);

    it('signs out at the IdP too: the logout URL carries a LogoutRequest naming the sign-in, remembered for the answer, audited as logout_idp', async () => {
      const { browser, user, sessionIndex } = await signedIn('olga');
      const res = await as(t.server, browser, 'post', '/auth/logout').expect(200);
      await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(401);

      // The IdP parses it (schema-valid) and finds who and which of its sessions to end.
      const url = new URL(res.body.logout_url);
      expect(url.searchParams.get('Signature')).toBeNull();
      const parsed = await idp.parseLogoutRequest(url.toString());
      expect(parsed.extract).toMatchObject({
        issuer: `${APP_ORIGIN}/auth/saml/${corpId}`,
        nameID: mail('olga'),
        sessionIndex,
        request: { id: parsed.id, destination: idp.sloUrl },
      });
      expect(parsed.xml).toContain(`Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"`);
      const [issued] = await t.dataSource.query(`SELECT * FROM saml_requests WHERE id = $1`, [parsed.id]);
      expect(issued).toMatchObject({ provider_id: corpId, purpose: 'logout', user_id: user.id, browser_hash: null, consumed_at: null });
      expect(await logoutEvents(user.id)).toEqual([
        { event: 'logout_idp', user_id: user.id, family_id: user.family_id, provider_id: corpId, provider_name: CORP, details: {} },
      ]);
    });

    it('signs the LogoutRequest with the SP key when request signing is on (the IdP verifies it)', async () => {
      const { browser, sessionIndex } = await signedIn('pia', [], SIGNED, signingIdp, signedId);
      const url = new URL((await as(t.server, browser, 'post', '/auth/logout').expect(200)).body.logout_url);
      expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
      expect((await signingIdp.parseLogoutRequest(url.toString())).extract).toMatchObject({ nameID: mail('pia'), sessionIndex });
      // A tampered request no longer verifies at the IdP.
      url.searchParams.set('RelayState', 'x');
      await expect(signingIdp.parseLogoutRequest(url.toString())).rejects.toThrow();
    });

    it('still signs out at the IdP when the session has gone idle (the admin app signs such a session out)', async () => {
      const { browser, user } = await signedIn('quinn');
      await t.dataSource.query(`UPDATE sessions SET last_seen_at = now() - interval '121 minutes' WHERE user_id = $1`, [user.id]);
      await request(t.server).get('/api/v1/me').set('Cookie', browser.cookie).expect(401);
      const res = await as(t.server, browser, 'post', '/auth/logout').expect(200);
      expect((await idp.parseLogoutRequest(res.body.logout_url)).extract).toMatchObject({ nameID: mail('quinn') });
      expect((await t.dataSource.query(`SELECT revoked_at FROM sessions WHERE user_id = $1`, [user.id]))[0].revoked_at).not.toBeNull();
      expect((await logoutEvents(user.id)).map((e: { event: string }) => e.event)).toEqual(['logout_idp']);
      // Ended: no second LogoutRequest.
      await as(t.server, browser, 'post', '/auth/logout').expect(401);
    });

    it('signs out here only without a single logout URL, or while the provider is disabled', async () => {
      const local = await signedIn('rosa');
      await as(t.server, admin, 'patch', `/api/v1/admin/sso_providers/${corpId}`).send({ slo_url: '' }).expect(200);
      try {
        expect((await as(t.server, local.browser, 'post', '/auth/logout').expect(200)).body).toEqual({ logout_url: null });
      } finally {
        await as(t.server, admin, 'patch', `/api/v1/admin/sso_providers/${corpId}`).send({ slo_url: idp.sloUrl }).expect(200);
      }
      await request(t.server).get('/api/v1/me').set('Cookie', local.browser.cookie).expect(401);
      expect((await logoutEvents(local.user.id)).map((e: { event: string }) => e.event)).toEqual(['logout']);

      // A super admin who came in through the provider keeps their session when switching it off (the others end).
      const root = await signedIn('sven', ['root']);
      await as(t.server, root.browser, 'post', `/api/v1/admin/sso_providers/${corpId}/disable`).expect(200);
      try {
        expect((await as(t.server, root.browser, 'post', '/auth/logout').expect(200)).body).toEqual({ logout_url: null });
      } finally {
        await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${corpId}/enable`).expect(200);
      }
      expect((await logoutEvents(root.user.id)).map((e: { event: string }) => e.event)).toEqual(['logout']);
      expect(await countRows(t, `saml_requests WHERE purpose = 'logout' AND user_id IN ('${local.user.id}', '${root.user.id}')`)).toBe(0);
    });

    /** A user signed in and out again: the ID of the LogoutRequest the IdP now answers. */
    async function loggedOut(name: string) {
      const { browser, user } = await signedIn(name);
      const res = await as(t.server, browser, 'post', '/auth/logout').expect(200);
      return { user, requestId: (await idp.parseLogoutRequest(res.body.logout_url)).id };
    }

    const answerByRedirect = (path: string) => request(t.server).get(path).expect(302);
    const answerByPost = (SAMLResponse: string) => request(t.server).post(`/auth/saml/${corpId}/logout`).type('form').send({ SAMLResponse }).expect(302);
    const consumed = async (requestId: string) => (await t.dataSource.query(`SELECT consumed_at FROM saml_requests WHERE id = $1`, [requestId]))[0].consumed_at !== null;
    const lastLogoutAudit = async () =>
      (await t.dataSource.query(`SELECT user_id, details FROM audit_logs WHERE event = 'logout_idp' AND provider_id = $1 ORDER BY created_at DESC LIMIT 1`, [corpId]))[0];

    it('takes the IdP’s signed LogoutResponse by HTTP-Redirect or HTTP-POST to the sign-in page, once, with nothing more to audit', async () => {
      const byRedirect = await loggedOut('tara');
      const answer = idp.logoutResponseUrl(byRedirect.requestId);
      expect(answer.startsWith(`/auth/saml/${corpId}/logout?SAMLResponse=`)).toBe(true);
      expect((await answerByRedirect(answer)).headers.location).toBe('/login');
      expect(await consumed(byRedirect.requestId)).toBe(true);
      expect((await logoutEvents(byRedirect.user.id)).map((e: { event: string }) => e.event)).toEqual(['logout_idp']);

      const byPost = await loggedOut('tara');
      const audited = await countRows(t, 'audit_logs');
      expect((await answerByPost(idp.logoutResponsePost(byPost.requestId))).headers.location).toBe('/login');
      expect(await consumed(byPost.requestId)).toBe(true);
      expect(await countRows(t, 'audit_logs')).toBe(audited);

      // Captured and replayed: refused, and said so.
      expect((await answerByRedirect(answer)).headers.location).toBe('/login');
      expect(await lastLogoutAudit()).toEqual({ user_id: null, details: { initiated_by: 'sp', result: 'response_refused', reason: 'in_response_to_invalid' } });
    });

    it('audits a failure status from the IdP against the user who signed out (the IdP session may still be open)', async () => {
      const { user, requestId } = await loggedOut('ulla');
      const responder = 'urn:oasis:names:tc:SAML:2.0:status:Responder';
      expect((await answerByRedirect(idp.logoutResponseUrl(requestId, { fields: { statusCode: responder } }))).headers.location).toBe('/login');
      expect(await lastLogoutAudit()).toEqual({ user_id: user.id, details: { initiated_by: 'sp', result: 'idp_failed', detail: `top-level status ${responder}` } });
      expect(await consumed(requestId)).toBe(true);
    });

    describe('refuses a LogoutResponse, still to the sign-in page and never with a 500, and audits why', () => {
      async function refused(answer: (requestId: string) => Promise<request.Response>, reason: string) {
        const { requestId } = await loggedOut('vera');
        expect((await answer(requestId)).headers.location).toBe('/login');
        const audit = await lastLogoutAudit();
        expect(audit).toMatchObject({ user_id: null, details: { initiated_by: 'sp', result: 'response_refused', reason } });
        // Never the message itself.
        expect(JSON.stringify(audit)).not.toMatch(/[A-Za-z0-9+/%]{60,}/);
        return requestId;
      }

      it('unsigned, or signed by another key', async () => {
        await refused((id) => answerByRedirect(idp.logoutResponseUrl(id, { signed: false })), 'signature_invalid');
        await refused((id) => answerByPost(idp.logoutResponsePost(id, { signed: false })), 'signature_invalid');
        const impostor = idp.impostor(attackerKeys);
        await refused((id) => answerByRedirect(impostor.logoutResponseUrl(id)), 'signature_invalid');
        await refused((id) => answerByPost(impostor.logoutResponsePost(id)), 'signature_invalid');
      });

      it('changed after signing, or signed with SHA-1', async () => {
        const tampered = await refused((id) => {
          const other = new URLSearchParams(idp.logoutResponseUrl(id, { fields: { statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Responder' }, signed: false }).split('?')[1]);
          const signed = idp.logoutResponseUrl(id).replace(/SAMLResponse=[^&]+/, `SAMLResponse=${encodeURIComponent(other.get('SAMLResponse')!)}`);
          return answerByRedirect(signed);
        }, 'signature_invalid');
        // Refused answers spend the request: the genuine one that may follow is not taken either.
        expect(await consumed(tampered)).toBe(true);
        await refused((id) => answerByRedirect(idp.logoutResponseUrl(id, { signatureAlgorithm: SHA1 })), 'weak_signature_algorithm');
        await refused((id) => answerByPost(idp.logoutResponsePost(id, { signatureAlgorithm: SHA1 })), 'weak_signature_algorithm');
      });

      it('meant for another address, or from another issuer', async () => {
        await refused((id) => answerByRedirect(idp.logoutResponseUrl(id, { fields: { destination: `${APP_ORIGIN}/auth/saml/${signedId}/logout` } })), 'destination_mismatch');
        await refused((id) => answerByPost(idp.logoutResponsePost(id, { fields: { issuer: 'https://other-idp.test/' } })), 'issuer_mismatch');
      });

      it('answering no LogoutRequest of ours: none, an unknown one, an AuthnRequest, or another provider’s', async () => {
        await refused(() => answerByRedirect(idp.logoutResponseUrl(null)), 'in_response_to_invalid');
        await refused(() => answerByPost(idp.logoutResponsePost(`_${randomUUID()}`)), 'in_response_to_invalid');
        const signIn = await begin();
        await refused(() => answerByRedirect(idp.logoutResponseUrl(signIn.requestId)), 'in_response_to_invalid');
        // The AuthnRequest was not spent by the mix-up: its own answer still signs in.
        expect((await postAndReturn(t.server, corpId, await idp.response(signIn.requestId, person('wim')), signIn.cookie)).headers.location).toBe('/');
        const elsewhere = await signedIn('xena', [], SIGNED, signingIdp, signedId);
        const { id } = await signingIdp.parseLogoutRequest((await as(t.server, elsewhere.browser, 'post', '/auth/logout').expect(200)).body.logout_url);
        await refused(() => answerByPost(idp.logoutResponsePost(id)), 'in_response_to_invalid');
        expect(await consumed(id)).toBe(false);
      });

      it('malformed: not base64, not DEFLATE, a parameter twice, too large inflated, or not a LogoutResponse', async () => {
        const base = `/auth/saml/${corpId}/logout`;
        await refused(() => answerByRedirect(`${base}?SAMLResponse=%25%25%25`), 'response_malformed');
        await refused(() => answerByRedirect(`${base}?SAMLResponse=${encodeURIComponent(encode('<not-deflated/>'))}`), 'response_malformed');
        await refused((id) => {
          const answer = idp.logoutResponseUrl(id);
          return answerByRedirect(`${answer}&${answer.split('?')[1].split('&')[0]}`);
        }, 'response_malformed');
        const bomb = deflateRawSync(Buffer.alloc(4 * 1024 * 1024, 0x20)).toString('base64');
        await refused(() => answerByRedirect(`${base}?SAMLResponse=${encodeURIComponent(bomb)}`), 'response_too_large');
        await refused(() => answerByPost(idp.logoutRequest(mail('vera'))), 'response_malformed');
      });
    });

    it('keeps sending a GET without a SAMLResponse, and answers for an unknown provider, to the sign-in page without a record', async () => {
      const audited = await countRows(t, 'audit_logs');
      expect((await request(t.server).get(`/auth/saml/${corpId}/logout`).expect(302)).headers.location).toBe('/login');
      expect((await request(t.server).get(`/auth/saml/${randomUUID()}/logout?SAMLResponse=abc`).expect(302)).headers.location).toBe('/login');
      expect((await request(t.server).post(`/auth/saml/not-a-uuid/logout`).type('form').send({ SAMLResponse: 'abc' }).expect(302)).headers.location).toBe('/login');
      expect(await countRows(t, 'audit_logs')).toBe(audited);
    });
  });

  describe('test login before enabling', () => {
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
      const before = await countsOf(t, ['sessions', 'users', 'sso_identities']);

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
      expect(await countsOf(t, ['sessions', 'users', 'sso_identities'])).toEqual(before);
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

  describe('rejections (hostile-input group G): no session, audited as login_failed with a reason', () => {
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
    const app = await startSsoApp({ AUTH_JIT_MODE: 'link_only' });
    t = app.t;
    providerId = (await createProvider(t.server, app.admin, { name, strategy: 'saml', sso_url: idp.ssoUrl, idp_certificate: keys.cert, enabled: true })).id;
    idp.trust((await metadataOf(t.server, providerId)).body);
  });
  afterAll(() => t?.close());

  it('creates no account, session or identity, and audits jit_disabled', async () => {
    const before = await countsOf(t, ['users', 'sessions', 'sso_identities', 'families']);
    const started = await startSso(t.server, name);
    const { SAMLResponse } = await idp.respond(started.authorizationUrl, { nameId: `new-${run}@example.org`, attributes: { email: `new-${run}@example.org` } });
    const res = await postAndReturn(t.server, providerId, SAMLResponse, started.cookie);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login?error=sso_account_creation_disabled');
    expect(((res.headers['set-cookie'] as unknown as string[] | undefined) ?? []).some((c) => c.startsWith('hearth_session='))).toBe(false);
    expect(await countsOf(t, ['users', 'sessions', 'sso_identities', 'families'])).toEqual(before);
    expect((await lastFailure(t, name)).reason).toBe('jit_disabled');
  });
});
