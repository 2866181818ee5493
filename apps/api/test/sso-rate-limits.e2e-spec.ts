import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { OidcIdp, startOidcIdp } from './support/oidc-idp';
import { makeKeyPair, SamlIdp } from './support/saml-idp';
import { cookiesOf } from './support/sessions';
import { callbackUrl, countRows, createProvider, oidcProviderFields, startSsoApp, SsoApp } from './support/sso';

const run = randomUUID().slice(0, 8);
const OIDC = `limit-oidc-${run}`;
const SAML = `limit-saml-${run}`;
const SECRET = `secret-${run}`;
const ALICE = `alice-${run}@corp.example`;
const BRUNO = `bruno-${run}@corp.example`;
/** Sign-in attempts a minute per client address in this suite; provider return steps get five times as many. */
const LOGIN_LIMIT = 3;

const RATE_LIMITED_PAGE = /^\/login\?error=rate_limited&retry_after=(\d+)$/;

/**
 * One sign-in attempt is one sign-in, whatever its protocol steps: an SSO sign-in counts once, at its start, against
 * RATE_LIMIT_LOGIN_PER_MINUTE; the provider's return steps have a budget of their own; a refused SSO step sends the
 * browser to the sign-in page with the wait. Each test signs in from its own client address (X-Forwarded-For from the
 * trusted loopback proxy), so each has a budget of its own.
 */
