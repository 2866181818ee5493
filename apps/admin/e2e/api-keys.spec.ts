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
});
