import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { Role } from '@hearth/contracts';
import { newProvider } from '../src/sso/provider-fields';
import { SsoIdentity, SsoProvider } from '../src/sso/sso.entities';
import { UsersService } from '../src/users/users.service';
import { newAccount, publishAndWait } from './support/imports';
import { as, Browser, signIn } from './support/sessions';
import { Household, startTestApp, TestApp } from './support/test-app';

interface Operation {
  security?: Record<string, string[]>[];
  'x-required-role'?: Role;
}
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Every operation of the committed document: the test covers what the API offers, not a list kept by hand. */
const document: { paths: Record<string, Record<string, Operation>> } = JSON.parse(readFileSync(join(__dirname, '../openapi.json'), 'utf8'));
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, path, method: method as Method, operation })),
);
const credentials = (op: Operation) => (op.security ?? []).map((scheme) => Object.keys(scheme)[0]);
/** Instance-wide operations (providers, identity blocks, the audit log) belong to no family. */
const familyOwned = operations.filter((op) => credentials(op.operation).length > 0 && op.operation['x-required-role'] !== 'super_admin');

/** The collection an operation's {id} belongs to, by its path. A new kind of resource must be added here. */
const COLLECTIONS: Array<[RegExp, keyof FamilyA['ids']]> = [
  [/^\/api\/v1\/settings\/api_keys\/\{id\}$/, 'apiKey'],
  [/^\/api\/v1\/settings\/sso_identities\/\{id\}$/, 'ssoIdentity'],
  [/^\/api\/v1\/admin\/users\/\{id\}/, 'member'],
  [/^\/api\/v1\/imports\/\{id\}/, 'import'],
  [/^\/api\/v1\/budgets\/\{id\}$/, 'budget'],
  [/^\/api\/v1\/budget_categories\/\{id\}$/, 'budgetCategory'],
  [/^\/api\/v1\/accounts\/\{id\}/, 'account'],
  [/^\/api\/v1\/transactions\/\{id\}/, 'transaction'],
  [/^\/api\/v1\/categories\/\{id\}$/, 'category'],
  [/^\/api\/v1\/tags\/\{id\}$/, 'tag'],
  [/^\/api\/v1\/merchants\/\{id\}$/, 'merchant'],
  [/^\/api\/v1\/family_exports\/\{id\}/, 'familyExport'],
];

/** A body the operation would accept for a resource of the caller's own family: so a refusal is about the family. */
const BODIES: Record<string, object> = {
  'PATCH /api/v1/admin/users/{id}': { role: 'member' },
  'DELETE /api/v1/admin/users/{id}': { confirmation_email: 'member@example.com' },
  'PATCH /api/v1/imports/{id}': { date_format: '%Y-%m-%d' },
  'PATCH /api/v1/budgets/{id}': { budgeted_spending: 100, expected_income: 100 },
  'PATCH /api/v1/budget_categories/{id}': { budgeted_spending: 10 },
  'PATCH /api/v1/transactions/{id}': { transaction: { notes: 'changed' } },
  'POST /api/v1/transactions/{id}/split': { parts: [{ amount: '1.00', name: 'One' }, { amount: '2.00', name: 'Two' }] },
  'PATCH /api/v1/categories/{id}': { name: 'Renamed', icon: 'tag' },
  'PATCH /api/v1/tags/{id}': { name: 'Renamed' },
  'PATCH /api/v1/merchants/{id}': { name: 'Renamed' },
  'PATCH /api/v1/accounts/{id}': { name: 'Renamed', closed: true },
  'POST /api/v1/accounts/{id}/valuations': { date: '2026-10-05', balance: '1.00' },
};

interface FamilyA {
  household: Household;
  browser: Browser;
  ids: Record<'apiKey' | 'ssoIdentity' | 'member' | 'import' | 'budget' | 'budgetCategory' | 'account' | 'transaction' | 'category' | 'tag' | 'merchant' | 'familyExport', string>;
}

/**
 * Two families on one instance: every operation that takes an id is called by family B's admin with family A's
 * ids, and every list B can read is searched for anything of A's. Generated from openapi.json, so an operation added
 * later is covered (or fails here until its collection is named above).
 */
