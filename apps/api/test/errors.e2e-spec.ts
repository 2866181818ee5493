import request from 'supertest';
import { startTestApp, TestApp } from './support/test-app';
import { as, signIn } from './support/sessions';

describe('error format', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ MAX_JSON_BODY_BYTES: '2048', RATE_LIMIT_ADMIN_PER_MINUTE: '100000' });
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

  it('answers a deeply nested JSON body with a 400 before validation walks it (reliability.md D43)', async () => {
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
        'currency must be an ISO 4217 code such as USD',
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

  it('echoes a request id, keeping a sane one from the caller', async () => {
    const own = await request(t.server).get('/api/v1/health').set('X-Request-Id', 'abc-123').expect(200);
    expect(own.headers['x-request-id']).toBe('abc-123');
    const generated = await request(t.server).get('/api/v1/health').set('X-Request-Id', '<script>').expect(200);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
