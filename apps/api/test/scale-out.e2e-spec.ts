import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, request as httpRequest, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import request from 'supertest';
import { startTestApp, Household, TestApp } from './support/test-app';
import { cookiesOf, PASSWORD } from './support/sessions';
import { AUDIT_QUEUE } from '../src/audit/audit-retention.queue';
import { queueConnection } from '../src/jobs/queue-connection';
import { buildApi, freePort, Proc, scratchDatabase, started, startProcess, stop, until } from './support/service-processes';

/**
 * Scale-out mode from the BUILT service (dist/api, as `npm run start:api` / `start:worker` run it): two API processes
 * (HEARTH_ROLE=api) and two workers (HEARTH_ROLE=worker) on a fresh PostgreSQL database and one Redis, with a
 * round-robin HTTP proxy in front. Needs DATABASE_URL and REDIS_URL (CI sets both); without them only the refusal of
 * split roles on the embedded database runs.
 */
const scaleOutUrls = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

/**
 * A round-robin HTTP proxy as a load balancer would be: each request to the next upstream, the client's address
 * appended to X-Forwarded-For, and (for the test) the upstream's index in X-Upstream.
 */
function roundRobinProxy(ports: number[]): Promise<{ url: string; server: Server }> {
  let next = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const index = next++ % ports.length;
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = httpRequest(
      { host: '127.0.0.1', port: ports[index], method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': forwarded } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-upstream': String(index) });
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

beforeAll(() => buildApi(), 120_000);

describe('scale-out: split roles refuse the single-node embedded database', () => {
  it.each(['api', 'worker'])('HEARTH_ROLE=%s without DATABASE_URL exits with a message naming the cause', async (role) => {
    const proc = startProcess(role, { ...process.env, HEARTH_ROLE: role, DATABASE_URL: '', REDIS_URL: '', NODE_ENV: 'test', DATA_DIR: 'memory://' });
    expect(await proc.exited).toBe(2);
    expect(proc.output()).toContain(`Configuration error: HEARTH_ROLE=${role} needs DATABASE_URL`);
  });
});

if (!scaleOutUrls) {
  console.log('scale-out.e2e-spec: the multi-process tests are skipped because DATABASE_URL and REDIS_URL are not both set (CI sets them)');
}

(scaleOutUrls ? describe : describe.skip)('scale-out: two API processes and two workers behind a round-robin proxy', () => {
  const run = randomUUID().slice(0, 8);
  let database: { url: string; drop: () => Promise<void> } | undefined;
  const procs: Proc[] = [];
  let apis: string[] = [];
  let proxy: { url: string; server: Server };
  let t: TestApp;

  beforeAll(async () => {
    database = await scratchDatabase(process.env.DATABASE_URL!, `hearth_scale_${run}`);
    const databaseUrl = database.url;
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL,
      QUEUE_PREFIX: `scale-${run}`,
      HOST: '127.0.0.1',
      TRUST_PROXY: 'loopback',
      RATE_LIMIT_ADMIN_PER_MINUTE: '6',
      RATE_LIMIT_ADMIN_READS_PER_MINUTE: '6',
      RATE_LIMIT_LOGIN_PER_MINUTE: '1000',
    };
    const ports = [await freePort(), await freePort()];
    // All four start at once on an empty database: they take turns migrating it.
    const api = ports.map((port, i) => startProcess(`api ${i}`, { ...env, HEARTH_ROLE: 'api', PORT: String(port), LOG_LEVEL: 'warn' }));
    const workers = [0, 1].map((i) => startProcess(`worker ${i}`, { ...env, HEARTH_ROLE: 'worker', LOG_LEVEL: 'info' }));
    procs.push(...api, ...workers);
    apis = ports.map((port) => `http://127.0.0.1:${port}`);
    await Promise.all([...api.map((proc, i) => started(proc, apis[i])), ...workers.map((proc) => started(proc))]);
    proxy = await roundRobinProxy(ports);
    // In-process only to create users and keys and to count rows: an api role registers no workers here either.
    t = await startTestApp({ DATABASE_URL: databaseUrl, HEARTH_ROLE: 'api', QUEUE_PREFIX: `scale-${run}` });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(procs.map(stop));
    await new Promise((resolve) => proxy?.server.close(resolve));
    await t?.close();
    await database?.drop();
    // This run's queues and rate-limit counters, from the shared Redis.
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      const keys = [];
      for await (const batch of redis.scanStream({ match: `scale-${run}:*`, count: 500 })) keys.push(...(batch as string[]));
      if (keys.length) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  }, 60_000);

  it('starts API processes without workers and workers without an HTTP listener', async () => {
    for (const proc of procs.filter((p) => p.name.startsWith('worker'))) {
      expect(proc.output()).toContain('"role":"worker"');
      expect(proc.output()).not.toContain('Hearth listening');
    }
    const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM migrations`);
    expect(count).toBeGreaterThan(0);
    // BullMQ lists the connected workers of a queue: one per worker process, none from the API processes.
    const connection = queueConnection({ backend: 'redis', url: process.env.REDIS_URL! }) as never;
    for (const name of ['imports', 'family-exports', 'health', AUDIT_QUEUE]) {
      const queue = new Queue(name, { connection, prefix: `scale-${run}` });
      try {
        expect([name, await queue.getWorkersCount()]).toEqual([name, 2]);
      } finally {
        await queue.close();
      }
    }
  });

  it('publishes 20 CSV imports sent concurrently through the proxy, each exactly once and complete', async () => {
    const h = await t.newHousehold();
    const [{ id: accountId }] = await t.dataSource.query(
      `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, 'Checking', 'Depository', 'asset', 'USD') RETURNING id`,
      [h.familyId],
    );
    // Every row unique (name), so no row is ever matched as a re-import of another file's row.
    const files = Array.from({ length: 20 }, (_, f) => {
      const rows = 25 + f * 3;
      const lines = ['Date,Amount,Description'];
      for (let r = 0; r < rows; r++) lines.push(`2024-03-${String(1 + (r % 28)).padStart(2, '0')},-${f + 1}.${String(r % 100).padStart(2, '0')},Payee ${f}-${r}`);
      return { rows, csv: lines.join('\n') };
    });
    const upstreams = new Set<string>();
    const created = await Promise.all(
      files.map(async ({ csv }) => {
        const res = await request(proxy.url)
          .post('/api/v1/imports')
          .set('X-Api-Key', h.apiKey)
          .send({ raw_file_content: csv, account_id: accountId, date_format: '%Y-%m-%d', publish: true });
        expect(res.status).toBe(201);
        upstreams.add(String(res.headers['x-upstream']));
        return res.body.data.id as string;
      }),
    );
    expect(upstreams).toEqual(new Set(['0', '1']));
    expect(new Set(created).size).toBe(20);

    const finished = await until(
      'every import to finish',
      async () => {
        const details = await Promise.all(
          created.map(async (id) => (await request(proxy.url).get(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).expect(200)).body.data),
        );
        return details.every((d) => !['pending', 'importing'].includes(d.status)) && details;
      },
      60_000,
    );
    expect(finished.map((d: { status: string }) => d.status)).toEqual(Array(20).fill('complete'));

    const perImport = await t.dataSource.query(
      `SELECT import_id, count(*)::int AS entries, count(DISTINCT name)::int AS names FROM entries WHERE family_id = $1 GROUP BY import_id`,
      [h.familyId],
    );
    const byImport = new Map<string, { entries: number; names: number }>(perImport.map((r: { import_id: string; entries: number; names: number }) => [r.import_id, r]));
    created.forEach((id, f) => expect([id, byImport.get(id)]).toEqual([id, { import_id: id, entries: files[f].rows, names: files[f].rows }]));
    const [{ total, transactions }] = await t.dataSource.query(
      `SELECT count(*)::int AS total, count(tr.entry_id)::int AS transactions FROM entries e LEFT JOIN transactions tr ON tr.entry_id = e.id WHERE e.family_id = $1`,
      [h.familyId],
    );
    const expected = files.reduce((sum, f) => sum + f.rows, 0);
    expect({ total, transactions }).toEqual({ total: expected, transactions: expected });
  });

  it('serves budget figures computed in each API process only while a worker has written nothing new', async () => {
    const h = await t.newHousehold();
    const [{ id: accountId }] = await t.dataSource.query(
      `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, 'Checking', 'Depository', 'asset', 'USD') RETURNING id`,
      [h.familyId],
    );
    const publish = async (csv: string) => {
      const res = await request(apis[0]).post('/api/v1/imports').set('X-Api-Key', h.apiKey).send({ raw_file_content: csv, account_id: accountId, date_format: '%Y-%m-%d', publish: true });
      expect(res.status).toBe(201);
      await until('the import to complete', async () => (await request(apis[0]).get(`/api/v1/imports/${res.body.data.id}`).set('X-Api-Key', h.apiKey)).body.data.status === 'complete', 30_000);
    };
    await publish('Date,Amount,Description\n2025-03-02,-10.00,Bakery');
    const budget = (await request(apis[0]).post('/api/v1/budgets').set('X-Api-Key', h.apiKey).send({ start_date: '2025-03-01' }).expect(201)).body;
    const spentAt = async (base: string) => (await request(base).get(`/api/v1/budgets/${budget.id}`).set('X-Api-Key', h.apiKey).expect(200)).body.actual_spending_cents;
    expect([await spentAt(apis[0]), await spentAt(apis[1]), await spentAt(apis[1])]).toEqual([1000, 1000, 1000]);
    await publish('Date,Amount,Description\n2025-03-03,-25.00,Grocer');
    expect([await spentAt(apis[1]), await spentAt(apis[0])]).toEqual([3500, 3500]);
  });

  async function signInAt(base: string, h: Household) {
    const res = await request(base).post('/sessions').send({ email: h.email, password: PASSWORD });
    expect(res.status).toBe(201);
    return { cookie: cookiesOf(res.headers['set-cookie'] as unknown as string[]), csrf: res.body.user.csrf_token as string };
  }

  it('honours a session opened through one API process in the other, and its sign-out everywhere', async () => {
    const h = await t.newHousehold({ role: 'member' });
    const browser = await signInAt(apis[0], h);
    const me = await request(apis[1]).get('/api/v1/me').set('Cookie', browser.cookie).expect(200);
    expect(me.body.email).toBe(h.email);
    await request(apis[1]).delete('/sessions').set('Cookie', browser.cookie).set('X-CSRF-Token', browser.csrf).expect((res) => expect(res.status).toBeLessThan(300));
    await request(apis[0]).get('/api/v1/me').set('Cookie', browser.cookie).expect(401);
  });

  it('refuses a provider disabled through one API process on the next request through the other', async () => {
    const h = await t.newHousehold({ role: 'super_admin' });
    const admin = await signInAt(apis[0], h);
    const name = `scale-${run}`;
    const created = await request(apis[0])
      .post('/api/v1/admin/sso_providers')
      .set('Cookie', admin.cookie)
      .set('X-CSRF-Token', admin.csrf)
      .set('X-Forwarded-For', '198.51.100.20')
      .send({
        name,
        strategy: 'oauth2',
        authorization_url: 'https://idp.example.test/authorize',
        token_url: 'https://idp.example.test/token',
        userinfo_url: 'https://idp.example.test/userinfo',
        client_id: 'hearth',
        client_secret: 'scale-out-test-secret',
        enabled: true,
      });
    expect(created.status).toBe(201);
    const started = await request(apis[1]).get(`/auth/${name}`).expect(302);
    expect(started.headers.location).toMatch(/^https:\/\/idp\.example\.test\/authorize\?/);

    await request(apis[0])
      .post(`/api/v1/admin/sso_providers/${created.body.id}/disable`)
      .set('Cookie', admin.cookie)
      .set('X-CSRF-Token', admin.csrf)
      .set('X-Forwarded-For', '198.51.100.20')
      .expect((res) => expect(res.status).toBeLessThan(300));
    const refused = await request(apis[1]).get(`/auth/${name}`).expect(302);
    expect(refused.headers.location).toBe('/login?error=sso_provider_unavailable');
  });

  it('counts the admin rate limit across both API processes', async () => {
    const h = await t.newHousehold({ role: 'admin' });
    const admin = await signInAt(apis[0], h);
    // One client address (X-Forwarded-For, believed from the loopback proxy) alternating between the processes.
    const answers: { status: number; upstream: string }[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await request(proxy.url).get('/api/v1/admin/users').set('Cookie', admin.cookie).set('X-Forwarded-For', '203.0.113.77');
      answers.push({ status: res.status, upstream: String(res.headers['x-upstream']) });
    }
    expect(new Set(answers.map((a) => a.upstream))).toEqual(new Set(['0', '1']));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });
});
