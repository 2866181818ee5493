import { makeKeyPair } from '../../api/test/support/saml-idp';
import type { Page } from 'playwright-core';
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
    await page.getByLabel('Single logout URL').fill('https://idp.example.com/slo');
    await page.getByLabel('IdP entity ID').fill('urn:corp:idp');
    await page.getByLabel('IdP certificate (PEM)').fill(idp.cert);
    await page.getByLabel('SP private key (PEM)').fill(sp.key);
    await page.getByLabel('SP certificate (PEM)').fill(sp.cert);
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const stored = async (n: string) =>
      (await app.t.dataSource.query(`SELECT idp_entity_id, slo_url, sp_certificate, sp_private_key_encrypted FROM sso_providers WHERE name = $1`, [n]))[0];
    const before = await stored(name);
    expect(before).toMatchObject({ idp_entity_id: 'urn:corp:idp', slo_url: 'https://idp.example.com/slo' });

    await page.getByLabel('IdP entity ID').fill('');
    await page.getByLabel('Single logout URL').fill('');
    await page.getByLabel('SP certificate (PEM)').fill('');
    expect(await page.getByLabel('SP private key (PEM)').inputValue()).toBe(''); // never returned: blank keeps it
    await page.getByLabel('Name', { exact: true }).fill(`  ${name}-new `);
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('heading', { name: /^Edit / }).waitFor({ state: 'detached' });
    expect(await stored(`${name}-new`)).toEqual({ idp_entity_id: null, slo_url: null, sp_certificate: null, sp_private_key_encrypted: before.sp_private_key_encrypted });
    await page.context().close();
  });
  /** Fills the add form with an OAuth2 provider (nothing is fetched from its URLs on save). */
  async function fillOauth2Provider(page: Page, name: string) {
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByLabel('Strategy').selectOption('oauth2');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Authorization URL').fill('https://idp.example.com/authorize');
    await page.getByLabel('Token URL').fill('https://idp.example.com/token');
    await page.getByLabel('User info URL').fill('https://idp.example.com/userinfo');
    await page.getByLabel('Client ID').fill('hearth');
    await page.getByLabel('Client secret').fill('s3cret-value');
  }

  const readBack = async (page: Page, name: string) => {
    const res = await page.context().request.get('/api/v1/admin/sso_providers');
    const body = (await res.json()) as { sso_providers: { name: string; role_mapping: Record<string, unknown> }[] };
    return body.sso_providers.find((p) => p.name === name)?.role_mapping;
  };

  it('warns, on the default role itself, that super admin as default gives every account of the provider the whole instance', async () => {
    const root = await app.newUser({ role: 'super_admin' });
    const page = await app.newPage();
    await signInAs(page, root.email, '/admin/sso_providers');
    await fillOauth2Provider(page, `wide-${Date.now()}`);
    const defaultRole = page.getByLabel('Default role');
    expect(await defaultRole.getAttribute('aria-describedby')).toBeNull();
    await defaultRole.selectOption('super_admin');
    const warning = page.getByText('Every account this provider creates', { exact: false });
    await warning.waitFor();
    expect(await defaultRole.getAttribute('aria-describedby')).toBe(await warning.getAttribute('id'));
    await defaultRole.selectOption('member');
    await warning.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('sets group -> role mappings on a new provider, shows them after a reload, and removes one; other rules are kept', async () => {
    const root = await app.newUser({ role: 'super_admin' });
    const page = await app.newPage();
    await signInAs(page, root.email, '/admin/sso_providers');
    const name = `roles-${Date.now()}`;
    await fillOauth2Provider(page, name);
    await page.getByRole('group', { name: 'Role mapping' }).getByText('No group mapping.').waitFor();
    await page.getByRole('button', { name: 'Add group mapping' }).click();
    await page.getByLabel('Group 1', { exact: true }).fill('finance');
    await page.getByLabel('Role for group 1').selectOption('admin');
    await page.getByRole('button', { name: 'Add group mapping' }).click();
    await page.getByLabel('Group 2', { exact: true }).fill('household');
    // A new row starts as member; the last row is changed and then removed before saving.
    expect(await page.getByLabel('Role for group 2').inputValue()).toBe('member');
    await page.getByRole('button', { name: 'Add group mapping' }).click();
    await page.getByLabel('Group 3', { exact: true }).fill('typo');
    await page.getByRole('button', { name: 'Remove group 3' }).click();
    const conditions = [{ attribute: 'department', value: 'finance', role: 'admin' }];
    await page.getByLabel('Other mapping rules (JSON)').fill(JSON.stringify({ conditions }));
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('row', { name: new RegExp(name) }).waitFor();
    expect(await readBack(page, name)).toEqual({
      conditions,
      groupMappings: [
        { group: 'finance', role: 'admin' },
        { group: 'household', role: 'member' },
      ],
    });

    await page.reload();
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    expect(await page.getByLabel('Group 1', { exact: true }).inputValue()).toBe('finance');
    expect(await page.getByLabel('Role for group 1').inputValue()).toBe('admin');
    expect(await page.getByLabel('Group 2', { exact: true }).inputValue()).toBe('household');
    expect(await page.getByLabel('Role for group 2').inputValue()).toBe('member');
    expect(await page.getByLabel('Group 3', { exact: true }).count()).toBe(0);
    expect(JSON.parse(await page.getByLabel('Other mapping rules (JSON)').inputValue())).toEqual({ conditions });
    await screenshot(page, 'sso-provider-role-mapping');

    // From here the list answers slowly: the form must not close before the list shows what was saved, or an Edit
    // clicked at once would open (and save back) the old mapping.
    await page.route('**/api/v1/admin/sso_providers', async (route) => {
      if (route.request().method() === 'GET') await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Remove group 1' }).click();
    expect(await page.getByLabel('Group 1', { exact: true }).inputValue()).toBe('household');
    await page.getByLabel('Role for group 1').selectOption('super_admin');
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('heading', { name: /^Edit / }).waitFor({ state: 'detached' });
    expect(await readBack(page, name)).toEqual({ conditions, groupMappings: [{ group: 'household', role: 'super_admin' }] });

    // Removing the last row and the other rules leaves no mapping at all.
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    await page.getByRole('button', { name: 'Remove group 1' }).click();
    await page.getByLabel('Other mapping rules (JSON)').fill('');
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('heading', { name: /^Edit / }).waitFor({ state: 'detached' });
    expect(await readBack(page, name)).toEqual({});
    await page.context().close();
  });

  /** The provider as the API stores it, changed through the API itself (PATCH, with the session's CSRF token). */
  async function patchProvider(page: Page, name: string, body: Record<string, unknown>) {
    const csrf = (await page.context().cookies()).find((c) => c.name === 'hearth_csrf')!.value;
    const list = (await (await page.context().request.get('/api/v1/admin/sso_providers')).json()) as { sso_providers: { id: string; name: string }[] };
    const id = list.sso_providers.find((p) => p.name === name)!.id;
    const res = await page.context().request.patch(`/api/v1/admin/sso_providers/${id}`, { data: body, headers: { 'X-CSRF-Token': decodeURIComponent(csrf) } });
    if (res.status() !== 200) throw new Error(`PATCH ${name}: ${res.status()} ${await res.text()}`);
  }

  it("shows the API's refusal of a group mapping on the row it concerns, under that row's label, and it follows the row", async () => {
    const root = await app.newUser({ role: 'super_admin' });
    const page = await app.newPage();
    await signInAs(page, root.email, '/admin/sso_providers');
    const name = `legacy-roles-${Date.now()}`;
    await fillOauth2Provider(page, name);
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('row', { name: new RegExp(name) }).waitFor();
    // A rule stored before roles were checked (the reference app had a guest role): only the database can hold it now.
    const legacy = { groupMappings: [{ group: 'staff', role: 'member' }, { group: 'visitors', role: 'guest' }, { group: 'finance', role: 'admin' }] };
    await app.t.dataSource.query(`UPDATE sso_providers SET role_mapping = $2 WHERE name = $1`, [name, JSON.stringify(legacy)]);

    await page.reload();
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    expect(await page.getByLabel('Role for group 2').inputValue()).toBe('guest');
    const answer = page.waitForResponse((r) => r.url().includes('/api/v1/admin/sso_providers/') && r.request().method() === 'PATCH');
    await page.getByRole('button', { name: 'Save provider' }).click();
    expect((await answer).status()).toBe(422);
    const row = (n: number) => page.getByRole('group', { name: `Group mapping ${n}`, exact: true });
    const refusal = /^Role for group 2 must be one of member, admin, super_admin, got "guest"$/;
    await row(2).getByRole('alert').getByText(refusal).waitFor();
    expect(await page.getByLabel('Role for group 2').getAttribute('aria-invalid')).toBe('true');
    expect(await row(1).getByRole('alert').count()).toBe(0);
    expect(await row(3).getByRole('alert').count()).toBe(0);
    // Near the save button: a pointer to the rows, never the API's zero-based path.
    expect(await page.getByRole('alert').filter({ hasText: 'groupMappings[' }).count()).toBe(0);
    await page.getByRole('alert').getByText('Check the group mappings marked above.').waitFor();

    // Removing the row above moves the refusal with its row, under the row's new label.
    await page.getByRole('button', { name: 'Remove group 1' }).click();
    await row(1).getByRole('alert').getByText(/^Role for group 1 must be one of member, admin, super_admin, got "guest"$/).waitFor();
    expect(await row(2).getByRole('alert').count()).toBe(0);

    await page.getByLabel('Role for group 1').selectOption('member');
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('heading', { name: /^Edit / }).waitFor({ state: 'detached' });
    expect(await readBack(page, name)).toEqual({ groupMappings: [{ group: 'visitors', role: 'member' }, { group: 'finance', role: 'admin' }] });
    await page.context().close();
  });

  it('sends back the group mappings it loaded as they are: fields it does not show, and spaces in a group name', async () => {
    const root = await app.newUser({ role: 'super_admin' });
    const page = await app.newPage();
    await signInAs(page, root.email, '/admin/sso_providers');
    const name = `round-trip-${Date.now()}`;
    await fillOauth2Provider(page, name);
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('row', { name: new RegExp(name) }).waitFor();
    // Group names match exactly (docs/sso.md#role-mapping) and the API keeps them and any other field of an entry as sent.
    const groupMappings = [
      { group: ' Finance Team ', role: 'admin', note: 'from config/auth.yml', source: { line: 12 } },
      { group: 'staff', role: 'member', note: 'everyone on payroll' },
    ];
    await patchProvider(page, name, { role_mapping: { groupMappings } });
    expect(await readBack(page, name)).toEqual({ groupMappings });

    await page.reload();
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    expect(await page.getByLabel('Group 1', { exact: true }).inputValue()).toBe(' Finance Team ');
    // Saving unchanged sends the entries back unchanged; an edited row keeps the fields the form does not show.
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('heading', { name: /^Edit / }).waitFor({ state: 'detached' });
    expect(await readBack(page, name)).toEqual({ groupMappings });

    await page.getByRole('button', { name: `Edit ${name}` }).click();
    await page.getByLabel('Role for group 2').selectOption('admin');
    await page.getByLabel('Group 2', { exact: true }).fill(' staff');
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('heading', { name: /^Edit / }).waitFor({ state: 'detached' });
    expect(await readBack(page, name)).toEqual({ groupMappings: [groupMappings[0], { group: ' staff', role: 'admin', note: 'everyone on payroll' }] });
    await page.context().close();
  });

  it("refuses an empty group name in the form and shows the API's 422 for an invalid rule; nothing is saved", async () => {
    const root = await app.newUser({ role: 'super_admin' });
    const page = await app.newPage();
    await signInAs(page, root.email, '/admin/sso_providers');
    const name = `bad-roles-${Date.now()}`;
    await fillOauth2Provider(page, name);
    await page.getByRole('button', { name: 'Add group mapping' }).click();
    await page.getByLabel('Group 1', { exact: true }).fill('   ');
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('group', { name: 'Group mapping 1', exact: true }).getByRole('alert').getByText('Group 1 needs a group name (or remove that row).').waitFor();

    await page.getByLabel('Group 1', { exact: true }).fill('finance');
    await page.getByLabel('Other mapping rules (JSON)').fill('{"conditions": [');
    await page.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('alert').getByText(/^Other mapping rules are not valid JSON/).waitFor();

    // A condition without any criterion: the API refuses it and its message is shown by the form.
    await page.getByLabel('Other mapping rules (JSON)').fill('{"conditions": [{"role": "admin"}]}');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/admin/sso_providers') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Save provider' }).click();
    expect((await answer).status()).toBe(422);
    await page.getByRole('alert').getByText(/conditions\[0\] needs an attribute and value, or groups/).waitFor();
    expect(await app.t.dataSource.query(`SELECT id FROM sso_providers WHERE name = $1`, [name])).toEqual([]);
    await page.context().close();
  });
});
