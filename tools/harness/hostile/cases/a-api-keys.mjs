// A. API key authentication (X-Api-Key).
import { randomBytes } from 'node:crypto';

const UNAUTHORIZED = { status: 401, error: 'unauthorized' };
const BUDGETS = '/api/v1/budgets';

/** Flips one character of the secret part of a key. */
function flip(key) {
  const i = key.length - 5;
  const c = key[i] === 'A' ? 'B' : 'A';
  return key.slice(0, i) + c + key.slice(i + 1);
}

export default (ctx) => [
  { id: 'A1', title: 'no key, no Authorization', req: { path: BUDGETS }, expect: UNAUTHORIZED },
  { id: 'A1b', title: 'no key on POST /imports', req: { method: 'POST', path: '/api/v1/imports', json: { raw_file_content: 'date,amount\n2024-01-01,1' } }, expect: UNAUTHORIZED },
  { id: 'A2a', title: 'random 64-hex key', req: { path: BUDGETS, key: randomBytes(32).toString('hex') }, expect: UNAUTHORIZED },
  { id: 'A2b', title: 'well-formed hth_ key never issued', req: () => ({ path: BUDGETS, key: `hth_${randomBytes(4).toString('hex')}_${randomBytes(32).toString('base64url')}` }), expect: UNAUTHORIZED },
  { id: 'A2c', title: 'valid key with one character changed', req: () => ({ path: BUDGETS, key: flip(ctx.keys.f1rw) }), expect: UNAUTHORIZED },
  { id: 'A2d', title: 'valid key with the prefix of another key', req: () => ({ path: BUDGETS, key: ctx.keys.f2read.slice(0, 13) + ctx.keys.f1rw.slice(13) }), expect: UNAUTHORIZED },
  {
    id: 'A2e',
    title: 'key + trailing space: optional whitespace is not part of an HTTP header value (RFC 9110 5.5), so this is the valid key',
    req: () => ({ path: BUDGETS, key: `${ctx.keys.f1rw} ` }),
    expect: { status: 200 },
  },
  { id: 'A2f', title: 'key + a trailing character', req: () => ({ path: BUDGETS, key: `${ctx.keys.f1rw}x` }), expect: UNAUTHORIZED },
  { id: 'A2g', title: 'key truncated by one character', req: () => ({ path: BUDGETS, key: ctx.keys.f1rw.slice(0, -1) }), expect: UNAUTHORIZED },
  { id: 'A3a', title: 'revoked key', req: () => ({ path: BUDGETS, key: ctx.keys.revoked }), expect: UNAUTHORIZED },
  {
    id: 'A3b',
    title: 'expired key (expires_at passed)',
    before: async () => {
      // The key was made with a 3 s lifetime during setup; wait it out if the cases got here quickly.
      const [row] = await ctx.q(`SELECT extract(epoch FROM expires_at - now()) AS left FROM api_keys WHERE name = 'short lived' AND user_id = $1`, [ctx.users.f1admin.id]);
      if (row.left > -1) await ctx.sleep((Number(row.left) + 1.5) * 1000);
    },
    req: () => ({ path: BUDGETS, key: ctx.keys.expiring }),
    expect: UNAUTHORIZED,
  },
  {
    id: 'A4a',
    title: 'key of a user suspended through the admin API (setup) -> 401 "Account has been deactivated"',
    req: () => ({ path: BUDGETS, key: ctx.keys.f1suspend }),
    expect: UNAUTHORIZED,
    check: (res) => (res.json?.message === 'Account has been deactivated' ? null : `message ${JSON.stringify(res.json?.message)}`),
  },
  {
    id: 'A4b',
    title: 'key of a user removed through the admin API (setup)',
    req: () => ({ path: BUDGETS, key: ctx.keys.f1remove }),
    expect: UNAUTHORIZED,
    check: async () => {
      const rows = await ctx.q(`SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL`, [ctx.users.f1remove.id]);
      return rows[0].n === 0 ? null : `${rows[0].n} keys of the removed user still active`;
    },
  },
  {
    id: 'A5a',
    title: 'read key on POST /imports -> 403 insufficient_scope, no import row',
    run: async () => {
      const count = async () => (await ctx.q(`SELECT count(*)::int AS n FROM imports WHERE family_id = $1`, [ctx.f1]))[0].n;
      const before = await count();
      const res = await ctx.req({ method: 'POST', path: '/api/v1/imports', key: ctx.keys.f1read, json: { raw_file_content: 'date,amount\n2024-01-01,1', account_id: ctx.f1Account, publish: 'true' } });
      res.problem = (await count()) !== before ? 'an import row was written' : null;
      return res;
    },
    expect: { status: 403, error: 'insufficient_scope' },
    check: (res) => res.problem,
  },
  { id: 'A5b', title: 'read key on PATCH /family_settings', req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', key: ctx.keys.f1read, json: { name: 'x' } }), expect: { status: 403, error: 'insufficient_scope' } },
  { id: 'A5c', title: 'read key on POST /budgets', req: () => ({ method: 'POST', path: BUDGETS, key: ctx.keys.f1read, json: { start_date: '2025-03-01' } }), expect: { status: 403, error: 'insufficient_scope' } },
  { id: 'A5d', title: 'read key on POST /family_exports', req: () => ({ method: 'POST', path: '/api/v1/family_exports', key: ctx.keys.f1read, json: {} }), expect: { status: 403, error: 'insufficient_scope' } },
  { id: 'A6a', title: 'header name in lower case is accepted', req: () => ({ path: BUDGETS, headers: { 'x-api-key': ctx.keys.f1read } }), expect: { status: 200 } },
  { id: 'A6b', title: 'key sent twice (joined "k1, k2")', req: () => ({ path: BUDGETS, headers: { 'x-api-key': `${ctx.keys.f1read}, ${ctx.keys.f1read}` } }), expect: UNAUTHORIZED },
  { id: 'A6c', title: 'key in the query string ?api_key= is ignored', req: () => ({ path: `${BUDGETS}?api_key=${encodeURIComponent(ctx.keys.f1read)}` }), expect: UNAUTHORIZED },
  { id: 'A6d', title: 'key as Authorization: Bearer (not a scheme of this API)', req: () => ({ path: BUDGETS, headers: { authorization: `Bearer ${ctx.keys.f1read}` } }), expect: UNAUTHORIZED },
  { id: 'A7a', title: '16 KB header value (the HTTP parser answers 431 before the app)', req: { path: BUDGETS, key: `hth_${'a'.repeat(16 * 1024)}` }, expect: { status: [401, 431, 400] }, jsonErrors: false },
  { id: 'A7a2', title: '8 KB header value reaches the app', req: { path: BUDGETS, key: `hth_${'a'.repeat(8 * 1024)}` }, expect: UNAUTHORIZED },
  { id: 'A7b', title: '64 KB of headers (over the HTTP parser limit)', req: { path: BUDGETS, headers: { 'x-api-key': 'k'.repeat(64 * 1024) } }, expect: { status: [431, 400] }, jsonErrors: false },
  { id: 'A7c', title: 'non-ASCII (Latin-1) bytes in the key', req: { path: BUDGETS, headers: { 'x-api-key': 'hth_\u00e9\u00e8\u00ff_abc' } }, expect: UNAUTHORIZED },
  { id: 'A7d', title: 'key of only a prefix and separators', req: { path: BUDGETS, key: 'hth__' }, expect: UNAUTHORIZED },
  { id: 'A7e', title: 'empty X-Api-Key header', req: { path: BUDGETS, key: '' }, expect: UNAUTHORIZED },
  { id: 'A8', title: 'valid key + invalid Authorization: Bearer -> the key decides (documented: Authorization is ignored)', req: () => ({ path: BUDGETS, key: ctx.keys.f1read, headers: { authorization: 'Bearer x' } }), expect: { status: 200 } },
  { id: 'A9a', title: "an admin's session (with its CSRF token) changes household settings (admins only, like their keys)", req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', session: ctx.sessions.f1admin, json: { month_start_day: 1 } }), expect: { status: 200 } },
  { id: 'A9a2', title: 'session cookie on GET /family_settings: read by the admin app (budget month), so allowed', req: () => ({ path: '/api/v1/family_settings', session: ctx.sessions.f1admin }), expect: { status: 200 } },
  { id: 'A9b', title: 'session cookie + forged key -> the key is tried and refused', req: () => ({ path: BUDGETS, session: ctx.sessions.f1admin, key: 'hth_forged_x' }), expect: UNAUTHORIZED },
  { id: 'A10a', title: "Sure's demo monitoring key literal", req: { path: BUDGETS, key: 'demo_monitoring_key_sure_2024' }, expect: UNAUTHORIZED },
  { id: 'A11', title: 'per-key rate limit on the API', notRun: 'not applicable: no per-key or per-IP limit on /api/v1 imports and budgets (docs/api/rate-limits.md); the admin and sign-in limits are H93 and I104' },
  {
    id: 'A10b',
    title: 'key list never returns the plaintext key',
    req: () => ({ path: '/api/v1/settings/api_keys', session: ctx.sessions.f1admin }),
    expect: { status: 200 },
    check: (res) => (res.text.includes(ctx.keys.f1rw) || res.text.includes(ctx.keys.f1read) ? 'plaintext key in the list' : null),
  },
  {
    id: 'A10c',
    title: 'API key listing and creation through an API key (not a session) -> 401',
    req: () => ({ method: 'POST', path: '/api/v1/settings/api_keys', key: ctx.keys.f1rw, json: { name: 'via key', scope: 'read_write' } }),
    expect: UNAUTHORIZED,
  },
];
