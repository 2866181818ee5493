// The harness context: private PostgreSQL + Redis, the Hearth processes built from dist, an API key, and the helpers
// scenarios use (HTTP calls, SQL, row locks used as barriers, the BullMQ queue, exact count checks).
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { bullmq, cli, distHasRoles, freePort, pg, portOpen, root, sleep, startHearth, startPrivatePostgres, startPrivateRedis, until } from './infra.mjs';

export const CHUNK_ROWS = 100;
export const STUCK_AFTER_SECONDS = 10;
const QUEUE_PREFIX = 'faults';
const DATABASE = 'hearth_faults';
/** Backends waiting on a lock held by the backend $1 (a barrier). */
const BLOCKED_BY = 'pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))';

export class Harness {
  constructor({ logDir, singleProcess = false }) {
    this.logDir = logDir;
    this.singleProcess = singleProcess;
    this.processes = new Map();
  }

  async setUp() {
    const pgPort = await freePort();
    const redisPort = await freePort([pgPort]);
    this.apiPort = await freePort([pgPort, redisPort]);
    this.postgres = await startPrivatePostgres(pgPort);
    const admin = new pg.Client({ connectionString: this.postgres.url() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    await admin.end();
    this.redis = await startPrivateRedis(redisPort);
    this.roles = !this.singleProcess && distHasRoles();
    this.env = {
      NODE_ENV: 'production',
      SECRET_KEY_BASE: randomBytes(32).toString('hex'),
      DATABASE_URL: this.postgres.url(DATABASE),
      REDIS_URL: this.redis.url,
      QUEUE_PREFIX,
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      IMPORT_CHUNK_ROWS: String(CHUNK_ROWS),
      IMPORT_STUCK_AFTER_SECONDS: String(STUCK_AFTER_SECONDS),
    };
    this.db = new pg.Pool({ connectionString: this.env.DATABASE_URL, max: 4 });
    this.db.on('error', () => undefined); // a restarted PostgreSQL drops idle clients; the pool makes new ones
    bullmq.setDefaultBackendFactory?.(bullmq.createRedisBackend);
    this.queue = new bullmq.Queue('imports', { connection: { host: '127.0.0.1', port: redisPort, maxRetriesPerRequest: null }, prefix: QUEUE_PREFIX });
    this.queue.on('error', () => undefined);

    await this.startApi();
    await this.startWorker('worker');
    const email = `faults-${randomUUID()}@example.com`;
    cli(this.env, ['users:create', '--email', email, '--password-stdin', '--role', 'admin', '--family-name', 'Fault harness'], 'fault harness password');
    this.apiKey = cli(this.env, ['api-keys:create', '--email', email, '--name', 'fault harness', '--scope', 'read_write']).trim().split('\n').pop().trim();
    [{ family_id: this.familyId }] = await this.sql(`SELECT family_id FROM users WHERE email = $1`, [email]);
  }

  /** The HTTP side: an `api` process when dist has roles, else the single process that also works jobs. */
  async startApi() {
    const name = this.roles ? 'api' : 'app';
    const env = { ...this.env, PORT: String(this.apiPort), HEARTH_ROLE: this.roles ? 'api' : 'all' };
    this.processes.set(name, startHearth(name, env, this.logDir));
    await this.waitHealthy();
    if (!this.roles) await this.waitWorkers(this.workerNames().length);
  }

  /** A worker: its own process with roles; otherwise (no roles yet) the single `app` process, or an extra one. */
  async startWorker(name) {
    if (!this.roles && name === 'worker') return; // the single process already works jobs
    const port = await freePort([this.apiPort]);
    const env = { ...this.env, PORT: String(port), HEARTH_ROLE: this.roles ? 'worker' : 'all' };
    this.processes.set(name, startHearth(name, env, this.logDir));
    await this.waitWorkers(this.workerNames().length);
  }

  workerNames() {
    return [...this.processes.keys()].filter((n) => n !== 'api');
  }

  /** kill -9 of the process working the imports queue (with roles the API stays up). */
  async killWorker(name = 'worker') {
    const proc = this.processes.get(this.roles || name !== 'worker' ? name : 'app');
    await proc.kill9();
    this.processes.delete(proc.name);
  }

  async restartWorker(name = 'worker') {
    if (!this.roles && name === 'worker') return this.startApi();
    return this.startWorker(name);
  }

  async stopProcess(name) {
    const proc = this.processes.get(name);
    if (!proc) return;
    await proc.stop();
    this.processes.delete(name);
  }

  async waitHealthy(timeoutMs = 60_000) {
    await until('the API to answer /api/v1/health with ok', async () => {
      if (!(await portOpen(this.apiPort))) return false;
      const res = await this.api('GET', '/api/v1/health');
      return res.status === 200 && res.body.status === 'ok';
    }, timeoutMs, 200);
  }

  /** BullMQ names its worker connections; counting them tells when the restarted workers listen again. */
  async waitWorkers(count, timeoutMs = 60_000) {
    await until(`${count} imports worker(s) connected`, async () => (await this.queue.getWorkersCount()) >= count, timeoutMs, 200);
  }

  async ensureInfrastructure() {
    if (!(await portOpen(this.redis.port))) await this.redis.start();
    if (!this.processes.has(this.roles ? 'api' : 'app')) await this.startApi();
    if (this.roles && !this.processes.has('worker')) await this.startWorker('worker');
    await this.waitHealthy();
  }

  async tearDown() {
    for (const name of [...this.processes.keys()]) await this.stopProcess(name).catch(() => undefined);
    await this.queue?.close().catch(() => undefined);
    await this.db?.end().catch(() => undefined);
    await this.redis?.stop().catch(() => undefined);
    await this.postgres?.destroy().catch(() => undefined);
  }

  // ---- HTTP ----

  async api(method, path, body, timeoutMs = 15_000) {
    const started = Date.now();
    const res = await fetch(`http://127.0.0.1:${this.apiPort}${path}`, {
      method,
      headers: { 'X-Api-Key': this.apiKey ?? '', ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: globalThis.AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = { raw: text.slice(0, 200) };
    }
    return { status: res.status, body: json, ms: Date.now() - started };
  }

  /** Creates a TransactionImport of `rows` CSV rows named `<tag> #i`; `account(i)` names each row's account. */
  async createImport(tag, rows, account, extra = {}) {
    const lines = ['date,amount,name,account'];
    let sum = 0;
    const names = [];
    for (let i = 1; i <= rows; i++) {
      const cents = ((i * 7919) % 50_000) - 25_000 || 1;
      sum += cents;
      const name = `${tag} #${i}`;
      names.push(name);
      const day = String((i % 28) + 1).padStart(2, '0');
      const month = String((Math.floor(i / 28) % 12) + 1).padStart(2, '0');
      lines.push(`2024-${month}-${day},${(cents / 100).toFixed(2)},${name},${account(i)}`);
    }
    const res = await this.api('POST', '/api/v1/imports', { type: 'TransactionImport', raw_file_content: lines.join('\n'), ...extra });
    const expected = { rows, amountMinorSum: sum, tag };
    return { res, id: res.body?.data?.id ?? res.body?.import_id, expected };
  }

  async newAccount(name) {
    const [row] = await this.sql(
      `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, $2, 'Depository', 'asset', 'USD') RETURNING id`,
      [this.familyId, name],
    );
    return row.id;
  }

  async show(id) {
    return (await this.api('GET', `/api/v1/imports/${id}`)).body.data;
  }

  /** Polls until the import leaves importing/reverting (the API may be restarting meanwhile). */
  async waitSettled(id, timeoutMs) {
    return until(`import ${id} to leave importing/reverting`, async () => {
      const data = await this.show(id);
      return data && !['importing', 'reverting'].includes(data.status) ? data : false;
    }, timeoutMs, 250);
  }

  // ---- SQL ----

  async sql(text, params = []) {
    return (await this.db.query(text, params)).rows;
  }

  /** What the import wrote, counted in the database. */
  async state(id) {
    const [row] = await this.sql(
      `SELECT i.status, i.error, i.published_through_row AS "publishedThroughRow",
              (SELECT count(*)::int FROM entries e WHERE e.import_id = i.id) AS entries,
              (SELECT count(*)::int FROM transactions t JOIN entries e ON e.id = t.entry_id WHERE e.import_id = i.id) AS transactions,
              (SELECT count(DISTINCT e.name)::int FROM entries e WHERE e.import_id = i.id) AS "distinctNames",
              (SELECT COALESCE(sum(e.amount_minor), 0)::bigint::text FROM entries e WHERE e.import_id = i.id) AS "amountMinorSum"
         FROM imports i WHERE i.id = $1`,
      [id],
    );
    return { ...row, amountMinorSum: Number(row.amountMinorSum) };
  }

  /** A session holding row locks: the worker blocks on them at a known point of its transaction. */
  async holdLock(text, params) {
    const client = new pg.Client({ connectionString: this.env.DATABASE_URL, application_name: 'fault-harness-barrier' });
    client.on('error', () => undefined);
    await client.connect();
    const [{ pid }] = (await client.query('SELECT pg_backend_pid() AS pid')).rows;
    await client.query('BEGIN');
    const locked = client.query(text, params); // may itself wait (a barrier behind the worker)
    locked.catch(() => undefined);
    return {
      pid,
      locked,
      async release() {
        await client.query('ROLLBACK').catch(() => undefined);
        await client.end().catch(() => undefined);
      },
    };
  }

  /** Backends (the worker's) waiting on a lock held by `pid`. */
  async blockedBy(pid, count = 1, timeoutMs = 30_000) {
    return until(`${count} backend(s) blocked by the barrier`, async () => {
      const rows = await this.sql(`SELECT pid, left(query, 80) AS query FROM ${BLOCKED_BY}`, [pid]);
      return rows.length >= count ? rows : false;
    }, timeoutMs, 50);
  }

  /**
   * Ends the backends waiting on a lock held by `pid`. A backend waiting on a lock does not notice that its client
   * died: it would still run a killed worker's statement once the lock is free.
   */
  async terminateBlockedBy(pid) {
    await this.sql(`SELECT pg_terminate_backend(pid) FROM ${BLOCKED_BY}`, [pid]);
  }

  /** Publish jobs BullMQ holds (any state) for the import. */
  async publishJobs(id) {
    const jobs = await this.queue.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed', 'prioritized', 'paused']);
    return jobs.filter((job) => job?.name === 'publish' && job.data?.importId === id);
  }
}

export const logDirOf = (artifacts) => join(artifacts, 'faults-logs');
export { root, sleep, until };
