import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import type { Page } from 'playwright-core';
import { makeKeyPair, SamlIdp } from '../../api/test/support/saml-idp';
import { signIn as apiSignIn } from '../../api/test/support/sessions';
import { createProvider } from '../../api/test/support/sso';
import { freePort, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(180_000);

const NAME = 'corp-saml';
const ERIN = `erin-${randomUUID().slice(0, 8)}@corp.example`;
const FINN = `finn-${randomUUID().slice(0, 8)}@corp.example`;

/** A page of the test IdP: a form the user sends on (the HTTP-POST binding, as an IdP renders it). */
const idpPage = (title: string, action: string, field: string, value: string) =>
  `<!doctype html><title>${title}</title><h1>${title}</h1>` +
  `<form method="post" action="${action}"><input type="hidden" name="${field}" value="${value}"><button>Continue</button></form>`;

describe('browser: SAML sign-in and single logout through the in-process samlify IdP', () => {
  let app: BrowserApp;
  let base: string;
  let idp: SamlIdp;
  let idpServer: Server;
  let providerId: string;
  /** Who the IdP signs in next (it asks no password). */
  let nextUser = '';
  /** What the IdP was asked to end: the NameID and SessionIndex of each LogoutRequest it received. */
  const idpLogouts: { nameID: unknown; sessionIndex: unknown }[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await startBrowserApp({ APP_URL: base, SSO_ALLOW_INSECURE_HTTP: 'true' }, port);
    const idpPort = await freePort();
    idp = new SamlIdp(makeKeyPair('Hearth browser test IdP'), { baseUrl: `http://127.0.0.1:${idpPort}` });
    idpServer = createServer((req, res) => {
      answer(`http://127.0.0.1:${idpPort}${req.url}`).then(
        (html) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
        (error: unknown) => res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error)),
      );
    });
    await new Promise<void>((resolve) => idpServer.listen(idpPort, '127.0.0.1', resolve));

    const root = await app.newUser({ role: 'super_admin' });
    const admin = await apiSignIn(app.t.server, root.email);
    providerId = (
      await createProvider(app.t.server, admin, {
        name: NAME,
        label: 'Corp SAML',
        strategy: 'saml',
        sso_url: idp.ssoUrl,
        slo_url: idp.sloUrl,
        idp_entity_id: idp.entityId,
        idp_certificate: idp.keys.cert,
        enabled: true,
      })
    ).id;
    idp.trust((await request(app.t.server).get(`/auth/saml/${providerId}/metadata`).buffer(true).parse(textBody)).body);
  });
  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => idpServer?.close(resolve));
  });

  /** The IdP's two pages: sign-in (answering an AuthnRequest) and sign-out (answering a LogoutRequest). */
  async function answer(url: string): Promise<string> {
    if (url.startsWith(`${idp.ssoUrl}?`)) {
      const { SAMLResponse } = await idp.respond(url, { nameId: nextUser, attributes: { email: nextUser } });
      return idpPage('Test SAML IdP sign-in', `${base}/auth/saml/${providerId}/callback`, 'SAMLResponse', SAMLResponse);
    }
    if (url.startsWith(`${idp.sloUrl}?`)) {
      const { id, extract } = await idp.parseLogoutRequest(url);
      idpLogouts.push({ nameID: extract.nameID, sessionIndex: extract.sessionIndex });
      return idpPage('Test SAML IdP sign-out', `${base}/auth/saml/${providerId}/logout`, 'SAMLResponse', idp.logoutResponsePost(id));
    }
    throw new Error(`no such IdP page: ${url}`);
  }

  async function signInThroughIdp(page: Page, email: string): Promise<void> {
    nextUser = email;
    await page.goto(`/auth/${NAME}`);
    await page.getByRole('heading', { name: 'Test SAML IdP sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  const sessionsOf = async (email: string) =>
    app.t.dataSource.query(`SELECT s.revoked_at FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`, [email]);
  const logoutRequestsOf = async (email: string) =>
    app.t.dataSource.query(`SELECT r.consumed_at FROM saml_requests r JOIN users u ON u.id = r.user_id WHERE u.email = $1 AND r.purpose = 'logout'`, [email]);

  it('signing out goes through the IdP’s sign-out, which answers back to the sign-in page', async () => {
    const page = await app.newPage();
    await signInThroughIdp(page, ERIN);
    expect(await page.getByText(ERIN).count()).toBe(1);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Test SAML IdP sign-out' }).waitFor();
    expect(idpLogouts.at(-1)).toEqual({ nameID: ERIN, sessionIndex: expect.stringMatching(/^_session-/) });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${base}/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await sessionsOf(ERIN)).toEqual([{ revoked_at: expect.any(Date) }]);
    // The IdP's answer was taken: it matched the request, which is now spent.
    expect(await logoutRequestsOf(ERIN)).toEqual([{ consumed_at: expect.any(Date) }]);
    await page.context().close();
  });

  it('a session left idle is signed out at the IdP too: the next click goes through its sign-out to sign-in, with the reason', async () => {
    const page = await app.newPage();
    await page.clock.install();
    await signInThroughIdp(page, FINN);
    await page.waitForLoadState('networkidle');
    // Two hours away: the session's last use moves back, and the page's clock forward (so its cached user is stale too).
    await app.t.dataSource.query(`UPDATE sessions SET last_seen_at = now() - interval '121 minutes' WHERE user_id = (SELECT id FROM users WHERE email = $1)`, [FINN]);
    await page.clock.fastForward('02:01:00');
    const logouts: number[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('/auth/logout')) logouts.push(res.status());
    });

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'Test SAML IdP sign-out' }).waitFor();
    expect(idpLogouts.at(-1)).toMatchObject({ nameID: FINN });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${base}/login?error=session_idle`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Your session ended after a period of inactivity. Sign in again to continue.');
    expect(logouts).toEqual([200]);
    expect(await sessionsOf(FINN)).toEqual([{ revoked_at: expect.any(Date) }]);
    expect(await logoutRequestsOf(FINN)).toEqual([{ consumed_at: expect.any(Date) }]);
    await page.context().close();
  });
});

/** supertest leaves unknown content types (application/samlmetadata+xml) unparsed. */
function textBody(res: request.Response, done: (error: Error | null, body: string) => void): void {
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.on('end', () => done(null, text));
}
