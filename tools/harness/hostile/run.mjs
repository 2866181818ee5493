// Hostile-input harness (groups A-I, docs/development.md#harnesses) against a RUNNING server: the built API from dist,
// started here as a child process on the PostgreSQL of DATABASE_URL and the Redis of REDIS_URL.
//
//   npm run build && DATABASE_URL=postgres://... REDIS_URL=redis://... npm run harness:hostile
//   node tools/harness/hostile/run.mjs --only A,B3   run a subset (case ids or group letters)
//
// Two families (F1 attacker, F2 victim holding canary strings) with users of each role and API keys of each scope,
// created through the real CLI and API. Every case is a row of a table (cases/*.mjs): catalogue id, description,
// request, expected status and `error` code. One runner executes them and checks, after each case: the answer,
// the shape of error bodies, 5xx, the server process still alive, the victim family's rows unchanged (read with
// pg), no victim data in any response. At the end the server's captured stdout/stderr is scanned for every API
// key, password, session token, CSRF token and client secret used. Prints a scorecard, writes it to
// artifacts/hostile-scorecard.json and exits non-zero on any failure.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Http } from './http.mjs';
import { cli, freePort, root, startServer } from './server.mjs';
import { CASES } from './cases/index.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
if (!DATABASE_URL || !REDIS_URL) {
  console.error('hostile harness: DATABASE_URL and REDIS_URL must name a scratch PostgreSQL database and a Redis');
  process.exit(2);
}
if (!existsSync(join(root, 'dist/api/apps/api/src/main.js'))) {
  console.error('hostile harness: no built API in dist/api; run `npm run build` first');
  process.exit(2);
}

const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? process.argv[onlyArg + 1].split(',') : null;
const verbose = process.argv.includes('--verbose');
const RUN = randomUUID().slice(0, 8);
const ALLOWED_DOMAIN = 'allowed.test';

// ---------------------------------------------------------------------------------------------------------------
// Server and context

const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const secrets = new Map(); // value -> what it is
const secret = (value, what) => {
  if (typeof value === 'string' && value.length >= 8) secrets.set(value, what);
  return value;
};
const serverEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NODE_ENV: 'development',
  PORT: String(port),
  HOST: '127.0.0.1',
  DATABASE_URL,
  REDIS_URL,
  LOG_LEVEL: process.env.HOSTILE_LOG_LEVEL ?? 'debug',
  SECRET_KEY_BASE: secret(randomBytes(32).toString('hex'), 'SECRET_KEY_BASE'),
  QUEUE_PREFIX: `hostile-${RUN}`,
  APP_URL: appUrl,
  TRUST_PROXY: 'loopback',
  SSO_ALLOW_INSECURE_HTTP: 'true',
  ALLOWED_OIDC_DOMAINS: ALLOWED_DOMAIN,
  IMPORT_MAX_ROWS: '500',
  ADMIN_DIST_DIR: join(root, 'tmp/hostile-no-admin'), // API only: the SPA is not under test here
};

const crashes = [];
let currentCase = null;
let server = await startServer(serverEnv, { onExit: (exit) => crashes.push({ at: currentCase?.id ?? 'setup', exit }) });
const db = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
const http = new Http(appUrl);