describe('family isolation: nothing of one family can be read or changed by another', () => {
  let t: TestApp;
  let a: FamilyA;
  let b: { household: Household; browser: Browser };

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ADMIN_PER_MINUTE: '100000', RATE_LIMIT_ADMIN_READS_PER_MINUTE: '100000', RATE_LIMIT_LOGIN_PER_MINUTE: '100000' });
    const household = await t.newHousehold({ role: 'admin' });
    const browser = await signIn(t.server, household.email);
    const member = await t.app.get(UsersService).create({ email: `member-${randomUUID()}@example.com`, password: 'correct horse battery', role: 'member', familyId: household.familyId });
    const provider = await t.dataSource.getRepository(SsoProvider).save(newProvider('openid_connect', `isolation-${randomUUID().slice(0, 8)}`));
    const identity = await t.dataSource.getRepository(SsoIdentity).save({ userId: household.userId, providerId: provider.id, uid: randomUUID(), issuer: null, email: household.email });

    const published = await publishAndWait(t, household, {
      raw_file_content: 'Date,Amount,Description,Category,Tags\n2026-10-02,-12.50,Bakery,Food,Treats\n2026-10-03,2000.00,Salary,Income,\n',
      date_col_label: 'Date',
      amount_col_label: 'Amount',
      name_col_label: 'Description',
      category_col_label: 'Category',
      tags_col_label: 'Tags',
      account_id: await newAccount(t, household, 'A checking'),
    });
    expect(published.status).toBe('complete');
    const api = (path: string) => as(t.server, browser, 'get', `/api/v1${path}`).expect(200);
    const budget = await as(t.server, browser, 'post', '/api/v1/budgets').send({ start_date: '2026-10-01' }).expect(201);
    const budgetId: string = budget.body.id ?? budget.body.data.id;
    const familyExport = await as(t.server, browser, 'post', '/api/v1/family_exports').expect(201);
    a = {
      household,
      browser,
      ids: {
        apiKey: (await api('/settings/api_keys')).body.api_keys[0].id,
        ssoIdentity: identity.id,
        member: member.user.id,
        import: published.id,
        budget: budgetId,
        budgetCategory: (await api(`/budget_categories?budget_id=${budgetId}`)).body.budget_categories[0].id,
        account: (await api('/accounts')).body.accounts[0].id,
        transaction: (await api('/transactions')).body.transactions[0].id,
        category: (await api('/categories')).body.categories[0].id,
        tag: (await api('/tags')).body.tags[0].id,
        merchant: (await t.dataSource.query(`INSERT INTO merchants (family_id, name) VALUES ($1, 'A corner shop') RETURNING id`, [household.familyId]))[0].id,
        familyExport: familyExport.body.data.id,
      },
    };
    const other = await t.newHousehold({ role: 'admin' });
    b = { household: other, browser: await signIn(t.server, other.email) };
  }, 120_000);
  afterAll(() => t?.close());

  /** What family A sees of its own data, read with A's session (reads by A's key would change its last use). */
  async function viewOfA(): Promise<unknown[]> {
    const paths = ['/imports', '/accounts', '/transactions', '/budgets', `/budget_categories?budget_id=${a.ids.budget}`, '/categories/tree', '/tags', '/merchants', '/family_exports', '/settings/api_keys', '/settings/sso_identities', '/admin/users', '/family_settings'];
    const views = [];
    for (const path of paths) views.push((await as(t.server, a.browser, 'get', `/api/v1${path}`).expect(200)).body);
    return views;
  }

  function call(op: (typeof operations)[number], path: string) {
    const schemes = credentials(op.operation);
    const req = schemes.includes('ApiKey') ? request(t.server)[op.method](path).set('X-Api-Key', b.household.apiKey) : as(t.server, b.browser, op.method, path);
    return BODIES[op.name] ? req.send(BODIES[op.name]) : req;
  }

  it('every family-owned operation with an id names a collection above', () => {
    const unnamed = familyOwned.filter((op) => op.path.includes('{') && !COLLECTIONS.some(([pattern]) => pattern.test(op.path)));
    expect(unnamed.map((op) => op.name)).toEqual([]);
  });

  it("answers 404 to every operation on another family's id, and changes nothing", async () => {
    const before = await viewOfA();
    const answers: string[] = [];
    const expected: string[] = [];
    for (const op of familyOwned.filter((o) => o.path.includes('{'))) {
      const [, collection] = COLLECTIONS.find(([pattern]) => pattern.test(op.path))!;
      const res = await call(op, op.path.replace('{id}', a.ids[collection]));
      answers.push(`${op.name} -> ${res.status} ${res.body?.error ?? ''}`.trim());
      expect(JSON.stringify(res.body ?? {})).not.toContain(a.household.email);
      expected.push(`${op.name} -> 404 record_not_found`);
    }
    expect(answers).toEqual(expected);
    expect(await viewOfA()).toEqual(before);
    await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', a.household.apiKey).expect(200);
  });

  it("lists nothing of another family's in any list a family can read", async () => {
    const secrets = [a.household.familyId, a.household.userId, a.household.email, a.household.apiKeyPrefix, ...Object.values(a.ids)];
    const leaks: string[] = [];
    const lists = familyOwned.filter((op) => op.method === 'get' && !op.path.includes('{'));
    expect(lists.length).toBeGreaterThanOrEqual(8);
    for (const op of lists) {
      const res = await call(op, op.path);
      expect({ op: op.name, status: res.status }).toEqual({ op: op.name, status: 200 });
      const body = JSON.stringify(res.body);
      leaks.push(...secrets.filter((secret) => body.includes(secret)).map((secret) => `${op.name} shows ${secret}`));
    }
    expect(leaks).toEqual([]);
  });
});
