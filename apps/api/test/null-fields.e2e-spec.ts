import { readFileSync } from 'node:fs';
import request from 'supertest';
import type { OpenApiDocument, Schema } from './support/openapi-schema';
import { as, signIn, type Browser } from './support/sessions';
import { startTestApp, TestApp, type Household } from './support/test-app';

// `null` for a field is the bad input class-validator lets through most easily: @IsOptional() passes it on, and code
// that reads the field as absent-or-string then fails (setup's currency answered 500). For every JSON request body
// in the API description, each of its properties is sent as null, the rest valid: the answer is a 4xx naming the
// field or a success, never a 500. A new endpoint with a body fails here until it has a valid body below.

type Operation = { security?: Array<Record<string, unknown>>; requestBody?: { content: Record<string, { schema: Schema }> } };

describe('null for every field of every request body', () => {
  let t: TestApp;
  let doc: OpenApiDocument & { paths: Record<string, Record<string, Operation>> };
  let admin: Household;
  let browser: Browser;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ADMIN_PER_MINUTE: '100000', RATE_LIMIT_LOGIN_PER_MINUTE: '100000' });
    doc = JSON.parse(readFileSync(`${__dirname}/../openapi.json`, 'utf8')); // kept current by npm run openapi (checked in CI)
    admin = await t.newHousehold({ role: 'super_admin' });
    browser = await signIn(t.server, admin.email);
    const member = await t.newHousehold({ role: 'member' });
    ids.user = member.userId;
    [{ id: ids.category }] = await t.dataSource.query(`INSERT INTO categories (family_id, name) VALUES ($1, 'Groceries') RETURNING id`, [admin.familyId]);
    [{ id: ids.tag }] = await t.dataSource.query(`INSERT INTO tags (family_id, name) VALUES ($1, 'Holiday') RETURNING id`, [admin.familyId]);
    [{ id: ids.merchant }] = await t.dataSource.query(`INSERT INTO merchants (family_id, name) VALUES ($1, 'Corner shop') RETURNING id`, [admin.familyId]);
    const key = (r: request.Test) => r.set('X-Api-Key', admin.apiKey);
    ids.budget = (await key(request(t.server).post('/api/v1/budgets')).send({ start_date: '2025-01-01' }).expect(201)).body.id;
    ids.budgetCategory = (await key(request(t.server).get(`/api/v1/budget_categories?budget_id=${ids.budget}`)).expect(200)).body.budget_categories[0].id;
    ids.import = (await key(request(t.server).post('/api/v1/imports')).send({ raw_file_content: 'date,amount,name\n2025-01-02,1.00,Shop\n' }).expect(201)).body.data.id;
    [{ id: ids.account }, { id: ids.otherAccount }] = await t.dataSource.query(
      `INSERT INTO accounts (family_id, name, accountable_type, classification, currency)
       VALUES ($1, 'Checking', 'Depository', 'asset', 'USD'), ($1, 'Savings', 'Depository', 'asset', 'USD') RETURNING id`,
      [admin.familyId],
    );
    ids.transaction = (await key(request(t.server).post('/api/v1/transactions')).send({ transaction: { account_id: ids.account, date: '2025-01-03', amount: '1.00', name: 'Nulls' } }).expect(201)).body.id;
    ids.provider = (await as(t.server, browser, 'post', '/api/v1/admin/sso_providers').send({ ...PROVIDER, name: `nulls-${Math.random().toString(36).slice(2, 10)}` }).expect(201)).body.id;
  }, 120_000);
  afterAll(() => t?.close());

  const PROVIDER = { strategy: 'oauth2', client_id: 'x', client_secret: 'y', authorization_url: 'https://idp.example/auth', token_url: 'https://idp.example/token', userinfo_url: 'https://idp.example/me' };
  /** A valid body of each operation ("METHOD path" as in the API description). */
  const VALID: Record<string, () => Record<string, unknown>> = {
    'POST /sessions': () => ({ email: admin.email, password: 'correct horse battery' }),
    'PUT /api/v1/me/password': () => ({ current_password: 'correct horse battery', new_password: 'correct horse battery' }),
    'POST /api/v1/auth/setup': () => ({ email: 'setup@example.com', password: 'a long passphrase', family_name: 'Setup', currency: 'EUR' }),
    'POST /api/v1/auth/password_reset': () => ({ email: admin.email }),
    'POST /api/v1/auth/password_reset/complete': () => ({ token: 'not-a-token', password: 'a long passphrase' }),
    'POST /api/v1/settings/api_keys': () => ({ name: `nulls ${Math.random()}`, scope: 'read', expires_at: '2999-01-01T00:00:00Z' }),
    'PATCH /api/v1/admin/users/{id}': () => ({ role: 'member' }),
    'DELETE /api/v1/admin/users/{id}': () => ({ confirmation_email: 'someone-else@example.com' }),
    'PATCH /api/v1/family_settings': () => ({ name: 'Nulls', currency: 'USD', locale: 'en', date_format: '%Y-%m-%d', timezone: 'UTC', month_start_day: 1 }),
    'POST /api/v1/imports': () => ({ raw_file_content: 'date,amount,name\n2025-01-02,1.00,Shop\n', type: 'TransactionImport', date_col_label: 'date', amount_col_label: 'amount', name_col_label: 'name' }),
    'PATCH /api/v1/imports/{id}': () => ({ date_col_label: 'date', amount_col_label: 'amount', name_col_label: 'name' }),
    'POST /auth/link': () => ({ password: 'correct horse battery' }),
    'POST /api/v1/admin/sso_providers': () => ({ ...PROVIDER, name: `nulls-${Math.random().toString(36).slice(2, 10)}` }),
    'PATCH /api/v1/admin/sso_providers/{id}': () => ({ label: 'Nulls' }),
    'POST /api/v1/budgets': () => ({ start_date: '2025-02-01' }),
    'PATCH /api/v1/budgets/{id}': () => ({ budgeted_spending: '10.00', expected_income: '20.00' }),
    'PATCH /api/v1/budget_categories/{id}': () => ({ budgeted_spending: '5.00' }),
    'POST /api/v1/transactions': () => ({ transaction: { account_id: ids.account, date: '2025-01-03', amount: '1.00', name: 'Nulls' } }),
    'PATCH /api/v1/transactions/{id}': () => ({ transaction: { notes: 'nulls' } }),
    'PATCH /api/v1/transactions/bulk': () => ({ ids: [ids.transaction], excluded: false }),
    'POST /api/v1/transactions/{id}/split': () => ({ parts: [{ amount: '0.50', name: 'One' }, { amount: '0.50', name: 'Two' }] }),
    'POST /api/v1/categories': () => ({ name: `Nulls ${Math.random().toString(36).slice(2, 10)}`, color: '#4da568', icon: 'tag', classification: 'expense' }),
    'PATCH /api/v1/categories/{id}': () => ({ name: 'Groceries', icon: 'tag' }),
    'PATCH /api/v1/tags/{id}': () => ({ name: 'Holiday' }),
    'PATCH /api/v1/merchants/{id}': () => ({ name: 'Corner shop' }),
    'POST /api/v1/accounts': () => ({ name: `Nulls ${Math.random().toString(36).slice(2, 10)}`, account_type: 'depository', balance: '1.00', balance_date: '2025-01-01' }),
    'PATCH /api/v1/accounts/{id}': () => ({ name: 'Checking', subtype: 'checking' }),
    'POST /api/v1/accounts/{id}/valuations': () => ({ date: '2025-01-04', balance: '2.00' }),
    'POST /api/v1/transfers': () => ({ from_account_id: ids.account, to_account_id: ids.otherAccount, amount: '1.00', date: '2025-01-03' }),
  };
  const pathIds: Record<string, () => string> = {
    '/api/v1/admin/users/{id}': () => ids.user,
    '/api/v1/imports/{id}': () => ids.import,
    '/api/v1/admin/sso_providers/{id}': () => ids.provider,
    '/api/v1/budgets/{id}': () => ids.budget,
    '/api/v1/budget_categories/{id}': () => ids.budgetCategory,
    '/api/v1/transactions/{id}': () => ids.transaction,
    '/api/v1/transactions/{id}/split': () => ids.transaction,
    '/api/v1/categories/{id}': () => ids.category,
    '/api/v1/tags/{id}': () => ids.tag,
    '/api/v1/merchants/{id}': () => ids.merchant,
    '/api/v1/accounts/{id}': () => ids.account,
    '/api/v1/accounts/{id}/valuations': () => ids.account,
  };

  /** Every operation with a JSON body, and the properties of that body. */
  function jsonBodies(): Array<{ name: string; method: string; path: string; apiKey: boolean; properties: string[] }> {
    return Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) => {
        const schema = operation.requestBody?.content['application/json']?.schema;
        if (!schema) return [];
        const resolved = schema.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
        const apiKey = (operation.security ?? []).some((s) => 'ApiKey' in s);
        return [{ name: `${method.toUpperCase()} ${path}`, method, path, apiKey, properties: Object.keys(resolved.properties ?? {}) }];
      }),
    );
  }

  it('has a valid body for every operation that takes one', () => {
    expect(jsonBodies().map((b) => b.name).sort()).toEqual(Object.keys(VALID).sort());
  });

  it('answers null in any field with a 4xx naming it, or takes it as absent; never a 500', async () => {
    const answers: string[] = [];
    for (const body of jsonBodies()) {
      const path = body.path.replace('{id}', pathIds[body.path]?.() ?? '00000000-0000-4000-8000-000000000000');
      for (const property of body.properties) {
        const method = body.method as 'post' | 'put' | 'patch' | 'delete';
        const sent = { ...VALID[body.name](), [property]: null };
        const req = body.apiKey ? request(t.server)[method](path).set('X-Api-Key', admin.apiKey) : as(t.server, browser, method, path);
        const res = await req.send(sent);
        const named = res.status !== 422 || res.body.error !== 'validation_failed' || (res.body.errors ?? []).some((e: string) => e.includes(property));
        if (res.status >= 500 || !named) answers.push(`${body.name} ${property}: null -> ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(answers).toEqual([]);
  }, 300_000);
});
