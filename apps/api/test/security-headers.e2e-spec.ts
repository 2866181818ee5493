import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { APP_PAGE_HEADERS } from '../src/common/security-headers';
import { as, signIn } from './support/sessions';
import { startTestApp, TestApp } from './support/test-app';

/** Headers of the app's page as a browser must see them, whichever route it is opened at. */
function expectAppPage(headers: Record<string, string>): void {
  const csp = headers['content-security-policy'];
  // Scripts and styles from the app's own files only: no inline script, no eval, nothing from elsewhere.
  expect(csp).toMatch(/(^|; )script-src 'self'(;|$)/);
  expect(csp).toMatch(/(^|; )style-src 'self'(;|$)/);
  expect(csp).toMatch(/(^|; )default-src 'self'(;|$)/);
  expect(csp).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  expect(headers).toMatchObject({
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  });
  for (const [name, value] of Object.entries(APP_PAGE_HEADERS)) expect(headers[name.toLowerCase()]).toBe(value);
}

describe('security headers', () => {
  let t: TestApp;
  let adminDir: string;
  beforeAll(async () => {
    // A built app's shape: index.html and content-hashed files under assets/.
    adminDir = mkdtempSync(join(tmpdir(), 'hearth-admin-'));
    mkdirSync(join(adminDir, 'assets'));
    writeFileSync(join(adminDir, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body></body></html>');
    writeFileSync(join(adminDir, 'assets/index-abc123.js'), 'console.log("app")');
    t = await startTestApp({ ADMIN_DIST_DIR: adminDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(adminDir, { recursive: true, force: true });
  });

  it("sends the app's page with a strict CSP, no framing, no sniffing, no Referer, at every route and as /index.html", async () => {
    for (const path of ['/', '/settings/api_keys', '/password_reset?token=abc', '/index.html']) {
      const res = await request(t.server).get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expectAppPage(res.headers as Record<string, string>);
    }
  });

  it('lets hashed assets be cached for good, and never sniffed', async () => {
    const res = await request(t.server).get('/assets/index-abc123.js').expect(200);
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(res.headers['content-security-policy']).toBeUndefined(); // a script, not a page
  });

  it('keeps every response carrying a secret or household data out of caches: sign-in, /me, the one-time key, data, errors', async () => {
    const h = await t.newHousehold();
    const signedIn = await request(t.server).post('/sessions').send({ email: h.email, password: 'correct horse battery' }).expect(201);
    expect(signedIn.body.user.csrf_token).toEqual(expect.any(String));
    const browser = await signIn(t.server, h.email, 'correct horse battery');
    const responses = {
      'POST /sessions (CSRF token)': signedIn,
      'GET /api/v1/me (CSRF token)': await as(t.server, browser, 'get', '/api/v1/me').expect(200),
      'POST /api/v1/settings/api_keys (the key, once)': await as(t.server, browser, 'post', '/api/v1/settings/api_keys').send({ name: 'cache check', scope: 'read' }).expect(201),
      'GET /api/v1/family_settings': await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', h.apiKey).expect(200),
      'GET /api/v1/accounts': await request(t.server).get('/api/v1/accounts').set('X-Api-Key', h.apiKey).expect(200),
      'GET /api/v1/me without credentials (401)': await request(t.server).get('/api/v1/me').expect(401),
      'GET /api/v1/nowhere (404)': await request(t.server).get('/api/v1/nowhere').set('X-Api-Key', h.apiKey).expect(404),
      'POST /sessions with a bad body': await request(t.server).post('/sessions').send({ email: 7 }),
      'DELETE /sessions': await as(t.server, browser, 'delete', '/sessions'),
    };
    const seen = Object.fromEntries(Object.entries(responses).map(([name, res]) => [name, [res.headers['cache-control'], res.headers['x-content-type-options']]]));
    expect(seen).toEqual(Object.fromEntries(Object.keys(responses).map((name) => [name, ['no-store', 'nosniff']])));
  });

  it('leaves the public OpenAPI document cacheable, but never sniffed', async () => {
    const res = await request(t.server).get('/api/v1/openapi.json').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).not.toBe('no-store');
  });
});