const ctx = {
  run: RUN,
  appUrl,
  http,
  db,
  secret,
  allowedDomain: ALLOWED_DOMAIN,
  serverEnv,
  /** Shorthand: ctx.req({...}) */
  req: (options) => http.request(options),
  q: async (sql, params = []) => (await db.query(sql, params)).rows,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  cli: (args, input) => cli({ ...serverEnv, LOG_LEVEL: 'warn' }, args, input),
  /** Polls an import until it leaves importing/reverting. */
  async waitImport(key, id, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await http.request({ path: `/api/v1/imports/${id}`, key });
      if (res.status !== 200) throw new Error(`GET import ${id}: ${res.status} ${res.text.slice(0, 200)}`);
      if (!['importing', 'reverting'].includes(res.json.data.status)) return res.json.data;
      if (Date.now() > deadline) throw new Error(`import ${id} still ${res.json.data.status}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Fixtures: users through the CLI, keys through the CLI and the API, data through the import API

const password = () => secret(`pw-${randomBytes(12).toString('base64url')}`, 'password');

/** users:create through the real CLI; returns { id, email, password, familyId, role }. */
function createUser({ label, role, familyName }) {
  const email = `${label}-${RUN}@${label.startsWith('sso') ? ALLOWED_DOMAIN : 'hearth-hostile.test'}`;
  const pw = password();
  const out = ctx.cli(['users:create', '--email', email, '--password-stdin', '--role', role, '--family-name', familyName, '--currency', 'USD'], pw);
  const id = /id=([0-9a-f-]{36})/.exec(out.split('\n')[0])[1];
  const familyId = /id=([0-9a-f-]{36})/.exec(out.split('\n')[1])[1];
  return { label, id, email, password: pw, familyId, role };
}

function cliKey(user, scope) {
  const out = ctx.cli(['api-keys:create', '--email', user.email, '--name', `cli ${scope}`, '--scope', scope]);
  const key = out.trim().split('\n').pop().trim();
  return secret(key, `API key (${user.label}, ${scope})`);
}

async function apiKey(session, scope, name = `api ${scope}`, extra = {}) {
  const res = await http.request({ method: 'POST', path: '/api/v1/settings/api_keys', session, json: { name, scope, ...extra } });
  if (res.status !== 201) throw new Error(`API key not created: ${res.status} ${res.text}`);
  return { key: secret(res.json.key, `API key (${name})`), id: res.json.id, prefix: res.json.prefix };
}

async function signIn(user) {
  const session = await http.signIn(user.email, user.password);
  secret(session.token, `session token (${user.label})`);
  secret(session.csrf, `CSRF token (${user.label})`);
  return session;
}
ctx.signIn = signIn;
ctx.createUser = createUser;
ctx.apiKey = apiKey;

const canary = (what) => `CANARY${RUN}${what}`;
const line = (type, data) => JSON.stringify({ type, data });

async function setup() {
  const F0 = `Operators ${RUN}`;
  const F1 = `Attackers ${RUN}`;
  const F2 = `${canary('Family')}`;
  const setupBefore = await http.request({ method: 'GET', path: '/api/v1/auth/config' });
  ctx.setupOpen = setupBefore.json?.setup_required ?? null;

  const users = {
    ops: createUser({ label: 'ops', role: 'super_admin', familyName: F0 }),
    f1admin: createUser({ label: 'f1admin', role: 'admin', familyName: F1 }),
    f1member: createUser({ label: 'f1member', role: 'member', familyName: F1 }),
    f1suspend: createUser({ label: 'f1suspend', role: 'member', familyName: F1 }),
    f1remove: createUser({ label: 'f1remove', role: 'member', familyName: F1 }),
    f1throttle: createUser({ label: 'f1throttle', role: 'member', familyName: F1 }),
    f3admin: createUser({ label: 'f3admin', role: 'admin', familyName: `Bystanders ${RUN}` }),
    f2admin: createUser({ label: 'f2admin', role: 'admin', familyName: F2 }),
    f2member: createUser({ label: 'f2member', role: 'member', familyName: F2 }),
  };
  ctx.users = users;
  ctx.f1 = users.f1admin.familyId;
  ctx.f2 = users.f2admin.familyId;
  ctx.f3 = users.f3admin.familyId;

  const sessions = {};
  for (const label of ['ops', 'f1admin', 'f1member', 'f1suspend', 'f2admin']) sessions[label] = await signIn(users[label]);
  ctx.sessions = sessions;

  ctx.keys = {
    f1rw: (await apiKey(sessions.f1admin, 'read_write')).key,
    f1read: (await apiKey(sessions.f1admin, 'read')).key,
    f1memberRw: cliKey(users.f1member, 'read_write'),
    f1memberRead: cliKey(users.f1member, 'read'),
    f1suspend: cliKey(users.f1suspend, 'read_write'),
    f1remove: cliKey(users.f1remove, 'read_write'),
    f3rw: cliKey(users.f3admin, 'read_write'),
    f2rw: cliKey(users.f2admin, 'read_write'),
    f2read: cliKey(users.f2admin, 'read'),
    f2memberRw: cliKey(users.f2member, 'read_write'),
  };
  // A4/H94/H98: one user suspended, one removed, through the admin API (after their session and keys exist).
  const suspended = await http.request({ method: 'POST', path: `/api/v1/admin/users/${users.f1suspend.id}/suspend`, session: sessions.f1admin });
  if (suspended.status !== 200) throw new Error(`suspend: ${suspended.status} ${suspended.text}`);
  const removed = await http.request({ method: 'DELETE', path: `/api/v1/admin/users/${users.f1remove.id}`, session: sessions.f1admin, json: { confirmation_email: users.f1remove.email } });
  if (removed.status !== 204) throw new Error(`remove: ${removed.status} ${removed.text}`);
  const revoked = await apiKey(sessions.f1admin, 'read_write', 'to be revoked');
  const revoke = await http.request({ method: 'DELETE', path: `/api/v1/settings/api_keys/${revoked.id}`, session: sessions.f1admin });
  if (revoke.status !== 204) throw new Error(`revoke failed: ${revoke.status}`);
  ctx.keys.revoked = revoked.key;
  const shortLived = await apiKey(sessions.f1admin, 'read_write', 'short lived', { expires_at: new Date(Date.now() + 3_000).toISOString() });
  ctx.keys.expiring = shortLived.key;

  // F2, the victim: canary strings in every text column an import can fill, unusual amounts.
  const f2File = [
    line('Account', { id: 'a1', name: canary('Checking'), balance: '7373.91', currency: 'USD', accountable_type: 'Depository', notes: canary('AccountNotes') }),
    line('Account', { id: 'a2', name: canary('Card'), balance: '0', currency: 'USD', accountable_type: 'CreditCard' }),
    line('Category', { id: 'c1', name: canary('Category') }),
    line('Tag', { id: 't1', name: canary('Tag') }),
    line('Merchant', { id: 'm1', name: canary('Merchant') }),
    line('Transaction', { id: 'x1', account_id: 'a1', date: '2025-01-05', amount: '6161.37', name: canary('Payee'), category_id: 'c1', merchant_id: 'm1', tag_ids: ['t1'], notes: canary('Notes') }),
    line('Transaction', { id: 'x2', account_id: 'a2', date: '2025-01-07', amount: '-5151.29', name: canary('Refund') }),
    line('Budget', { id: 'b1', start_date: '2025-01-01', end_date: '2025-01-31', budgeted_spending: '8282.43', expected_income: '9191.57', currency: 'USD' }),
  ].join('\n');
  const f2Import = await http.request({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f2rw, json: { type: 'ServiceImport', raw_file_content: f2File, publish: 'true' } });
  if (f2Import.status !== 201) throw new Error(`F2 seed import: ${f2Import.status} ${f2Import.text}`);
  const f2Done = await ctx.waitImport(ctx.keys.f2rw, f2Import.json.data.id);
  if (f2Done.status !== 'complete') throw new Error(`F2 seed import ended ${f2Done.status}: ${f2Done.error}`);
  const f2Csv = `date,amount,name\n2025-02-03,4646.19,${canary('PendingRow')}`;
  const f2Pending = await http.request({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f2rw, json: { raw_file_content: f2Csv, account_id: (await ctx.q(`SELECT id FROM accounts WHERE family_id = $1 ORDER BY name LIMIT 1`, [ctx.f2]))[0].id } });
  if (f2Pending.status !== 201) throw new Error(`F2 pending import: ${f2Pending.status} ${f2Pending.text}`);
  const f2Budget = await http.request({ method: 'POST', path: '/api/v1/budgets', key: ctx.keys.f2rw, json: { start_date: '2025-02-01' } });
  if (![200, 201].includes(f2Budget.status)) throw new Error(`F2 budget: ${f2Budget.status} ${f2Budget.text}`);

  // F1, the attacker's own data.
  const f1File = [
    line('Account', { id: 'a1', name: 'Attacker checking', balance: '100', currency: 'USD', accountable_type: 'Depository' }),
    line('Transaction', { id: 'x1', account_id: 'a1', date: '2025-01-05', amount: '12.34', name: 'Attacker coffee' }),
    line('Budget', { id: 'b1', start_date: '2025-01-01', end_date: '2025-01-31', budgeted_spending: '100', expected_income: '200', currency: 'USD' }),
  ].join('\n');
  for (const key of [ctx.keys.f1rw, ctx.keys.f3rw]) {
    const seeded = await http.request({ method: 'POST', path: '/api/v1/imports', key, json: { type: 'ServiceImport', raw_file_content: f1File, publish: 'true' } });
    if (seeded.status !== 201) throw new Error(`F1/F3 seed import: ${seeded.status} ${seeded.text}`);
    const done = await ctx.waitImport(key, seeded.json.data.id);
    if (done.status !== 'complete') throw new Error(`F1/F3 seed import ended ${done.status}: ${done.error}`);
  }

  const ids = async (sql, family) => (await ctx.q(sql, [family])).map((r) => r.id);
  ctx.f2ids = {
    accounts: await ids(`SELECT id FROM accounts WHERE family_id = $1 ORDER BY name`, ctx.f2),
    budgets: await ids(`SELECT id FROM budgets WHERE family_id = $1 ORDER BY start_date`, ctx.f2),
    imports: await ids(`SELECT id FROM imports WHERE family_id = $1 ORDER BY created_at`, ctx.f2),
    categories: await ids(`SELECT id FROM categories WHERE family_id = $1`, ctx.f2),
    entries: await ids(`SELECT id FROM entries WHERE family_id = $1`, ctx.f2),
    budgetCategories: await ids(`SELECT bc.id FROM budget_categories bc JOIN budgets b ON b.id = bc.budget_id WHERE b.family_id = $1`, ctx.f2),
    users: [users.f2admin.id, users.f2member.id],
  };
  ctx.f1ids = {
    accounts: await ids(`SELECT id FROM accounts WHERE family_id = $1 ORDER BY name`, ctx.f1),
    budgets: await ids(`SELECT id FROM budgets WHERE family_id = $1 ORDER BY start_date`, ctx.f1),
  };
  ctx.f1Account = ctx.f1ids.accounts[0];
  ctx.f3Account = (await ids(`SELECT id FROM accounts WHERE family_id = $1`, ctx.f3))[0];

  // What must never reach an F1 response: F2's names, ids, e-mail addresses and amounts.
  const canaries = new Set([
    ...Object.values(ctx.f2ids).flat(),
    ctx.f2,
    users.f2admin.email,
    users.f2member.email,
    `CANARY${RUN}`,
    '7373.91', '737391', '6161.37', '616137', '5151.29', '515129', '8282.43', '828243', '9191.57', '919157', '4646.19', '464619',
  ]);
  ctx.canaries = [...canaries].filter((c) => c && c.length >= 6);
  // Super admins manage every user: F2's users and family are theirs to see, F2's financial data is not.
  ctx.superAdminVisible = new Set([users.f2admin.email, users.f2member.email, ...ctx.f2ids.users, ctx.f2, `CANARY${RUN}`]);
}

/** Row counts and a digest of everything of F2 that an attacker could create, change or remove. */
async function victimState() {
  const [row] = await ctx.q(
    `SELECT (SELECT count(*) FROM accounts WHERE family_id = $1) AS accounts,
            (SELECT count(*) FROM entries WHERE family_id = $1) AS entries,
            (SELECT count(*) FROM imports WHERE family_id = $1) AS imports,
            (SELECT count(*) FROM import_rows r JOIN imports i ON i.id = r.import_id WHERE i.family_id = $1) AS import_rows,
            (SELECT count(*) FROM budgets WHERE family_id = $1) AS budgets,
            (SELECT count(*) FROM budget_categories bc JOIN budgets b ON b.id = bc.budget_id WHERE b.family_id = $1) AS budget_categories,
            (SELECT count(*) FROM categories WHERE family_id = $1) AS categories,
            (SELECT count(*) FROM tags WHERE family_id = $1) AS tags,
            (SELECT count(*) FROM merchants WHERE family_id = $1) AS merchants,
            (SELECT count(*) FROM users WHERE family_id = $1) AS users,
            (SELECT count(*) FROM api_keys k JOIN users u ON u.id = k.user_id WHERE u.family_id = $1) AS api_keys,
            (SELECT count(*) FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.family_id = $1) AS sessions,
            (SELECT count(*) FROM sso_identities i JOIN users u ON u.id = i.user_id WHERE u.family_id = $1) AS sso_identities,
            (SELECT md5(string_agg(concat_ws('|', id, name, currency, status, balance_minor), ',' ORDER BY id)) FROM accounts WHERE family_id = $1) AS accounts_digest,
            (SELECT md5(string_agg(concat_ws('|', id, name, amount_minor, date), ',' ORDER BY id)) FROM entries WHERE family_id = $1) AS entries_digest,
            (SELECT md5(string_agg(concat_ws('|', id, status, updated_at), ',' ORDER BY id)) FROM imports WHERE family_id = $1) AS imports_digest,
            (SELECT md5(string_agg(concat_ws('|', id, budgeted_spending_minor, expected_income_minor), ',' ORDER BY id)) FROM budgets WHERE family_id = $1) AS budgets_digest,
            (SELECT md5(string_agg(concat_ws('|', id, email, role, status, password_hash), ',' ORDER BY id)) FROM users WHERE family_id = $1) AS users_digest,
            (SELECT md5(string_agg(concat_ws('|', id, revoked_at, expires_at), ',' ORDER BY id)) FROM api_keys k WHERE user_id IN (SELECT id FROM users WHERE family_id = $1)) AS keys_digest,
            (SELECT md5(concat_ws('|', name, currency, locale, month_start_day)) FROM families WHERE id = $1) AS family_digest`,
    [ctx.f2],
  );
  return row;
}

// ---------------------------------------------------------------------------------------------------------------
// The runner

const STACK = /\bat [\w$.<>]+ \(|node_modules|\/src\/|\.ts:\d+|QueryFailedError|SELECT .* FROM|INSERT INTO|syntax error at|TypeError|ReferenceError/;

function errorBodyProblems(res) {
  const problems = [];
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('application/json')) problems.push(`content-type ${type || 'missing'}`);
  const body = res.json;
  if (!body || typeof body !== 'object') return [...problems, `body is not a JSON object: ${res.text.slice(0, 120)}`];
  if (typeof body.error !== 'string' || !/^[a-z][a-z0-9_]*$/.test(body.error)) problems.push(`error code ${JSON.stringify(body.error)}`);
  if (typeof body.message !== 'string' || !body.message) problems.push('message missing');
  if (STACK.test(res.text)) problems.push('body shows internals (stack frame, SQL or library error)');
  return problems;
}

function matchStatus(expected, status) {
  return Array.isArray(expected) ? expected.includes(status) : expected === status;
}

/**
 * Where a canary stands in a text as a value of its own. An amount must not be part of a longer run of letters and
 * digits: 919157 inside a random hex id is chance, not F2's amount (it failed a CI run once).
 */
function canaryAt(text, canary) {
  if (!/^[\d.]+$/.test(canary)) return text.indexOf(canary);
  const standalone = new RegExp(`(?<![0-9A-Za-z])${canary.replace('.', '\\.')}(?![0-9A-Za-z])`);
  return text.search(standalone);
}

function leaksIn(recorded, sent, actor) {
  const found = [];
  const input = sent.join('\n');
  for (const c of ctx.canaries) {
    if (input.includes(c)) continue; // the attacker sent it: an echo, not a leak
    if (actor === 'superAdmin' && ctx.superAdminVisible.has(c)) continue;
    for (const r of recorded) {
      const at = canaryAt(r.text, c);
      if (at >= 0) found.push(`${r.method} ${r.path} -> ${r.status} contains ${c} (…${r.text.slice(Math.max(0, at - 40), at + c.length + 40)}…)`);
    }
  }
  return found;
}

const results = [];
const notRun = [];
const extraLogs = [];

/** Runs fn(url) against a second server process on the same database with some settings changed. */
ctx.withServer = async (overrides, fn) => {
  const env = { ...serverEnv, ...overrides, PORT: String(await freePort()) };
  env.APP_URL = `http://127.0.0.1:${env.PORT}`;
  let unexpected = null;
  const other = await startServer(env, { onExit: (exit) => (unexpected = exit) });
  try {
    return await fn(other.url);
  } finally {
    if (unexpected) crashes.push({ at: currentCase?.id, exit: unexpected, server: 'second' });
    await other.stop();
    extraLogs.push(other.log.join(''));
  }
};

async function runCase(c) {
  currentCase = c;
  if (c.notRun) {
    notRun.push({ id: c.id, title: c.title, reason: c.notRun });
    return;
  }
  http.startCase();
  const result = { id: c.id, group: c.id[0], title: c.title, expected: c.expect, failures: [] };
  const before = await victimState();
  let res;
  try {
    res = c.run ? await c.run(ctx) : await http.request(typeof c.req === 'function' ? c.req(ctx) : c.req);
  } catch (error) {
    result.failures.push(`harness step failed: ${error.message}`);
  }
  if (res) {
    result.status = res.status;
    result.error = res.json?.error;
    const e = c.expect ?? {};
    if (e.status !== undefined && !matchStatus(e.status, res.status)) result.failures.push(`status ${res.status}, expected ${JSON.stringify(e.status)}`);
    if (e.error !== undefined && res.json?.error !== e.error) result.failures.push(`error ${JSON.stringify(res.json?.error)}, expected ${JSON.stringify(e.error)}`);
    if (e.location !== undefined && !(res.location && e.location.test(res.location))) result.failures.push(`location ${res.location}, expected ${e.location}`);
    if (res.status >= 400 && res.status < 500 && res.headers.get('content-type')?.includes('json') !== false && c.jsonErrors !== false) {
      const problems = errorBodyProblems(res);
      if (problems.length) result.failures.push(`error body: ${problems.join('; ')}`);
      else result.clear4xx = true;
    }
    if (res.status === 0) result.failures.push(res.error);
    if (c.check) {
      try {
        const problem = await c.check(res, ctx);
        if (problem) result.failures.push(problem);
      } catch (error) {
        result.failures.push(`check failed: ${error.message}`);
      }
    }
  }
  // Every response of the case, not only the last one.
  result.fiveXx = http.recorded.filter((r) => r.status >= 500).map((r) => `${r.method} ${r.path} -> ${r.status} ${r.text.slice(0, 160)}`);
  if (result.fiveXx.length) result.failures.push(`5xx: ${result.fiveXx.join(' | ')}`);
  result.leaks = leaksIn(http.recorded, http.sent, c.actor);
  if (result.leaks.length) result.failures.push(`victim data in a response: ${result.leaks.slice(0, 3).join(' | ')}`);
  if (server.exited) {
    result.crash = server.exited;
    result.failures.push(`server process exited: ${JSON.stringify(server.exited)}`);
    console.error(server.log.join('').slice(-3000));
    server = await startServer(serverEnv, { onExit: (exit) => crashes.push({ at: currentCase?.id, exit }) });
    http.baseUrl = server.url;
  }
  const after = await victimState();
  const changed = Object.keys(before).filter((k) => String(before[k]) !== String(after[k]));
  if (changed.length) {
    result.victimChanged = changed;
    result.failures.push(`victim family changed: ${changed.map((k) => `${k} ${before[k]} -> ${after[k]}`).join(', ')}`);
  }
  result.ok = result.failures.length === 0;
  results.push(result);
  const mark = result.ok ? 'ok  ' : 'FAIL';
  if (!result.ok || verbose) console.log(`${mark} ${c.id.padEnd(6)} ${res?.status ?? '-'} ${result.error ?? ''} ${c.title}${result.ok ? '' : `\n       ${result.failures.join('\n       ')}`}`);
}

// ---------------------------------------------------------------------------------------------------------------

const started = Date.now();
let exitCode = 0;
try {
  await setup();
  const selected = CASES(ctx).filter((c) => !only || only.some((o) => c.id === o || c.id.startsWith(o)));
  // Rate-limit cases last: they exhaust buckets on purpose.
  const ordered = [...selected.filter((c) => !c.last), ...selected.filter((c) => c.last)];
  for (const c of ordered) {
    if (c.before) await c.before(ctx);
    await runCase(c);
  }
} catch (error) {
  console.error(`hostile harness: setup or runner failed: ${error.stack}`);
  exitCode = 1;
} finally {
  for (const teardown of ctx.teardown ?? []) await teardown().catch(() => undefined);
  await server.stop();
  await db.end();
}

// Secrets in the server's output: the whole captured log, every secret the harness used.
const log = [server.log.join(''), ...extraLogs].join('\n');
const secretHits = [...secrets].filter(([value]) => log.includes(value)).map(([, what]) => what);
const stackLines = log.split('\n').filter((l) => /"level":(50|60)/.test(l) && /\bat [\w$.<>]+ \(/.test(l)).length;

const tried = results.length;
const scorecard = {
  run: RUN,
  finished_at: new Date().toISOString(),
  duration_seconds: Math.round((Date.now() - started) / 1000),
  hostile_inputs_tried: tried,
  handled_as_expected: results.filter((r) => r.ok).length,
  answered_with_clear_4xx: results.filter((r) => r.clear4xx).length,
  five_xx: results.reduce((n, r) => n + r.fiveXx.length, 0),
  crashes: crashes.length,
  cross_family_leaks: results.filter((r) => r.leaks.length || r.victimChanged).length,
  secrets_in_logs: secretHits.length,
  secrets_checked: secrets.size,
  log_bytes_scanned: log.length,
  error_logs_with_stack: stackLines,
  failed: results.filter((r) => !r.ok).map((r) => ({ id: r.id, title: r.title, failures: r.failures })),
  not_run: notRun,
  groups: Object.fromEntries(
    [...'ABCDEFGHI'].map((g) => [g, { tried: results.filter((r) => r.group === g).length, ok: results.filter((r) => r.group === g && r.ok).length, not_run: notRun.filter((n) => n.id[0] === g).length }]),
  ),
  secrets_found: secretHits,
  crash_details: crashes,
  cases: results.map(({ id, title, status, error, ok, failures }) => ({ id, title, status, error, ok, failures })),
};
mkdirSync(join(root, 'artifacts'), { recursive: true });
writeFileSync(join(root, 'artifacts/hostile-scorecard.json'), `${JSON.stringify(scorecard, null, 2)}\n`);
writeFileSync(join(root, 'artifacts/hostile-server.log'), log);

const pad = (label) => label.padEnd(34);
console.log('\n=== Hostile-input scorecard (groups A-I) ===');
console.log(`${pad('hostile inputs tried')}${tried}`);
console.log(`${pad('handled as expected')}${scorecard.handled_as_expected} / ${tried}`);
console.log(`${pad('answered with a clear 4xx')}${scorecard.answered_with_clear_4xx}`);
console.log(`${pad('5xx')}${scorecard.five_xx}`);
console.log(`${pad('crashes (server exits)')}${scorecard.crashes}`);
console.log(`${pad('cross-family leaks')}${scorecard.cross_family_leaks}`);
console.log(`${pad('secrets in logs')}${scorecard.secrets_in_logs} (${secrets.size} secrets, ${log.length} bytes of log)`);
console.log(`${pad('not run')}${notRun.length}`);
for (const n of notRun) console.log(`  - ${n.id} ${n.title}: ${n.reason}`);
console.log(`${pad('per group (ok/tried)')}${Object.entries(scorecard.groups).map(([g, s]) => `${g} ${s.ok}/${s.tried}`).join('  ')}`);
console.log(`${pad('duration')}${scorecard.duration_seconds} s`);
console.log('scorecard: artifacts/hostile-scorecard.json');
const failed = scorecard.failed.length + scorecard.crashes + scorecard.secrets_in_logs + (exitCode ? 1 : 0);
if (secretHits.length) console.log(`secrets found in the server log: ${secretHits.join(', ')}`);
console.log(failed ? `${scorecard.handled_as_expected} passed, ${scorecard.failed.length} failed` : `${tried} passed, 0 failed`);
process.exit(failed ? 1 : 0);
