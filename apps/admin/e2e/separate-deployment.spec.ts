import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { APP_PAGE_HEADERS } from '../../api/src/common/security-headers';
import { until } from '../../api/test/support/until';
import { freePort, PASSWORD, screenshot, submitSignIn, watchCsp } from './support/browser-app';

/**
 * "Two apps deployed separately": Debian's nginx runs docker/nginx/hearth.conf.template, the file the admin image
 * copies, in front of the built API (`npm start` that serves no app), with the built app as its root. Chromium uses
 * Hearth through nginx alone: the page, password sign-in and sign-out (/sessions), the API.
 *
 * Only what the nginx image's entrypoint and a host would differ in is changed: ${API_UPSTREAM} filled in as envsubst
 * does, the port (80 needs root) and the root directory. A machine without nginx fails here: it is a test, not an option.
 */
jest.setTimeout(180_000);

const root = join(__dirname, '../../..');
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const TEMPLATE = join(root, 'docker/nginx/hearth.conf.template');

/** The template as the image's entrypoint writes it to conf.d, on a free port, serving `adminDir`. */
function siteConfig(apiUpstream: string, port: number, adminDir: string): string {
  const replaceOnce = (text: string, from: string, to: string) => {
    const parts = text.split(from);
    if (parts.length !== 2) throw new Error(`${TEMPLATE} must contain "${from}" exactly once (found ${parts.length - 1})`);
    return parts.join(to);
  };
  const site = readFileSync(TEMPLATE, 'utf8').replaceAll('${API_UPSTREAM}', apiUpstream);
  return replaceOnce(replaceOnce(site, 'listen 80;', `listen 127.0.0.1:${port};`), 'root /usr/share/nginx/html;', `root ${adminDir};`);
}

/** The http block of the nginx image's own nginx.conf around the site, with every path a process of ours may write. */
function nginxConfig(dir: string, site: string): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${site}
}
`;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(Boolean(socket.end())));
    socket.on('error', () => resolve(false));
  });

/** Waits for `text` in the output of `child`; rejects if it exits first. */
function waitForOutput(child: ChildProcess, text: string, what: string): Promise<void> {
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(text)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before "${text}":\n${output.slice(-3000)}`)));
  });
}

