import { makeKeyPair } from '../../api/test/support/saml-idp';
import { screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(120_000);

describe('browser: /admin/sso_providers and /admin/sso_audit_logs', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp({ SSO_ALLOW_INSECURE_HTTP: 'true' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('adds an OAuth2 provider with only its fields, shows its callback URL, disables and deletes it, and the audit log lists each change', async () => {
    const root = await app.newUser({ role: 'super_admin' });
    const page = await app.newPage();
    await signInAs(page, root.email);
    await page.getByRole('link', { name: 'Providers' }).click();
    await page.getByRole('heading', { name: 'Sign-in providers' }).waitFor();
    await page.getByRole('button', { name: 'Add provider' }).click();

    // OIDC fields first; switching the strategy shows the OAuth2 ones instead.
    await page.getByLabel('Issuer URL').waitFor();
    await page.getByLabel('Strategy').selectOption('oauth2');
    expect(await page.getByLabel('Issuer URL').count()).toBe(0);
    const name = `bank-${Date.now()}`;
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Button label').fill('Bank SSO');
    await page.getByLabel('Authorization URL').fill('https://idp.example.com/authorize');
    await page.getByLabel('Token URL').fill('https://idp.example.com/token');
    await page.getByLabel('User info URL').fill('https://idp.example.com/userinfo');
    await page.getByLabel('Client ID').fill('hearth');
    await page.getByLabel('Client secret').fill('s3cret-value');
    await page.getByLabel('Scopes').fill('openid email');
    await page.getByRole('button', { name: 'Save provider' }).click();

    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.waitFor();
    expect(await row.textContent()).toContain(`${app.baseUrl}/auth/${name}/callback`);
    await screenshot(page, 'sso-providers');
    const [stored] = await app.t.dataSource.query(`SELECT strategy, enabled FROM sso_providers WHERE name = $1`, [name]);
    expect(stored.strategy).toBe('oauth2');

    const toggle = row.getByRole('button', { name: new RegExp(`^(Enable|Disable) ${name}$`) });
    const wasEnabled = (await toggle.textContent()) === 'Disable';
    await toggle.click();
    await row.getByRole('button', { name: `${wasEnabled ? 'Enable' : 'Disable'} ${name}` }).waitFor();
    expect((await app.t.dataSource.query(`SELECT enabled FROM sso_providers WHERE name = $1`, [name]))[0].enabled).toBe(!wasEnabled);

    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    await row.waitFor({ state: 'detached' });
    expect(await app.t.dataSource.query(`SELECT id FROM sso_providers WHERE name = $1`, [name])).toEqual([]);

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByLabel('Event', { exact: true }).selectOption('provider_created');
    await page.getByRole('cell', { name: 'provider deleted' }).first().waitFor({ state: 'detached' }); // the filter applied
    // The filtered page may still be loading once the old rows are gone: wait for its rows, not count them at once.
    await page.getByRole('cell', { name: 'provider created' }).first().waitFor();
    expect(await page.getByRole('cell', { name: 'provider created' }).count()).toBeGreaterThan(0);
    await page.getByLabel('Event', { exact: true }).selectOption('');
    await page.getByRole('cell', { name: 'provider deleted' }).first().waitFor();
    await screenshot(page, 'audit-log');
    await page.context().close();
  });

  it("shows each audit event's user by e-mail", async () => {
    const root = await app.newUser({ role: 'super_admin' });
    const page = await app.newPage();
    await signInAs(page, root.email);
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('table', { name: 'Audit events' }).getByRole('cell', { name: root.email, exact: true }).first().waitFor();
    await page.context().close();
  });

  it('keeps admins who are not super admins out of provider management', async () => {
    const admin = await app.newUser({ role: 'admin' });
    const page = await app.newPage();
    await signInAs(page, admin.email);
    expect(await page.getByRole('link', { name: 'Providers' }).count()).toBe(0);
    await page.goto('/admin/sso_providers');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await page.context().close();
  });

  it('clears an optional field emptied when editing a provider, keeps a secret left blank and trims a new name', async () => {
    const root = await app.newUser({ role: 'super_admin' });
    const idp = makeKeyPair('Hearth test IdP');
    const sp = makeKeyPair('Hearth SP');
    const page = await app.newPage();
    await signInAs(page, root.email, '/admin/sso_providers');
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByLabel('Strategy').selectOption('saml');
    const name = `corp-${Date.now()}`;
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('SSO URL').fill('https://idp.example.com/sso');
    await page.getByLabel('IdP entity ID').fill('urn:corp:idp');
    await page.getByLabel('IdP certificate (PEM)').fill(idp.cert);
    await page.getByLabel('SP private key (PEM)').fill(sp.key);
    await page.getByLabel('SP certificate (PEM)').fill(sp.cert);
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const stored = async (n: string) =>
      (await app.t.dataSource.query(`SELECT idp_entity_id, sp_certificate, sp_private_key_encrypted FROM sso_providers WHERE name = $1`, [n]))[0];
    const before = await stored(name);
    expect(before.idp_entity_id).toBe('urn:corp:idp');

    await page.getByLabel('IdP entity ID').fill('');
    await page.getByLabel('SP certificate (PEM)').fill('');
    expect(await page.getByLabel('SP private key (PEM)').inputValue()).toBe(''); // never returned: blank keeps it
    await page.getByLabel('Name', { exact: true }).fill(`  ${name}-new `);
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('heading', { name: /^Edit / }).waitFor({ state: 'detached' });
    expect(await stored(`${name}-new`)).toEqual({ idp_entity_id: null, sp_certificate: null, sp_private_key_encrypted: before.sp_private_key_encrypted });
    await page.context().close();
  });
});
