import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { SsoMappedRoleBackfill1795560000001 } from '../src/database/migrations/1795560000001-SsoMappedRoleBackfill';
import { UsersService } from '../src/users/users.service';
import { as, Browser, signIn } from './support/sessions';
import type { OidcIdp } from './support/oidc-idp';
import { callbackUrl, countRows, identityOf, oidcProviderFields, roleChanges, roleOf, ssoLogin, SsoSuite, startSsoSuite, userByEmail } from './support/sso';
import type { TestApp } from './support/test-app';

const run = randomUUID().slice(0, 8);
const NAME = `sync-${run}`;
const SECRET = `secret-${randomUUID()}`;
const mail = (name: string) => `${name}-${run}@corp.example`;

/** Roles follow the provider's current mapping at every login and when an administrator syncs a user. */
describe('role synchronisation through a real oidc-provider', () => {
  let t: TestApp;
  let idp: OidcIdp;
  let admin: Browser;
  let adminId: string;
  let providerId: string;
  let suite: SsoSuite;

  beforeAll(async () => {
    suite = await startSsoSuite({
      clients: [{ client_id: 'hearth', client_secret: SECRET, redirect_uris: [callbackUrl(NAME)] }],
      providers: (idp) => [oidcProviderFields(idp, NAME, SECRET, { scopes: 'openid email profile groups', default_role: 'member', enabled: true })],
    });
    ({ t, idp, admin, adminId } = suite);
    providerId = suite.providers[0].id;
  });
  afterAll(() => suite?.close());

  const setMapping = (roleMapping: Record<string, unknown>) =>
    as(t.server, admin, 'patch', `/api/v1/admin/sso_providers/${providerId}`).send({ role_mapping: roleMapping }).expect(200);

  /** An SSO user made by a first sign-in in `groups`; `withPeer` adds a member to their family (no family-creator floor). */
  async function ssoUser(name: string, groups: string[], withPeer = true) {
    idp.accounts[name] = { email: mail(name), email_verified: true, groups };
    expect((await ssoLogin(t.server, idp, NAME, name)).location).toBe('/');
    const user = await userByEmail(t, mail(name));
    if (withPeer) await t.app.get(UsersService).create({ email: mail(`${name}-peer`), role: 'member', familyId: user.family_id });
    return user as { id: string; family_id: string; role: string };
  }
  const syncRoles = (browser: Browser, userId: string) => as(t.server, browser, 'post', `/api/v1/admin/users/${userId}/sync_roles`);

  describe('at login', () => {
    it('stores the groups the provider sent, with when, at the first sign-in and at every later one', async () => {
      const before = new Date(Date.now() - 1000);
      const ann = await ssoUser('ann', ['staff', 'readers']);
      const first = await identityOf(t, ann.id);
      expect(first.groups).toEqual(['staff', 'readers']);
      expect(new Date(first.groups_received_at).getTime()).toBeGreaterThanOrEqual(before.getTime());
      idp.accounts.ann.groups = ['staff'];
      await ssoLogin(t.server, idp, NAME, 'ann');
      const second = await identityOf(t, ann.id);
      expect(second.groups).toEqual(['staff']);
      expect(new Date(second.groups_received_at).getTime()).toBeGreaterThanOrEqual(new Date(first.groups_received_at).getTime());
      delete idp.accounts.ann.groups;
      await ssoLogin(t.server, idp, NAME, 'ann');
      expect((await identityOf(t, ann.id)).groups).toEqual([]);
    });

    it('takes back a role granted by a group once the mapping is emptied: the next login gives the default role', async () => {
      await setMapping({ groupMappings: [{ group: 'root', role: 'super_admin' }] });
      const carol = await ssoUser('carol', ['root']);
      expect(carol.role).toBe('super_admin');
      // Alone in the family the JIT creator stays its admin when the mapped role goes.
      const dan = await ssoUser('dan', ['root'], false);
      expect(dan.role).toBe('super_admin');

      await setMapping({});
      await ssoLogin(t.server, idp, NAME, 'carol');
      await ssoLogin(t.server, idp, NAME, 'dan');
      expect(await roleOf(t, carol.id)).toBe('member');
      expect(await roleOf(t, dan.id)).toBe('admin');
      expect(await roleChanges(t, carol.id)).toEqual([expect.objectContaining({ from: 'super_admin', to: 'member', source: 'sso_role_mapping' })]);
      expect((await roleChanges(t, carol.id))[0].rule).toMatch(/no longer/);

      // Taken back once: from now on the role is the administrators' to set, and later logins leave it alone.
      await as(t.server, admin, 'patch', `/api/v1/admin/users/${carol.id}`).send({ role: 'admin' }).expect(200);
      await ssoLogin(t.server, idp, NAME, 'carol');
      expect(await roleOf(t, carol.id)).toBe('admin');
    });

    it('keeps a role an administrator gave after the mapping did, when the mapping is then removed', async () => {
      await setMapping({ groupMappings: [{ group: 'root', role: 'super_admin' }] });
      const erin = await ssoUser('erin', ['root']);
      expect(erin.role).toBe('super_admin');
      await as(t.server, admin, 'patch', `/api/v1/admin/users/${erin.id}`).send({ role: 'admin' }).expect(200);
      await setMapping({});
      await ssoLogin(t.server, idp, NAME, 'erin');
      expect(await roleOf(t, erin.id)).toBe('admin');
    });

    it('after the upgrade, takes back roles a mapping gave before groups were stored (backfilled mapped role)', async () => {
      await setMapping({ groupMappings: [{ group: 'root', role: 'super_admin' }] });
      const jay = await ssoUser('jay', ['root']);
      const kim = await ssoUser('kim', ['root']);
      await as(t.server, admin, 'patch', `/api/v1/admin/users/${kim.id}`).send({ role: 'admin' }).expect(200);
      // As an instance upgraded with these users: no mapped role recorded yet.
      await t.dataSource.query(`UPDATE sso_identities SET mapped_role = NULL WHERE user_id IN ($1, $2)`, [jay.id, kim.id]);
      const runner = t.dataSource.createQueryRunner();
      try {
        await new SsoMappedRoleBackfill1795560000001().up(runner);
      } finally {
        await runner.release();
      }
      expect((await identityOf(t, jay.id)).mapped_role).toBe('super_admin');
      // An administrator changed kim's role after the last login: that role is not the mapping's.
      expect((await identityOf(t, kim.id)).mapped_role).toBeNull();

      await setMapping({});
      await ssoLogin(t.server, idp, NAME, 'jay');
      await ssoLogin(t.server, idp, NAME, 'kim');
      expect(await roleOf(t, jay.id)).toBe('member');
      expect(await roleOf(t, kim.id)).toBe('admin');
    });

    it('leaves the role of a user the mapping never decided alone', async () => {
      await setMapping({});
      const local = await t.newHousehold({ role: 'admin' });
      idp.accounts.local = { email: local.email, email_verified: true, groups: ['root'] };
      // Linking needs the local password; the mapping is empty so the local admin stays admin.
      const attempt = await ssoLogin(t.server, idp, NAME, 'local');
      expect(attempt.location).toBe('/sso/link');
      await request(t.server).post('/auth/link').set('Cookie', attempt.cookie).send({ password: 'correct horse battery' }).expect(201);
      await ssoLogin(t.server, idp, NAME, 'local');
      expect(await roleOf(t, local.userId)).toBe('admin');
      expect(await roleChanges(t, local.userId)).toEqual([]);
    });
  });

  describe('POST /api/v1/admin/users/{id}/sync_roles', () => {
    it("applies the provider's current mapping to the stored groups without a login, answers before/after, audited", async () => {
      await setMapping({ groupMappings: [{ group: 'finance', role: 'member' }] });
      const frank = await ssoUser('frank', ['finance']);
      // Created as the admin of a new family; with a peer there, the next login maps him to member.
      await ssoLogin(t.server, idp, NAME, 'frank');
      expect(await roleOf(t, frank.id)).toBe('member');
      const sessions = await countRows(t, 'sessions');

      await setMapping({ groupMappings: [{ group: 'finance', role: 'admin' }] });
      const res = await syncRoles(admin, frank.id).expect(200);
      expect(res.body).toMatchObject({ role_before: 'member', role_after: 'admin', provider: NAME, groups: ['finance'], user: { id: frank.id, role: 'admin' } });
      expect(res.body.rule).toContain('"finance" maps to admin');
      expect(await roleOf(t, frank.id)).toBe('admin');
      expect(await countRows(t, 'sessions')).toBe(sessions);
      expect((await roleChanges(t, frank.id)).at(-1)).toMatchObject({ from: 'member', to: 'admin', source: 'admin_role_sync', actor_user_id: adminId });

      // Same answer twice: nothing changes, the sync is still audited.
      const again = await syncRoles(admin, frank.id).expect(200);
      expect(again.body).toMatchObject({ role_before: 'admin', role_after: 'admin' });
      expect((await roleChanges(t, frank.id)).at(-1)).toMatchObject({ from: 'admin', to: 'admin', source: 'admin_role_sync' });

      // The mapping emptied: the sync takes back what it gave, as the next login would.
      await setMapping({});
      expect((await syncRoles(admin, frank.id).expect(200)).body).toMatchObject({ role_before: 'admin', role_after: 'member' });
      expect(await roleOf(t, frank.id)).toBe('member');
    });

    it('answers 422 naming why when there is nothing to apply', async () => {
      const local = await t.newHousehold({ role: 'member' });
      const none = await syncRoles(admin, local.userId).expect(422);
      expect(none.body).toMatchObject({ error: 'no_sso_identity' });
      expect(none.body.message).toMatch(/no SSO identity/i);

      const gus = await ssoUser('gus', ['finance']);
      // An identity whose last sign-in predates stored groups.
      await t.dataSource.query(`UPDATE sso_identities SET groups = NULL, groups_received_at = NULL WHERE user_id = $1`, [gus.id]);
      const unknown = await syncRoles(admin, gus.id).expect(422);
      expect(unknown.body).toMatchObject({ error: 'no_stored_groups' });
      expect(unknown.body.message).toMatch(/groups/);
      expect(await roleChanges(t, gus.id)).toEqual([]);

      // Attribute conditions need the claims of a sign-in, which are not stored.
      idp.accounts.gus.groups = ['finance'];
      await ssoLogin(t.server, idp, NAME, 'gus');
      await setMapping({ conditions: [{ attribute: 'department', value: 'it', role: 'admin' }] });
      expect((await syncRoles(admin, gus.id).expect(422)).body).toMatchObject({ error: 'sign_in_needed' });
      await setMapping({});
    });

    it('follows the rules of changing a role: own family only, never oneself, never above the actor', async () => {
      await setMapping({ groupMappings: [{ group: 'finance', role: 'admin' }, { group: 'root', role: 'super_admin' }] });
      const hal = await ssoUser('hal', ['finance']);
      const familyAdmin = await t.app.get(UsersService).create({ email: mail('fa'), password: 'correct horse battery', role: 'admin', familyId: hal.family_id });
      const asFamilyAdmin = await signIn(t.server, mail('fa'));
      const outsider = await ssoUser('ida', ['finance']);
      expect((await syncRoles(asFamilyAdmin, hal.id).expect(200)).body).toMatchObject({ role_after: 'admin' });
      // Another family's user is out of reach: 404 as if absent, nothing changes.
      await syncRoles(asFamilyAdmin, outsider.id).expect(404);
      await syncRoles(asFamilyAdmin, familyAdmin.user.id).expect(403);
      // A sync that would grant super_admin needs a super admin, as granting it by hand does.
      await t.dataSource.query(`UPDATE sso_identities SET groups = '["root"]' WHERE user_id = $1`, [hal.id]);
      expect((await syncRoles(asFamilyAdmin, hal.id).expect(403)).body.message).toContain('super_admin');
      expect(await roleOf(t, hal.id)).toBe('admin');
      await t.app.get(UsersService).create({ email: mail('mem'), password: 'correct horse battery', role: 'member', familyId: hal.family_id });
      await syncRoles(await signIn(t.server, mail('mem')), hal.id).expect(403);
      expect((await syncRoles(admin, hal.id).expect(200)).body).toMatchObject({ role_before: 'admin', role_after: 'super_admin' });
      await setMapping({});
    });
  });
});