describe('sign-in rate limits count SSO sign-ins, not protocol steps', () => {
  let app: SsoApp;
  let idp: OidcIdp;
  let samlIdp: SamlIdp;
  let samlId: string;

  beforeAll(async () => {
    idp = await startOidcIdp({
      clients: [{ client_id: 'hearth', client_secret: SECRET, redirect_uris: [callbackUrl(OIDC)] }],
      accounts: { alice: { email: ALICE, email_verified: true } },
    });
    app = await startSsoApp({ RATE_LIMIT_LOGIN_PER_MINUTE: String(LOGIN_LIMIT), TRUST_PROXY: 'loopback' });
    await createProvider(app.t.server, app.admin, { ...oidcProviderFields(idp, OIDC, SECRET), enabled: true });
    const keys = makeKeyPair('Hearth rate-limit IdP');
    samlIdp = new SamlIdp(keys);
    samlId = (
      await createProvider(app.t.server, app.admin, {
        name: SAML,
        strategy: 'saml',
        sso_url: samlIdp.ssoUrl,
        idp_entity_id: samlIdp.entityId,
        idp_certificate: keys.cert,
        enabled: true,
      })
    ).id;
    const metadata = await request(app.t.server)
      .get(`/auth/saml/${samlId}/metadata`)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      });
    samlIdp.trust(metadata.body as string);
  });
  afterAll(async () => {
    await app?.t.close();
    await idp?.close();
  });

  /** A browser at client address `ip`: each request it sends says so through the trusted proxy. */
  const browserAt = (ip: string) => {
    let cookie = '';
    const keep = (res: request.Response) => {
      const set = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
      if (set.length) cookie = [cookie, cookiesOf(set)].filter(Boolean).join('; ');
      return res;
    };
    return {
      get: async (path: string) => keep(await request(app.t.server).get(path).set('X-Forwarded-For', ip).set('Cookie', cookie)),
      /** The IdP's cross-site POST to the ACS, sent by this browser: none of our cookies go with it. */
      postForm: async (path: string, form: Record<string, string>) => keep(await request(app.t.server).post(path).set('X-Forwarded-For', ip).type('form').send(form)),
      signedIn: () => /hearth_session=[^;]+/.test(cookie),
    };
  };

  /** An OIDC sign-in end to end: our redirect, the real IdP's login, the callback. Returns where the callback went. */
  async function oidcSignIn(browser: ReturnType<typeof browserAt>): Promise<string> {
    const started = await browser.get(`/auth/${OIDC}`);
    expect(started.status).toBe(302);
    const back = await idp.login(started.headers.location, 'alice');
    const done = await browser.get(back.pathname + back.search);
    expect(done.status).toBe(302);
    return done.headers.location;
  }

  /** A SAML sign-in end to end: our AuthnRequest, the IdP's signed answer POSTed to the ACS, the browser's return. */
  async function samlSignIn(browser: ReturnType<typeof browserAt>): Promise<string> {
    const started = await browser.get(`/auth/${SAML}`);
    expect(started.status).toBe(302);
    const { SAMLResponse } = await samlIdp.respond(started.headers.location, { nameId: BRUNO, attributes: { email: BRUNO } });
    const posted = await browser.postForm(`/auth/saml/${samlId}/callback`, { SAMLResponse });
    expect(posted.status).toBe(303);
    const done = await browser.get(posted.headers.location);
    expect(done.status).toBe(302);
    return done.headers.location;
  }

  /** The next step from this browser is refused: the sign-in page with the wait, in the address and in Retry-After. */
  function expectRateLimitedPage(res: request.Response): void {
    expect(res.status).toBe(302);
    const [, seconds] = RATE_LIMITED_PAGE.exec(res.headers.location) ?? [];
    expect(Number(seconds)).toBeGreaterThan(0);
    expect(Number(seconds)).toBeLessThanOrEqual(60);
    expect(res.headers['retry-after']).toBe(seconds);
  }

  it(`lets ${LOGIN_LIMIT} OIDC sign-ins a minute through from one address, each one attempt; the next start goes to the sign-in page with the wait`, async () => {
    const office = '198.51.100.10';
    for (let i = 0; i < LOGIN_LIMIT; i++) {
      const browser = browserAt(office);
      expect(await oidcSignIn(browser)).toBe('/');
      expect(browser.signedIn()).toBe(true);
    }
    const next = browserAt(office);
    expectRateLimitedPage(await next.get(`/auth/${OIDC}`));
    expect(next.signedIn()).toBe(false);
    // The same budget as password sign-in: an API call gets JSON.
    const password = await request(app.t.server).post('/sessions').set('X-Forwarded-For', office).send({ email: ALICE, password: 'x' }).expect(429);
    expect(password.body.error).toBe('rate_limit_exceeded');
    // Another address is not affected.
    expect(await oidcSignIn(browserAt('198.51.100.11'))).toBe('/');
  });

  it(`lets ${LOGIN_LIMIT} SAML sign-ins a minute through from one address (three steps each), then the sign-in page with the wait`, async () => {
    const office = '198.51.100.20';
    for (let i = 0; i < LOGIN_LIMIT; i++) {
      const browser = browserAt(office);
      expect(await samlSignIn(browser)).toBe('/');
      expect(browser.signedIn()).toBe(true);
    }
    expectRateLimitedPage(await browserAt(office).get(`/auth/${SAML}`));
  });

  it('bounds forged provider returns: each is refused and audited until the return budget is spent, then refused unprocessed', async () => {
    const attacker = browserAt('203.0.113.66');
    const audited = () => countRows(app.t, `audit_logs WHERE event = 'login_failed' AND provider_name = '${OIDC}' AND details->>'reason' = 'state_invalid'`);
    const before = await audited();
    const budget = LOGIN_LIMIT * 5;
    for (let i = 0; i < budget; i++) {
      const res = await attacker.get(`/auth/${OIDC}/callback?code=forged&state=${randomUUID()}`);
      expect([res.status, res.headers.location]).toEqual([302, '/login?error=sso_failed']);
    }
    expectRateLimitedPage(await attacker.get(`/auth/${OIDC}/callback?code=forged&state=${randomUUID()}`));
    // Forged SAML answers at the ACS spend the same budget.
    expectRateLimitedPage(await attacker.postForm(`/auth/saml/${samlId}/callback`, { SAMLResponse: 'forged' }));
    expect(await audited()).toBe(before + budget);
    // Forged returns are not sign-in attempts: a sign-in from this address still starts at the provider.
    const start = await browserAt('203.0.113.66').get(`/auth/${OIDC}`);
    expect(start.status).toBe(302);
    expect(start.headers.location.startsWith(`${idp.issuer}/`)).toBe(true);
  });
});
