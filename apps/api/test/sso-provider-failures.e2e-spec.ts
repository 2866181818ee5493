import { randomUUID } from 'node:crypto';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { makeKeyPair } from './support/saml-idp';
import { as, cookiesOf } from './support/sessions';
import { callbackUrl, expectNoSignIn, oauth2Client, oauth2ProviderFields, oidcProviderFields, ssoLogin, SsoSuite, startSsoSuite } from './support/sso';

const run = randomUUID().slice(0, 8);
const CORP = `corp-${run}`;
const DOWN = `down-${run}`;
const PRIVATE_CA = `private-ca-${run}`;
const SECRET = `secret-${randomUUID()}`;
const NOT_TRUSTED = 'certificate not trusted (set NODE_EXTRA_CA_CERTS to your CA bundle)';

/**
 * When the identity provider fails (no answer, a 5xx, something that is not its protocol, a certificate the runtime
 * does not trust), the sign-in is refused as provider_unavailable, not as a bad token, and the admin reads why in
 * words, not "fetch failed".
 */
describe('an identity provider that fails is provider_unavailable', () => {
  let suite: SsoSuite;
  /** An HTTPS server with a self-signed certificate: an IdP behind a private CA the runtime was not given. */
  let privateCa: Server;
  let privateCaUrl: string;
  /** A port nothing listens on. */
  let closedUrl: string;

  beforeAll(async () => {
    const keys = makeKeyPair('idp.internal.example');
    privateCa = createHttpsServer({ key: keys.key, cert: keys.cert }, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((resolve) => privateCa.listen(0, '127.0.0.1', resolve));
    privateCaUrl = `https://127.0.0.1:${(privateCa.address() as AddressInfo).port}`;
    const probe = createHttpsServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((resolve) => probe.close(resolve));

    suite = await startSsoSuite({
      clients: [
        { client_id: 'hearth', client_secret: SECRET, redirect_uris: [callbackUrl(CORP)] },
        { ...oauth2Client(DOWN, SECRET), redirect_uris: [callbackUrl(DOWN), callbackUrl(PRIVATE_CA)] },
      ],
      accounts: { alice: { email: `alice-${run}@corp.example`, email_verified: true } },
      providers: (idp) => [
        { ...oidcProviderFields(idp, CORP, SECRET), enabled: true },
        // The real IdP's login, but a token endpoint that does not answer, and one behind an untrusted certificate.
        { ...oauth2ProviderFields(idp, DOWN, SECRET, { token_url: `${closedUrl}/token` }), enabled: true },
        { ...oauth2ProviderFields(idp, PRIVATE_CA, SECRET, { token_url: `${privateCaUrl}/token` }), enabled: true },
      ],
    });
  });
  afterAll(async () => {
    await suite?.close();
    await new Promise((resolve) => privateCa?.close(resolve));
  });

  /** A sign-in through `provider` that must end on the sign-in page as provider_unavailable; returns the audit detail. */
  async function expectUnavailable(provider: string): Promise<string> {
    const { result, failure } = await expectNoSignIn(suite.t, provider, () => ssoLogin(suite.t.server, suite.idp, provider, 'alice'));
    expect(result.location).toBe('/login?error=sso_provider_unavailable');
    expect(failure.reason).toBe('provider_unavailable');
    return String(failure.row.details.detail);
  }

  it.each([
    ['a 500 HTML page', { status: 500, contentType: 'text/html', body: '<html><body>Internal Server Error</body></html>' }, 'HTTP 500'],
    ['a 503 with an OAuth error body', { status: 503, contentType: 'application/json', body: '{"error":"temporarily_unavailable"}' }, 'HTTP 503'],
    ['a 200 that is not JSON', { status: 200, contentType: 'text/html', body: '<html>maintenance</html>' }, 'content-type'],
  ])('when its token endpoint answers %s', async (_what, answer, detail) => {
    suite.idp.answerToken(answer);
    try {
      expect(await expectUnavailable(CORP)).toContain(detail);
    } finally {
      suite.idp.answerToken(null);
    }
  });

  it('but a token endpoint that refuses the code (400 invalid_grant) is still token_exchange_failed', async () => {
    suite.idp.answerToken({ status: 400, contentType: 'application/json', body: '{"error":"invalid_grant"}' });
    try {
      const { failure } = await expectNoSignIn(suite.t, CORP, () => ssoLogin(suite.t.server, suite.idp, CORP, 'alice'));
      expect(failure.reason).toBe('token_exchange_failed');
    } finally {
      suite.idp.answerToken(null);
    }
  });

  it('when its token endpoint cannot be connected to', async () => {
    expect(await expectUnavailable(DOWN)).toBe('could not connect to the provider: ECONNREFUSED');
  });

  it('names a certificate the runtime does not trust, in the audit and to the admin, instead of "fetch failed"', async () => {
    expect(await expectUnavailable(PRIVATE_CA)).toBe(`${NOT_TRUSTED}: DEPTH_ZERO_SELF_SIGNED_CERT`);

    // The admin's test login shows the same.
    const { t, admin } = suite;
    const provider = (await as(t.server, admin, 'get', '/api/v1/admin/sso_providers').expect(200)).body.sso_providers.find((p: { name: string }) => p.name === PRIVATE_CA);
    const started = await as(t.server, admin, 'post', `/api/v1/admin/sso_providers/${provider.id}/test_login`).expect(201);
    const back = await suite.idp.login(started.body.authorization_url, 'alice');
    await request(t.server).get(back.pathname + back.search).set('Cookie', `${admin.cookie}; ${cookiesOf(started.headers['set-cookie'] as unknown as string[])}`).expect(302);
    const shown = await as(t.server, admin, 'get', `/api/v1/admin/sso_providers/${provider.id}/test_login/result`).expect(200);
    expect(shown.body).toMatchObject({ status: 'failed', error: 'provider_unavailable', error_detail: `${NOT_TRUSTED}: DEPTH_ZERO_SELF_SIGNED_CERT` });

    // And saving an OIDC provider whose issuer is behind that certificate says so.
    const refused = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers')
      .send({ name: `oidc-${PRIVATE_CA}`, strategy: 'openid_connect', issuer: privateCaUrl, client_id: 'hearth', client_secret: SECRET })
      .expect(422);
    expect(refused.body).toMatchObject({ error: 'discovery_failed', message: `OIDC discovery failed for ${privateCaUrl}: ${NOT_TRUSTED}: DEPTH_ZERO_SELF_SIGNED_CERT` });
  });
});