describe('browser: the app and the API deployed separately, nginx in front', () => {
  let dir: string;
  let api: ChildProcess;
  let nginx: ChildProcess;
  let browser: Browser;
  let baseUrl: string;
  let apiUrl: string;
  let user: { id: string; email: string };
  const cspViolations: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hearth-nginx-'));
    chmodSync(dir, 0o755); // nginx's workers run as nobody when the test runs as root
    const [apiPort, nginxPort] = [await freePort(), await freePort()];
    apiUrl = `http://127.0.0.1:${apiPort}`;
    baseUrl = `http://127.0.0.1:${nginxPort}`;
    const env = {
      ...process.env,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'), // the embedded database, unless DATABASE_URL is set
      QUEUE_PREFIX: `test-nginx-${nginxPort}`,
      ADMIN_DIST_DIR: join(dir, 'no-app'), // the API serves no app: nginx does
      TRUST_PROXY: '1', // nginx, the one proxy
      RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
      RATE_LIMIT_ADMIN_PER_MINUTE: '1000',
      LOG_LEVEL: 'info',
    };
    api = spawn(process.execPath, [join(root, 'tools/start.mjs'), '--no-admin'], { cwd: root, env });
    await waitForOutput(api, 'Hearth listening', 'the API');

    const email = `nginx-${nginxPort}-${Date.now()}@example.com`;
    const cli = spawn(process.execPath, [join(root, 'tools/cli.mjs'), 'users:create', '--email', email, '--password-stdin', '--role', 'admin', '--family-name', `Nginx ${email}`], {
      cwd: root,
      env: { ...env, LOG_LEVEL: 'silent' },
    });
    let created = '';
    cli.stdout.on('data', (chunk: Buffer) => (created += chunk.toString()));
    cli.stdin.end(PASSWORD);
    expect(await new Promise((resolve) => cli.on('exit', resolve))).toBe(0);
    user = { id: /id=([0-9a-f-]{36})/.exec(created)![1], email };

    mkdirSync(join(dir, 'nginx'));
    writeFileSync(join(dir, 'nginx/nginx.conf'), nginxConfig(join(dir, 'nginx'), siteConfig(apiUrl, nginxPort, join(root, 'dist/admin'))));
    nginx = spawn(NGINX, ['-e', join(dir, 'nginx/error.log'), '-p', join(dir, 'nginx'), '-c', join(dir, 'nginx/nginx.conf'), '-g', 'daemon off;']);
    const failed = new Promise<never>((_resolve, reject) => {
      nginx.once('error', (error) => reject(new Error(`cannot run ${NGINX} (install Debian's nginx-light): ${error.message}`)));
      nginx.once('exit', (code) => reject(new Error(`nginx exited (${code}): ${readFileSync(join(dir, 'nginx/error.log'), 'utf8')}`)));
    });
    await Promise.race([until('nginx to listen', () => listening(nginxPort), 30_000), failed]);

    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  });

  afterAll(async () => {
    await browser?.close();
    nginx?.kill('SIGTERM');
    if (api) {
      const exited = new Promise((resolve) => api.once('exit', resolve));
      api.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
    watchCsp(context, cspViolations);
    return context.newPage();
  }

  it('signs in with a password, uses the API and signs out, all through nginx, with no CSP violation', async () => {
    const page = await newPage();
    const calls: string[] = [];
    page.on('response', (res) => calls.push(`${res.request().method()} ${new URL(res.url()).pathname} ${res.status()}`));
    await page.goto('/settings/api_keys');
    await page.waitForURL(/\/sign-in\?next=/);
    await submitSignIn(page, user.email, PASSWORD);
    await page.waitForURL(/\/settings\/api_keys$/);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await screenshot(page, 'separate-deployment-signed-in');
    const loggedOut = page.waitForResponse((res) => res.url().endsWith('/auth/logout'));
    await page.getByRole('button', { name: 'Sign out' }).click(); // POST /auth/logout, which ends SSO sessions too
    await loggedOut;
    await page.waitForURL(/\/sign-in/);
    expect(calls.filter((call) => !call.includes(' /assets/'))).toEqual(
      expect.arrayContaining(['POST /sessions 201', 'GET /api/v1/settings/api_keys 200', 'POST /auth/logout 200']),
    );
    // Signed out for real: the session cookie no longer opens the API.
    const http = page.context().request;
    expect((await http.get('/api/v1/me')).status()).toBe(401);

    // The API's own sign-out, DELETE /sessions, through nginx too.
    const signedIn = await http.post('/sessions', { data: { email: user.email, password: PASSWORD }, headers: { Origin: baseUrl } });
    expect(signedIn.status()).toBe(201);
    const csrf = ((await signedIn.json()) as { user: { csrf_token: string } }).user.csrf_token;
    const me = await http.get('/api/v1/me');
    expect([me.status(), ((await me.json()) as { email: string }).email]).toEqual([200, user.email]);
    expect((await http.delete('/sessions', { headers: { 'X-CSRF-Token': csrf, Origin: baseUrl } })).status()).toBe(204);
    expect((await http.get('/api/v1/me')).status()).toBe(401);
    expect(cspViolations).toEqual([]);
    await page.context().close();
  });

  it("sends the app's page with the API's security headers, and passes the API's own headers through untouched", async () => {
    const page = await fetch(`${baseUrl}/settings/api_keys`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    for (const [name, value] of Object.entries(APP_PAGE_HEADERS)) expect([name, page.headers.get(name)]).toEqual([name, value]);

    const html = readFileSync(join(root, 'dist/admin/index.html'), 'utf8');
    const asset = await fetch(`${baseUrl}${/src="(\/assets\/[^"]+\.js)"/.exec(html)![1]}`);
    expect([asset.status, asset.headers.get('content-type'), asset.headers.get('cache-control'), asset.headers.get('x-content-type-options')]).toEqual([
      200,
      'application/javascript',
      'public, max-age=31536000, immutable',
      'nosniff',
    ]);

    const health = await fetch(`${baseUrl}/api/v1/health`);
    expect([health.status, health.headers.get('cache-control'), health.headers.get('x-content-type-options')]).toEqual([200, 'no-store', 'nosniff']);
    expect(health.headers.get('content-security-policy')).toBeNull(); // the page's headers are nginx's for the page only
    expect(await health.json()).toMatchObject({ status: 'ok' });
  });

  it('tells the API who the browser is: the address nginx saw, its scheme and Host, whatever the client claims', async () => {
    const signIn = (headers: Record<string, string>) =>
      fetch(`${baseUrl}/sessions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify({ email: user.email, password: PASSWORD }),
      });
    // A client's own X-Forwarded-* are not believed: TRUST_PROXY=1 takes the address nginx appended, and nginx says http.
    const res = await signIn({ Origin: baseUrl, 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Proto': 'https' });
    expect(res.status).toBe(201);
    const cookies = res.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('hearth_session='))).not.toMatch(/;\s*Secure/i);
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
    const history = await fetch(`${baseUrl}/api/v1/admin/users/${user.id}/auth_history`, { headers: { Cookie: cookie } });
    expect(history.status).toBe(200);
    const [latest] = ((await history.json()) as { events: { ip_address: string }[] }).events;
    expect(latest.ip_address).toBe('127.0.0.1');
    // The API compares Origin with the Host the browser asked for (passed on by nginx), not with its own address.
    expect((await signIn({ Origin: apiUrl })).status).toBe(403);
  });
});
