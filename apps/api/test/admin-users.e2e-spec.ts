/** @jest-environment ./apps/api/test/support/time-zone-environment.ts */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { AuditLog } from '../src/audit/audit-log.entity';
import { UserSuspendedByRoleBackfill1795571000001 } from '../src/database/migrations/1795571000001-UserSuspendedByRoleBackfill';
import { LogMailer, MAILER } from '../src/auth/mailer';
import { User } from '../src/users/user.entity';
import { AdminUsersService } from '../src/users/admin-users.service';
import { startFreshTestApp } from './support/fresh-database';
import { as, Browser, signIn } from './support/sessions';
import { Household, startTestApp, TestApp } from './support/test-app';
import { withTimeZone } from './support/time-zone';
import { until } from './support/until';

describe('user management API (/api/v1/admin/users)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ADMIN_PER_MINUTE: '100000', RATE_LIMIT_ADMIN_READS_PER_MINUTE: '100000', RATE_LIMIT_LOGIN_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  /** A signed-in user of the given role, optionally joining an existing family. */
  async function member(role: 'member' | 'admin' | 'super_admin', familyOf?: Household): Promise<Household & { browser: Browser }> {
    const h = await t.newHousehold({ role });
    if (familyOf) await t.dataSource.getRepository(User).update({ id: h.userId }, { familyId: familyOf.familyId });
    return { ...h, familyId: familyOf?.familyId ?? h.familyId, browser: await signIn(t.server, h.email) };
  }
  const audits = (userId: string, event: string) =>
    t.dataSource.query(`SELECT * FROM audit_logs WHERE user_id = $1 AND event = $2`, [userId, event]);
  const user = (id: string) => t.dataSource.getRepository(User).findOneBy({ id });

  it('refuses anonymous callers (401), members (403) and API keys', async () => {
    const m = await member('member');
    expect((await request(t.server).get('/api/v1/admin/users').expect(401)).body.error).toBe('unauthorized');
    expect((await as(t.server, m.browser, 'get', '/api/v1/admin/users').expect(403)).body).toEqual({
      error: 'forbidden',
      message: "This action requires the 'admin' role",
    });
    await request(t.server).get('/api/v1/admin/users').set('X-Api-Key', m.apiKey).expect(401);
  });

  it('shows a family admin only their family, a super admin everyone, with roles, methods and last login', async () => {
    const admin = await member('admin');
    const sibling = await member('member', admin);
    const stranger = await member('member');
    const root = await member('super_admin');

    const mine = await as(t.server, admin.browser, 'get', '/api/v1/admin/users').expect(200);
    expect(mine.body.users.map((u: { id: string }) => u.id).sort()).toEqual([admin.userId, sibling.userId].sort());
    const row = mine.body.users.find((u: { id: string }) => u.id === sibling.userId);
    expect(row).toMatchObject({ email: sibling.email, role: 'member', status: 'active', auth_methods: ['password'], family_id: admin.familyId });
    expect(row.last_login_at).not.toBeNull();
    await as(t.server, admin.browser, 'get', `/api/v1/admin/users/${stranger.userId}`).expect(404);

    const all = await as(t.server, root.browser, 'get', `/api/v1/admin/users?q=${encodeURIComponent(stranger.email.toUpperCase())}`).expect(200);
    expect(all.body).toMatchObject({ total: 1, page: 1, per_page: 25 });
    expect(all.body.users[0].id).toBe(stranger.userId);
    await as(t.server, root.browser, 'get', `/api/v1/admin/users/${stranger.userId}`).expect(200);
  });

  it('filters by role, status and provider, and validates the filters', async () => {
    const admin = await member('admin');
    const suspended = await member('member', admin);
    const ssoOnly = await member('member', admin);
    await t.dataSource.getRepository(User).update({ id: suspended.userId }, { status: 'suspended' });
    await t.dataSource.getRepository(User).update({ id: ssoOnly.userId }, { passwordHash: null });
    const ids = async (query: string) =>
      (await as(t.server, admin.browser, 'get', `/api/v1/admin/users?${query}`).expect(200)).body.users.map((u: { id: string }) => u.id).sort();
    expect(await ids('role=admin')).toEqual([admin.userId]);
    expect(await ids('status=suspended')).toEqual([suspended.userId]);
    expect(await ids('provider=local')).toEqual([admin.userId, suspended.userId].sort());
    expect(await ids('provider=keycloak')).toEqual([]);
    expect(await ids('per_page=1&page=2')).toHaveLength(1);
    const bad = await as(t.server, admin.browser, 'get', '/api/v1/admin/users?role=owner&per_page=1000').expect(422);
    expect(bad.body.error).toBe('validation_failed');
  });

  it("suspends: the user's session, API key and reset link are refused at once; reactivation restores the key only", async () => {
    const admin = await member('admin');
    const target = await member('member', admin);
    await request(t.server).post('/api/v1/auth/password_reset').send({ email: target.email }).expect(202);
    const resetLink = [...(t.app.get(MAILER) as LogMailer).outbox].reverse().find((m) => m.to === target.email)!.text;
    const token = /token=([A-Za-z0-9_-]+)/.exec(resetLink)![1];
    await request(t.server).get('/api/v1/me').set('Cookie', target.browser.cookie).expect(200);
    await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', target.apiKey).expect(200);

    const res = await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${target.userId}/suspend`).expect(200);
    expect(res.body.status).toBe('suspended');
    await request(t.server).get('/api/v1/me').set('Cookie', target.browser.cookie).expect(401);
    const key = await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', target.apiKey).expect(401);
    expect(key.body.message).toBe('Account has been deactivated');
    expect(await t.dataSource.query(`SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL`, [target.userId])).toEqual([]);
    const [audit] = await audits(target.userId, 'user_suspended');
    expect(audit.details).toEqual({ actor_user_id: admin.userId });

    await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${target.userId}/reactivate`).expect(200);
    await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', target.apiKey).expect(200);
    await request(t.server).get('/api/v1/me').set('Cookie', target.browser.cookie).expect(401); // sessions stay ended
    // So does the reset link mailed before the suspension.
    const reset = await request(t.server).post('/api/v1/auth/password_reset/complete').send({ token, password: 'a takeover passphrase' }).expect(422);
    expect(reset.body.error).toBe('invalid_token');
    expect(await audits(target.userId, 'user_reactivated')).toHaveLength(1);
  });

  it("keeps a super admin's suspension until a super admin lifts it: a family admin is refused (403) and the list says why", async () => {
    const admin = await member('admin');
    const target = await member('member', admin);
    const root = await member('super_admin');
    const suspended = await as(t.server, root.browser, 'post', `/api/v1/admin/users/${target.userId}/suspend`).expect(200);
    expect(suspended.body).toMatchObject({ status: 'suspended', suspended_by_role: 'super_admin' });
    const listed = await as(t.server, admin.browser, 'get', '/api/v1/admin/users?status=suspended').expect(200);
    expect(listed.body.users).toEqual([expect.objectContaining({ id: target.userId, suspended_by_role: 'super_admin' })]);

    const refused = await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${target.userId}/reactivate`).expect(403);
    expect(refused.body).toEqual({ error: 'suspended_by_super_admin', message: 'A super admin suspended this user; only a super admin can reactivate them.' });
    expect(await user(target.userId)).toMatchObject({ status: 'suspended', suspendedByRole: 'super_admin' });
    expect(await audits(target.userId, 'user_reactivated')).toEqual([]);
    // Nor can the family admin carry it further by removing the user.
    const kept = await as(t.server, admin.browser, 'delete', `/api/v1/admin/users/${target.userId}`).send({ confirmation_email: target.email }).expect(403);
    expect(kept.body).toEqual({ error: 'suspended_by_super_admin', message: 'A super admin suspended this user; only a super admin can remove them.' });
    expect(await user(target.userId)).toMatchObject({ status: 'suspended', suspendedByRole: 'super_admin' });
    expect(await audits(target.userId, 'user_removed')).toEqual([]);
    // Suspending again changes nothing: the suspension stays the super admin's.
    expect((await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${target.userId}/suspend`).expect(200)).body.suspended_by_role).toBe('super_admin');

    const lifted = await as(t.server, root.browser, 'post', `/api/v1/admin/users/${target.userId}/reactivate`).expect(200);
    expect(lifted.body).toMatchObject({ status: 'active', suspended_by_role: null });
    // Reactivated, the user is the family admin's to suspend and reactivate again.
    expect((await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${target.userId}/suspend`).expect(200)).body.suspended_by_role).toBe('admin');
    expect((await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${target.userId}/reactivate`).expect(200)).body.status).toBe('active');
  });

  it('lets a family admin suspend users of their rank or below, never a super admin', async () => {
    const admin = await member('admin');
    const peer = await member('admin', admin);
    const superInFamily = await member('super_admin', admin);
    const refused = await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${superInFamily.userId}/suspend`).expect(403);
    expect(refused.body).toEqual({ error: 'forbidden', message: 'Only a super_admin can manage this user' });
    expect(await user(superInFamily.userId)).toMatchObject({ status: 'active', suspendedByRole: null });
    expect(await audits(superInFamily.userId, 'user_suspended')).toEqual([]);
    await request(t.server).get('/api/v1/me').set('Cookie', superInFamily.browser.cookie).expect(200);

    expect((await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${peer.userId}/suspend`).expect(200)).body).toMatchObject({
      status: 'suspended',
      suspended_by_role: 'admin',
    });
  });

  it("after the upgrade, records who suspended a user from the audit log (the suspender's role now), else leaves it open", async () => {
    const root = await member('super_admin');
    const admin = await member('admin');
    const [bySuper, byAdmin, unknown] = [await member('member', admin), await member('member', admin), await member('member', admin)];
    await as(t.server, root.browser, 'post', `/api/v1/admin/users/${bySuper.userId}/suspend`).expect(200);
    await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${byAdmin.userId}/suspend`).expect(200);
    await t.dataSource.getRepository(User).update({ id: unknown.userId }, { status: 'suspended' });
    // As an instance upgraded with these suspensions: no suspender's role recorded yet.
    await t.dataSource.query(`UPDATE users SET suspended_by_role = NULL WHERE id IN ($1, $2)`, [bySuper.userId, byAdmin.userId]);
    const runner = t.dataSource.createQueryRunner();
    try {
      await new UserSuspendedByRoleBackfill1795571000001().up(runner);
    } finally {
      await runner.release();
    }
    const suspendedBy = async (id: string) => (await user(id))!.suspendedByRole;
    expect([await suspendedBy(bySuper.userId), await suspendedBy(byAdmin.userId), await suspendedBy(unknown.userId)]).toEqual(['super_admin', 'admin', null]);
    await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${bySuper.userId}/reactivate`).expect(403);
    await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${unknown.userId}/reactivate`).expect(200);
  });

  it('changes roles: only the role field, never above the actor, never a super admin by a family admin', async () => {
    const admin = await member('admin');
    const target = await member('member', admin);
    const superInFamily = await member('super_admin', admin);
    const res = await as(t.server, admin.browser, 'patch', `/api/v1/admin/users/${target.userId}`)
      .send({ role: 'admin', email: 'hijack@example.com', family_id: '00000000-0000-0000-0000-000000000000', password_hash: 'x' })
      .expect(200);
    expect(res.body).toMatchObject({ role: 'admin', email: target.email, family_id: admin.familyId });
    expect((await user(target.userId))!.passwordHash).toMatch(/^\$argon2id\$/);
    const [audit] = await audits(target.userId, 'role_changed');
    expect(audit.details).toEqual({ actor_user_id: admin.userId, from: 'member', to: 'admin' });

    const grant = await as(t.server, admin.browser, 'patch', `/api/v1/admin/users/${target.userId}`).send({ role: 'super_admin' }).expect(403);
    expect(grant.body.error).toBe('forbidden');
    await as(t.server, admin.browser, 'patch', `/api/v1/admin/users/${superInFamily.userId}`).send({ role: 'member' }).expect(403);
    await as(t.server, admin.browser, 'post', `/api/v1/admin/users/${superInFamily.userId}/suspend`).expect(403);
    expect((await user(superInFamily.userId))!.role).toBe('super_admin');
    const self = await as(t.server, admin.browser, 'patch', `/api/v1/admin/users/${admin.userId}`).send({ role: 'member' }).expect(403);
    expect(self.body.error).toBe('own_account');
    const invalid = await as(t.server, admin.browser, 'patch', `/api/v1/admin/users/${target.userId}`).send({ role: 'owner' }).expect(422);
    expect(invalid.body.error).toBe('validation_failed');
  });

  it('removes a user only when the request repeats their e-mail, audited with ids only', async () => {
    const admin = await member('admin');
    const target = await member('member', admin);
    const wrong = await as(t.server, admin.browser, 'delete', `/api/v1/admin/users/${target.userId}`).send({ confirmation_email: 'someone@example.com' }).expect(422);
    expect(wrong.body).toEqual({ error: 'confirmation_mismatch', message: 'The email address did not match. The user was not removed.' });
    await as(t.server, admin.browser, 'delete', `/api/v1/admin/users/${target.userId}`).send({}).expect(422);
    expect(await user(target.userId)).not.toBeNull();

    await as(t.server, admin.browser, 'delete', `/api/v1/admin/users/${target.userId}`).send({ confirmation_email: ` ${target.email.toUpperCase()} ` }).expect(204);
    expect(await user(target.userId)).toBeNull();
    expect(await t.dataSource.query(`SELECT id FROM api_keys WHERE prefix = $1`, [target.apiKeyPrefix])).toEqual([]);
    await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', target.apiKey).expect(401);
    await request(t.server).get('/api/v1/me').set('Cookie', target.browser.cookie).expect(401);
    const [audit] = await audits(target.userId, 'user_removed');
    expect(audit.details).toEqual({ actor_user_id: admin.userId, target_user_id: target.userId, blocked_identities: 0 });
    expect(JSON.stringify(audit)).not.toContain(target.email);
    await as(t.server, admin.browser, 'delete', `/api/v1/admin/users/${admin.userId}`).send({ confirmation_email: admin.email }).expect(403);
  });

  it('shows the authentication history newest first', async () => {
    const admin = await member('admin');
    const target = await member('member', admin);
    await request(t.server).post('/sessions').send({ email: target.email, password: 'wrong password' }).expect(401);
    const res = await as(t.server, admin.browser, 'get', `/api/v1/admin/users/${target.userId}/auth_history`).expect(200);
    expect(res.body.events.map((e: { event: string }) => e.event)).toEqual(['login_failed', 'login']);
    expect(res.body.events[1]).toMatchObject({ provider: 'local', details: { method: 'password' } });
    expect(JSON.stringify(res.body)).not.toContain('wrong password');
    const stranger = await member('member');
    await as(t.server, admin.browser, 'get', `/api/v1/admin/users/${stranger.userId}/auth_history`).expect(404);
  });

  it('acts with the role the actor holds under the lock: one demoted or suspended after the request was authenticated is refused', async () => {
    const root = await member('super_admin');
    const target = await member('member');
    const service = t.app.get(AdminUsersService);
    // The principal the guard loaded just before another super admin demoted, then suspended, `root`.
    const actor = { userId: root.userId, familyId: root.familyId, role: 'super_admin' as const, email: root.email, sessionId: 'x', token: 'x' };
    const origin = { ip: null, userAgent: null };
    await t.dataSource.getRepository(User).update({ id: root.userId }, { role: 'member' });
    await expect(service.changeRole(actor, target.userId, 'super_admin', origin)).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    await t.dataSource.getRepository(User).update({ id: root.userId }, { role: 'super_admin', status: 'suspended' });
    await expect(service.suspend(actor, target.userId, origin)).rejects.toMatchObject({ status: 401 });
    await expect(service.remove(actor, target.userId, target.email, origin)).rejects.toMatchObject({ status: 401 });
    expect(await user(target.userId)).toMatchObject({ role: 'member', status: 'active' });
    expect(await audits(target.userId, 'role_changed')).toEqual([]);
  });

  it('refuses an audit log time bound that is not an ISO 8601 date, rather than reading it as another day', async () => {
    const root = await member('super_admin');
    for (const bound of ['from=1', 'from=2024-02-30', 'to=0', 'to=March%207']) {
      const res = await as(t.server, root.browser, 'get', `/api/v1/admin/audit_logs?${bound}`).expect(422);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.message).toMatch(/^(from|to) must be an ISO 8601 date-time$/);
    }
    await as(t.server, root.browser, 'get', '/api/v1/admin/audit_logs').expect(200);
    const day = await as(t.server, root.browser, 'get', '/api/v1/admin/audit_logs?from=2024-02-29&to=2999-01-01T00:00:00.000Z').expect(200);
    expect(day.body.total).toBeGreaterThan(0);
  });

  it('reads a from/to bound without a UTC offset as UTC, whatever the server time zone', async () => {
    const root = await member('super_admin');
    const userId = randomUUID();
    await t.dataSource.getRepository(AuditLog).insert({ event: 'login', userId, createdAt: new Date('2024-03-01T10:30:00Z') });
    const total = async (bounds: string) =>
      (await as(t.server, root.browser, 'get', `/api/v1/admin/audit_logs?user_id=${userId}&${bounds}`).expect(200)).body.total as number;
    // New York is 5 hours behind UTC in March: a bound read in local time would move by 5 hours
    await withTimeZone('America/New_York', async () => {
      expect(new Date(2024, 2, 1, 10).toISOString()).toBe('2024-03-01T15:00:00.000Z'); // the zone did change
      expect(await total('from=2024-03-01T10:00:00')).toBe(1);
      expect(await total('from=2024-03-01T11:00:00')).toBe(0);
      expect(await total('to=2024-03-01T10:30')).toBe(0);
      expect(await total('to=2024-03-01T10:31')).toBe(1);
      expect(await total('from=2024-03-01&to=2024-03-02')).toBe(1);
      expect(await total('from=2024-03-01T11:00:00%2B01:00')).toBe(1);
    });
  });

  it("lists each audit event with its user's e-mail, null once the user is removed", async () => {
    const root = await member('super_admin');
    const target = await member('member');
    await as(t.server, root.browser, 'delete', `/api/v1/admin/users/${target.userId}`).send({ confirmation_email: target.email }).expect(204);
    type Row = { event: string; user_id: string | null; user_email: string | null };
    const own = await as(t.server, root.browser, 'get', `/api/v1/admin/audit_logs?user_id=${root.userId}`).expect(200);
    expect(own.body.audit_logs.length).toBeGreaterThan(0);
    expect(own.body.audit_logs.map((row: Row) => row.user_email)).toEqual(own.body.audit_logs.map(() => root.email));
    const removed = await as(t.server, root.browser, 'get', `/api/v1/admin/audit_logs?user_id=${target.userId}`).expect(200);
    expect(removed.body.audit_logs.map((row: Row) => row.event)).toContain('user_removed');
    expect(removed.body.total).toBe(removed.body.audit_logs.length);
    expect(removed.body.audit_logs.map((row: Row) => [row.user_id, row.user_email])).toEqual(removed.body.audit_logs.map(() => [target.userId, null]));
  });

  it('refuses a page past a million or not in decimal digits on the user list and the audit log, naming page', async () => {
    const root = await member('super_admin');
    for (const path of ['/api/v1/admin/users', '/api/v1/admin/audit_logs']) {
      for (const page of ['1e300', '400000000000000000', '0x10']) {
        const res = await as(t.server, root.browser, 'get', `${path}?page=${page}`).expect(422);
        expect(res.body).toMatchObject({ error: 'validation_failed', message: 'page must be an integer from 1 to 1000000' });
      }
      expect((await as(t.server, root.browser, 'get', `${path}?per_page=0x10`).expect(422)).body.error).toBe('validation_failed');
      expect((await as(t.server, root.browser, 'get', `${path}?page=1000000&per_page=100`).expect(200)).body.page).toBe(1_000_000);
    }
  });
});

describe('the last active super admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startFreshTestApp({ RATE_LIMIT_ADMIN_PER_MINUTE: '100000', RATE_LIMIT_ADMIN_READS_PER_MINUTE: '100000', RATE_LIMIT_LOGIN_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  it('survives two super admins demoting each other at the same moment', async () => {
    const a = await t.newHousehold({ role: 'super_admin' });
    const b = await t.newHousehold({ role: 'super_admin' });
    const [browserA, browserB] = [await signIn(t.server, a.email), await signIn(t.server, b.email)];
    const results = await Promise.all([
      as(t.server, browserA, 'patch', `/api/v1/admin/users/${b.userId}`).send({ role: 'member' }),
      as(t.server, browserB, 'patch', `/api/v1/admin/users/${a.userId}`).send({ role: 'member' }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const supers = await t.dataSource.query(`SELECT id FROM users WHERE role = 'super_admin' AND status = 'active'`);
    expect(supers).toHaveLength(1);
  });

  it('refuses to demote, suspend or remove the last active super admin, even for a session opened before', async () => {
    // `stale` is a super admin whose session was authenticated just before being suspended elsewhere.
    const last = (await t.dataSource.query(`SELECT id, email FROM users WHERE role = 'super_admin' AND status = 'active'`))[0];
    const stale = await t.newHousehold({ role: 'super_admin' });
    await t.dataSource.getRepository(User).update({ id: stale.userId }, { status: 'suspended' });
    const service = t.app.get(AdminUsersService);
    const actor = { userId: stale.userId, familyId: stale.familyId, role: 'super_admin' as const, email: stale.email, sessionId: 'x', token: 'x', idle: false };
    const origin = { ip: null, userAgent: null };
    for (const attempt of [
      () => service.changeRole(actor, last.id, 'admin', origin),
      () => service.suspend(actor, last.id, origin),
      () => service.remove(actor, last.id, last.email, origin),
    ]) {
      // Re-read under the lock, the suspended actor is refused before the last super admin could be touched.
      await expect(attempt()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    }
    expect(await t.dataSource.query(`SELECT role, status FROM users WHERE id = $1`, [last.id])).toEqual([{ role: 'super_admin', status: 'active' }]);
  });

  (process.env.DATABASE_URL ? it : it.skip)("survives a demotion by an admin and one by a sign-in's role sync at the same moment", async () => {
    await t.dataSource.query(`UPDATE users SET status = 'suspended' WHERE role = 'super_admin'`);
    const a = await t.newHousehold({ role: 'super_admin' });
    const b = await t.newHousehold({ role: 'super_admin' });
    const browserA = await signIn(t.server, a.email);
    // What an SSO sign-in's role sync does when a's groups no longer map to super_admin: lock the super admins, find
    // another one, demote a. It commits only once b's demotion by a is waiting.
    const sync = t.dataSource.createQueryRunner();
    await sync.connect();
    let demotion: Promise<request.Response> | undefined;
    try {
      await sync.startTransaction();
      await sync.query(`SELECT id FROM users WHERE role = 'super_admin' AND status = 'active' FOR UPDATE`);
      await sync.query(`UPDATE users SET role = 'member' WHERE id = $1`, [a.userId]);
      const [{ pid }] = await sync.query(`SELECT pg_backend_pid() AS pid`);
      demotion = as(t.server, browserA, 'patch', `/api/v1/admin/users/${b.userId}`).send({ role: 'member' }).then((r) => r);
      await until('the demotion waiting on the sign-in', async () =>
        Number((await t.dataSource.query(`SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [pid]))[0].count),
      );
      await sync.commitTransaction();
    } finally {
      await sync.release();
    }
    expect([403, 409]).toContain((await demotion).status);
    expect(await t.dataSource.query(`SELECT id FROM users WHERE role = 'super_admin' AND status = 'active'`)).toEqual([{ id: b.userId }]);
  });

  it('demotes a suspended super admin while the actor is the only active one: the active ones stay as they are', async () => {
    await t.dataSource.query(`UPDATE users SET status = 'suspended' WHERE role = 'super_admin'`);
    const root = await t.newHousehold({ role: 'super_admin' });
    const dormant = await t.newHousehold({ role: 'super_admin' });
    await t.dataSource.getRepository(User).update({ id: dormant.userId }, { status: 'suspended' });
    const res = await as(t.server, await signIn(t.server, root.email), 'patch', `/api/v1/admin/users/${dormant.userId}`).send({ role: 'admin' }).expect(200);
    expect(res.body).toMatchObject({ role: 'admin', status: 'suspended' });
    const [audit] = await t.dataSource.query(`SELECT details FROM audit_logs WHERE user_id = $1 AND event = 'role_changed'`, [dormant.userId]);
    expect(audit.details).toEqual({ actor_user_id: root.userId, from: 'super_admin', to: 'admin' });
  });
});
