import request from 'supertest';
import { screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(120_000);

describe('browser: /settings/api_keys', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates a key shown once that works against the API, then revokes it so it stops working', async () => {
    const user = await app.newUser({ role: 'member' });
    const page = await app.newPage();
    await signInAs(page, user.email);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByText('You have no API keys yet.').waitFor();

    // Keyboard only: type the name, tab to the scope, pick it, submit with Enter.
    await page.getByLabel('Name').fill('bank sync');
    await page.getByLabel('Scope').selectOption('read_write');
    await page.getByLabel('Name').press('Enter');
    const shown = page.getByLabel('Key “bank sync”');
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^hth_/);
    await page.getByRole('row', { name: /bank sync/ }).getByText('Read and write').waitFor();
    await screenshot(page, 'api-keys');

    // The key is real: the API accepts it.
    await request(app.t.server).get('/api/v1/imports').set('X-Api-Key', key).expect(200);

    // Shown once: after a reload only the prefix is listed.
    await page.reload();
    await page.getByRole('row', { name: /bank sync/ }).waitFor();
    expect(await page.getByLabel('Key “bank sync”').count()).toBe(0);
    expect(await page.content()).not.toContain(key);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke bank sync' }).click();
    await page.getByRole('row', { name: /bank sync/ }).getByText(/^Revoked/).waitFor();
    expect(await page.getByRole('button', { name: 'Revoke bank sync' }).count()).toBe(0);
    await request(app.t.server).get('/api/v1/imports').set('X-Api-Key', key).expect(401);

    const [audit] = await app.t.dataSource.query(`SELECT count(*)::int AS n FROM audit_logs WHERE user_id = $1 AND event IN ('api_key_created', 'api_key_revoked')`, [user.id]);
    expect(audit.n).toBe(2);
    await page.context().close();
  });

  it('creates a key that expires at the start of the day chosen, in the browser\'s time zone', async () => {
    const user = await app.newUser({ role: 'member' });
    const page = await app.newPage();
    await signInAs(page, user.email, '/settings/api_keys');
    const day = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Name').fill('contractor');
    await page.getByLabel('Expires on (optional)').fill(day);
    await page.getByLabel('Name').press('Enter');
    await page.getByLabel('Key “contractor”').waitFor();
    await page.getByRole('row', { name: /contractor/ }).getByText(/^Expires /).waitFor();
    const expected = await page.evaluate((d) => new Date(`${d}T00:00`).toISOString(), day);
    const [stored] = await app.t.dataSource.query(`SELECT expires_at FROM api_keys WHERE user_id = $1 AND name = 'contractor'`, [user.id]);
    expect(stored.expires_at.toISOString()).toBe(expected);
    await page.context().close();
  });

  it('shows the API refusal when the name is already used', async () => {
    const user = await app.newUser({ role: 'member' });
    const page = await app.newPage();
    await signInAs(page, user.email);
    await page.goto('/settings/api_keys');
    for (let i = 0; i < 2; i++) {
      await page.getByLabel('Name').fill('duplicate');
      await page.getByRole('button', { name: 'Create key' }).click();
      if (i === 0) await page.getByLabel('Key “duplicate”').waitFor();
    }
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/duplicate|already/i);
    await page.context().close();
  });

  it('after creating a key focus moves to it; Copy says so only when the key reached the clipboard', async () => {
    const user = await app.newUser({ role: 'member' });
    const page = await app.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    await signInAs(page, user.email, '/settings/api_keys');
    await page.getByLabel('Name').fill('laptop');
    await page.getByLabel('Name').press('Enter');
    const shown = page.getByLabel('Key “laptop”');
    await shown.waitFor();
    // A keyboard user lands on the key, not on the page body (the submit button is disabled under them).
    await page.waitForFunction(() => document.activeElement?.id === 'new-key-value');
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await shown.inputValue());
    await page.context().close();
  });

  it('when the browser cannot copy (plain http has no clipboard API) it says so and selects the key to copy by hand', async () => {
    const user = await app.newUser({ role: 'member' });
    const page = await app.newPage();
    // Over plain http on a LAN address navigator.clipboard does not exist; loopback is a secure context, so remove it.
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signInAs(page, user.email, '/settings/api_keys');
    await page.getByLabel('Name').fill('nas backup');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('Key “nas backup”');
    await shown.waitFor();
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText(/could not copy/i).waitFor();
    expect(await page.getByRole('button', { name: 'Copied', exact: true }).count()).toBe(0);
    const selected = await page.evaluate(() => {
      const input = document.getElementById('new-key-value') as HTMLInputElement;
      return document.activeElement === input ? input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0) : '';
    });
    expect(selected).toBe(await shown.inputValue());
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('lists a key past its expiry as expired, not as one that will expire', async () => {
    const user = await app.newUser({ role: 'member' });
    const page = await app.newPage();
    await signInAs(page, user.email, '/settings/api_keys');
    await page.getByLabel('Name').fill('old script');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Key “old script”').waitFor();
    // The API refuses an expiry in the past, so age the stored key instead.
    await app.t.dataSource.query(`UPDATE api_keys SET expires_at = now() - interval '1 day' WHERE user_id = $1`, [user.id]);
    await page.reload();
    const row = page.getByRole('row', { name: /old script/ });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Expired/);
    expect(await row.textContent()).not.toMatch(/Expires/);
    await page.context().close();
  });
});
