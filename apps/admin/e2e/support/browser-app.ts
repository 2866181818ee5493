import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Role } from '@hearth/contracts';
import { startFreshTestApp } from '../../../api/test/support/fresh-database';
import { givePassword, type TestApp } from '../../../api/test/support/test-app';
import { UsersService } from '../../../api/src/users/users.service';
import { PASSWORD } from '../../../api/test/support/sessions';

export { PASSWORD };

const root = join(__dirname, '../../../..');
const screenshots = join(root, 'artifacts/screenshots');

/** The real API on a real database, serving the built SPA on a free port, plus a real Chromium. */
export interface BrowserApp {
  t: TestApp;
  baseUrl: string;
  browser: Browser;
  /** A new signed-out page (its own cookie jar). */
  newPage(): Promise<Page>;
  /** Creates a user; with `familyId` they join that family, else a new one is made. */
  newUser(options?: { role?: Role; familyId?: string }): Promise<{ id: string; email: string; familyId: string }>;
  close(): Promise<void>;
}

/** A port that is free now, for an app whose public URL (APP_URL) must be known before it starts. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startBrowserApp(env: Record<string, string> = {}, port = 0): Promise<BrowserApp> {
  // A database of its own: the screens list instance-wide things (providers, users, the audit log).
  const t = await startFreshTestApp({
    ADMIN_DIST_DIR: join(root, 'dist/admin'),
    // One browser test makes more admin changes in a minute than the production budget of 10.
    RATE_LIMIT_ADMIN_PER_MINUTE: '1000',
    RATE_LIMIT_ADMIN_READS_PER_MINUTE: '1000',
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
    ...env,
  });
  await new Promise<void>((resolve) => t.server.listen(port, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(t.server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  mkdirSync(screenshots, { recursive: true });
  const cspViolations: string[] = [];
  return {
    t,
    baseUrl,
    browser,
    async newPage() {
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
      watchCsp(context, cspViolations);
      return context.newPage();
    },
    async newUser({ role = 'admin', familyId } = {}) {
      const email = `user-${randomUUID().slice(0, 8)}@example.com`;
      const { user, family } = await t.app.get(UsersService).create({ email, role, familyId, familyName: familyId ? undefined : `Family ${randomUUID()}` });
      await givePassword(t.dataSource, user.id);
      return { id: user.id, email, familyId: family.id };
    },
    async close() {
      await browser.close();
      await t.close();
      // Every page of the suite ran under the app's Content-Security-Policy: anything it blocked is a broken app.
      if (cspViolations.length) throw new Error(`Content-Security-Policy violations:\n${cspViolations.join('\n')}`);
    },
  };
}

/** Collects what Chromium reports blocked by a Content-Security-Policy (its console says so) on the context's pages. */
export function watchCsp(context: BrowserContext, violations: string[]): void {
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`${message.location().url}: ${message.text()}`);
  });
}

/** Signs in through the form and waits for the app shell. */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/sign-in');
  await submitSignIn(page, email, password);
  await page.getByRole('banner').waitFor(); // the app's header; its navigation is behind a Menu button at phone width
}

/** Fills and sends the form of the sign-in page the browser is on. */
export async function submitSignIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in with a POST /sessions from the page's own cookie jar (the form is covered by sign-in.spec.ts), then opens `path`. */
export async function signInAs(page: Page, email: string, path = '/', password = PASSWORD): Promise<void> {
  const res = await page.context().request.post('/sessions', { data: { email, password } });
  if (res.status() !== 201) throw new Error(`sign-in of ${email} failed: ${res.status()} ${await res.text()}`);
  await page.goto(path);
  await page.getByRole('banner').waitFor(); // the app's header; its navigation is behind a Menu button at phone width
}

/** The whole page; `fullPage: false` for the window alone (a modal dialog sits in the window, not on the page). */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage });
}
