import { newProvider } from '../../api/src/sso/provider-fields';
import { SsoProvider } from '../../api/src/sso/sso.entities';
import { SsoRepository } from '../../api/src/sso/sso.repository';
import { screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(120_000);

describe('browser: /admin/users', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const statusOf = async (id: string) => (await app.t.dataSource.query(`SELECT status FROM users WHERE id = $1`, [id]))[0]?.status;

  it('searches and filters, suspends and reactivates a member, shows history, and deletes only after the e-mail is typed', async () => {
    const admin = await app.newUser({ role: 'admin' });
    const member = await app.newUser({ role: 'member', familyId: admin.familyId });
    const other = await app.newUser({ role: 'member', familyId: admin.familyId });
    const page = await app.newPage();
    await signInAs(page, admin.email);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByRole('row', { name: new RegExp(member.email) }).waitFor();
    expect(await page.getByText('3 users').count()).toBe(1);
    await screenshot(page, 'admin-users');

    // Filter by role (members only), then search by e-mail.
    await page.getByLabel('Role').selectOption('member');
    await page.getByText('2 users').waitFor();
    expect(page.url()).toContain('role=member');
    await page.getByLabel('Search').fill(member.email);
    await page.getByLabel('Search').press('Enter');
    await page.getByText('1 user', { exact: true }).waitFor();
    expect(await page.getByRole('row', { name: new RegExp(other.email) }).count()).toBe(0);

    await page.getByRole('button', { name: `Suspend ${member.email}` }).click();
    await page.getByRole('button', { name: `Reactivate ${member.email}` }).waitFor();
    expect(await statusOf(member.id)).toBe('suspended');
    await page.getByLabel('Status').selectOption('suspended');
    await page.getByRole('row', { name: new RegExp(member.email) }).getByText('suspended').waitFor();
    await page.getByRole('button', { name: `Reactivate ${member.email}` }).click();
    await page.getByText('No user matches these filters.').waitFor(); // no longer suspended
    expect(await statusOf(member.id)).toBe('active');
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('button', { name: `History of ${member.email}` }).click();
    const history = page.getByRole('region', { name: `History of ${member.email}` });
    await history.getByRole('cell', { name: /suspended/ }).first().waitFor();
    await screenshot(page, 'admin-users-history');

    await page.getByRole('button', { name: `Delete ${member.email}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${member.email}?` });
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete permanently' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Type the user's e-mail address to confirm").fill(other.email);
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Type the user's e-mail address to confirm").fill(member.email);
    await screenshot(page, 'admin-users-delete');
    await confirm.click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No user matches these filters.').waitFor();
    expect(await statusOf(member.id)).toBeUndefined();
    expect(await statusOf(other.id)).toBe('active');
    await page.context().close();
  });

  it("shows a super admin's suspension to the family admin without Reactivate or Delete; the super admin lifts it", async () => {
    const admin = await app.newUser({ role: 'admin' });
    const root = await app.newUser({ role: 'super_admin' });
    const member = await app.newUser({ role: 'member', familyId: admin.familyId });
    const rootPage = await app.newPage();
    await signInAs(rootPage, root.email, `/admin/users?q=${encodeURIComponent(member.email)}`);
    await rootPage.getByRole('button', { name: `Suspend ${member.email}` }).click();
    await rootPage.getByRole('row', { name: new RegExp(member.email) }).getByText('by a super admin').waitFor();
    expect(await statusOf(member.id)).toBe('suspended');

    const page = await app.newPage();
    await signInAs(page, admin.email, '/admin/users');
    const row = page.getByRole('row', { name: new RegExp(member.email) });
    await row.getByText('by a super admin').waitFor();
    expect(await row.getByRole('button', { name: `History of ${member.email}` }).count()).toBe(1);
    expect(await page.getByRole('button', { name: `Reactivate ${member.email}` }).count()).toBe(0);
    expect(await page.getByRole('button', { name: `Delete ${member.email}` }).count()).toBe(0);
    await screenshot(page, 'admin-users-suspended-by-super-admin');
    expect(await rootPage.getByRole('button', { name: `Delete ${member.email}` }).count()).toBe(1);

    await rootPage.getByRole('button', { name: `Reactivate ${member.email}` }).click();
    await rootPage.getByRole('button', { name: `Suspend ${member.email}` }).waitFor();
    expect(await statusOf(member.id)).toBe('active');
    await rootPage.context().close();
    await page.context().close();
  });

  it("syncs an SSO user's roles with the provider's current mapping and shows the outcome", async () => {
    const admin = await app.newUser({ role: 'admin' });
    const sso = await app.newUser({ role: 'member', familyId: admin.familyId });
    const local = await app.newUser({ role: 'member', familyId: admin.familyId });
    // An SSO identity as a sign-in leaves it: the groups the provider sent, stored on it.
    const providers = app.t.dataSource.getRepository(SsoProvider);
    const provider = await providers.save({ ...newProvider('openid_connect', 'corp'), roleMapping: { groupMappings: [{ group: 'finance', role: 'admin' }] } });
    await app.t.app.get(SsoRepository).createIdentity(
      { userId: sso.id, providerId: provider.id, uid: `sub-${sso.id}`, issuer: null, email: sso.email, groups: ['finance'] },
    );
    const roleOf = async (id: string) => (await app.t.dataSource.query(`SELECT role FROM users WHERE id = $1`, [id]))[0].role;

    const page = await app.newPage();
    await signInAs(page, admin.email, '/admin/users');
    const row = page.getByRole('row', { name: new RegExp(sso.email) });
    await row.waitFor();
    // Only users with an SSO identity have the action.
    expect(await page.getByRole('button', { name: `Sync roles of ${local.email}` }).count()).toBe(0);
    await page.getByRole('button', { name: `Sync roles of ${sso.email}` }).click();
    await page.getByRole('status').filter({ hasText: `Roles of ${sso.email} synced: member → admin` }).waitFor();
    expect(await page.getByRole('status').textContent()).toContain('group "finance" maps to admin');
    await row.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    expect(await roleOf(sso.id)).toBe('admin');
    await screenshot(page, 'admin-users-sync-roles');

    // The mapping removed: the next sync takes back the role it gave.
    await providers.update({ id: provider.id }, { roleMapping: {} });
    await page.getByRole('button', { name: `Sync roles of ${sso.email}` }).click();
    await page.getByRole('status').filter({ hasText: 'admin → member' }).waitFor();
    expect(await roleOf(sso.id)).toBe('member');

    // Nothing stored to apply: the reason, as an alert.
    await app.t.dataSource.query(`UPDATE sso_identities SET groups = NULL, groups_received_at = NULL WHERE user_id = $1`, [sso.id]);
    await page.getByRole('button', { name: `Sync roles of ${sso.email}` }).click();
    await page.getByRole('alert').filter({ hasText: 'No groups are stored for this user' }).waitFor();
    expect(await roleOf(sso.id)).toBe('member');
    await page.context().close();
  });

  it("lists a deleted SSO user's identity under Removed SSO identities for super admins, and Allow again lifts the block", async () => {
    const root = await app.newUser({ role: 'super_admin' });
    const ssoUser = await app.newUser({ role: 'member' });
    const provider = newProvider('openid_connect', `corp-${ssoUser.id.slice(0, 8)}`);
    provider.label = 'Corp SSO';
    const { id: providerId } = await app.t.dataSource.getRepository(SsoProvider).save(provider);
    await app.t.dataSource.query(`INSERT INTO sso_identities (user_id, provider_id, uid, email) VALUES ($1, $2, 'subject-1', $3)`, [ssoUser.id, providerId, ssoUser.email]);
    const blocks = async () => app.t.dataSource.query(`SELECT id FROM sso_identity_blocks WHERE provider_id = $1`, [providerId]);

    const page = await app.newPage();
    await signInAs(page, root.email, '/admin/users');
    const removed = page.getByRole('region', { name: 'Removed SSO identities' });
    await removed.getByText('No removed SSO identities.').waitFor();

    await page.getByRole('button', { name: `Delete ${ssoUser.email}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${ssoUser.email}?` });
    await dialog.getByLabel("Type the user's e-mail address to confirm").fill(ssoUser.email);
    await dialog.getByRole('button', { name: 'Delete permanently' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = removed.getByRole('row', { name: new RegExp(ssoUser.email) });
    await row.getByRole('cell', { name: 'Corp SSO', exact: true }).waitFor();
    expect(await blocks()).toHaveLength(1);
    await screenshot(page, 'admin-users-removed-identities');

    await row.getByRole('button', { name: `Allow ${ssoUser.email} (Corp SSO) again` }).click();
    await removed.getByText('No removed SSO identities.').waitFor();
    expect(await blocks()).toEqual([]);
    const audit = await app.t.dataSource.query(`SELECT details FROM audit_logs WHERE event = 'identity_unblocked' AND provider_id = $1`, [providerId]);
    expect(audit).toHaveLength(1);
    await page.context().close();
  });

  it('shows no removed SSO identities to a family admin', async () => {
    const admin = await app.newUser({ role: 'admin' });
    const page = await app.newPage();
    await signInAs(page, admin.email, '/admin/users');
    await page.getByText('1 user', { exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Removed SSO identities' }).count()).toBe(0);
    await page.context().close();
  });

  it('applies the sign-in method filter when the search is submitted with Enter', async () => {
    const admin = await app.newUser({ role: 'admin' });
    await app.newUser({ role: 'member', familyId: admin.familyId });
    const page = await app.newPage();
    await signInAs(page, admin.email, '/admin/users');
    await page.getByText('2 users').waitFor();
    await page.getByLabel('Sign-in method').fill('keycloak');
    await page.getByLabel('Sign-in method').press('Enter');
    await page.getByText('No user matches these filters.').waitFor();
    expect(page.url()).toContain('provider=keycloak');
    await page.context().close();
  });
});
