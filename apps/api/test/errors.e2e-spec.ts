import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createImport } from './support/imports';
import { startTestApp, TestApp } from './support/test-app';
import { as, signIn } from './support/sessions';

describe('error format', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ MAX_JSON_BODY_BYTES: '2048', RATE_LIMIT_ADMIN_PER_MINUTE: '100000', RATE_LIMIT_ADMIN_READS_PER_MINUTE: '100000' });
  });
  afterAll(() => t.close());

  it('answers an unknown route with a JSON 404', async () => {
    const res = await request(t.server).get('/api/v1/no-such-thing').expect(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: 'not_found', message: 'No such endpoint' });
  });

  it('answers malformed JSON with a 400 that names the problem, not the parser', async () => {
    const { apiKey } = await t.newHousehold();
    const res = await request(t.server)
      .patch('/api/v1/family_settings')
      .set('X-Api-Key', apiKey)
      .set('Content-Type', 'application/json')
      .send('{"name": ')
      .expect(400);
    expect(res.body).toEqual({ error: 'invalid_json', message: 'The request body is not valid JSON' });
  });

  it('answers a deeply nested JSON body with a 400 before validation walks it (hostile-input case D43)', async () => {
    const { apiKey } = await t.newHousehold();
    const res = await request(t.server)
      .patch('/api/v1/family_settings')
      .set('X-Api-Key', apiKey)
      .set('Content-Type', 'application/json')
      .send(`{"name":"x","deep":${'['.repeat(900)}${']'.repeat(900)}}`)
      .expect(400);
    expect(res.body).toEqual({ error: 'invalid_json', message: 'The request body nests objects or arrays deeper than 64 levels' });
  });

  it('answers an oversized body with a JSON 413', async () => {
    const { apiKey } = await t.newHousehold();
    const res = await request(t.server)
      .patch('/api/v1/family_settings')
      .set('X-Api-Key', apiKey)
      .send({ name: 'x'.repeat(5000) })
      .expect(413);
    expect(res.body).toEqual({ error: 'payload_too_large', message: 'The request body is too large' });
  });

  it('answers invalid fields with 422 validation_failed listing every problem, and changes nothing', async () => {
    const { apiKey } = await t.newHousehold();
    const res = await request(t.server)
      .patch('/api/v1/family_settings')
      .set('X-Api-Key', apiKey)
      .send({ month_start_day: 31, timezone: 'Mars/Olympus', currency: 'dollars' })
      .expect(422);
    expect(res.body.error).toBe('validation_failed');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        'month_start_day must not be greater than 28',
        'timezone must be an IANA time zone such as Europe/Berlin',
        'currency must be an ISO 4217 currency code such as USD or EUR ("dollars" is not one)',
      ]),
    );
    const after = await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', apiKey).expect(200);
    expect(after.body).toMatchObject({ month_start_day: 1, timezone: null, currency: 'USD' });
  });

  it('refuses null for settings that cannot be cleared with 422 naming the field, and changes nothing', async () => {
    const { apiKey } = await t.newHousehold();
    const before = (await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', apiKey).expect(200)).body;
    for (const field of ['name', 'currency', 'locale', 'date_format', 'timezone', 'month_start_day']) {
      const res = await request(t.server).patch('/api/v1/family_settings').set('X-Api-Key', apiKey).send({ [field]: null });
      expect({ field, status: res.status, error: res.body.error, named: res.body.errors?.some((e: string) => e.startsWith(field)) }).toEqual({ field, status: 422, error: 'validation_failed', named: true });
    }
    expect((await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', apiKey).expect(200)).body).toEqual(before);

    const admin = await signIn(t.server, (await t.newHousehold({ role: 'super_admin' })).email);
    const provider = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers')
      .send({ name: `nulls-${Date.now()}`, strategy: 'oauth2', client_id: 'x', client_secret: 'y', authorization_url: 'https://idp.example/auth', token_url: 'https://idp.example/token', userinfo_url: 'https://idp.example/me' })
      .expect(201);
    for (const field of ['name', 'enabled', 'scopes', 'token_auth_method', 'sign_requests', 'default_role', 'group_attribute', 'role_mapping']) {
      const res = await as(t.server, admin, 'patch', `/api/v1/admin/sso_providers/${provider.body.id}`).send({ [field]: null });
      expect({ field, status: res.status, error: res.body.error, named: res.body.errors?.some((e: string) => e.startsWith(field)) }).toEqual({ field, status: 422, error: 'validation_failed', named: true });
    }
    // A field that may be empty is cleared by null.
    const cleared = await as(t.server, admin, 'patch', `/api/v1/admin/sso_providers/${provider.body.id}`).send({ issuer: null }).expect(200);
    expect(cleared.body).toMatchObject({ name: provider.body.name, scopes: provider.body.scopes, issuer: null });
  });

  it('refuses a query parameter a list does not take, naming it and the ones the list takes, rather than answering unfiltered', async () => {
    const root = await t.newHousehold({ role: 'super_admin' });
    const browser = await signIn(t.server, root.email);
    const imported = (await createImport(t.server, root.apiKey, { raw_file_content: 'date,amount,name\n2024-01-01,1,Coffee' }).expect(201)).body.data.id;
    const id = randomUUID();
    // [list, a parameter it takes, a parameter it does not take (a misspelt one, Sure's name), the ones it takes]
    const lists: Array<[string, string, string, string]> = [
      ['/api/v1/imports', 'status=complete', 'statuss=complete', 'status, type, page, per_page'],
      [`/api/v1/imports/${imported}/rows`, 'errors=only', 'errors_only=true', 'errors, page, per_page'],
      [
        '/api/v1/transactions',
        `account_ids[]=${id}`,
        `account_ids=${id}`,
        'page, per_page, account_id, account_ids[], category_id, category_ids[], merchant_id, merchant_ids[], tag_ids[], import_id, start_date, end_date, min_amount, max_amount, type, search, cursor, locale',
      ],
      ['/api/v1/accounts', 'include_disabled=true', 'include_archived=true', 'page, per_page, locale, include_disabled'],
      ['/api/v1/budgets', 'start_date=2025-01-01', 'month=2025-01', 'page, per_page, start_date, end_date, locale'],
      ['/api/v1/budget_categories', `budget_id=${id}`, `budget=${id}`, 'budget_id, category_id, locale, page, per_page, start_date, end_date'],
      ['/api/v1/admin/audit_logs', 'event=login_failed', 'event_type=login_failed', 'event, from, to, user_id, provider, page, per_page'],
      ['/api/v1/admin/users', 'role=admin', 'roles=admin', 'q, role, status, provider, page, per_page'],
      [`/api/v1/admin/users/${root.userId}/auth_history`, '', 'event=login', 'none'],
      ['/api/v1/admin/sso_identity_blocks', '', 'provider=corp', 'none'],
      ['/api/v1/admin/sso_providers', '', 'enabled=true', 'none'],
      ['/api/v1/settings/api_keys', '', 'scope=read', 'none'],
      ['/api/v1/settings/sso_identities', '', 'provider=corp', 'none'],
      ['/api/v1/family_exports', '', 'status=completed', 'none'],
    ];
    for (const [list, taken, foreign, takes] of lists) {
      const refused = await as(t.server, browser, 'get', `${list}?${[taken, foreign].filter(Boolean).join('&')}`);
      const error = `unknown query parameter ${foreign.split('=')[0]}; this list takes ${takes}`;
      expect({ list, status: refused.status, body: refused.body }).toEqual({ list, status: 422, body: { error: 'validation_failed', message: error, errors: [error] } });
      const answered = await as(t.server, browser, 'get', `${list}?${taken}`);
      expect({ list, status: answered.status }).toEqual({ list, status: 200 });
    }
  });

  it('echoes a request id, keeping a sane one from the caller', async () => {
    const own = await request(t.server).get('/api/v1/health').set('X-Request-Id', 'abc-123').expect(200);
    expect(own.headers['x-request-id']).toBe('abc-123');
    const generated = await request(t.server).get('/api/v1/health').set('X-Request-Id', '<script>').expect(200);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
