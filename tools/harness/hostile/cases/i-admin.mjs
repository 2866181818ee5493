// I. Admin screens, CSRF, rate limits.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

const FORBIDDEN = { status: 403, error: 'forbidden' };
const UNAUTHORIZED = { status: 401, error: 'unauthorized' };

export default (ctx) => {
  const provider = () => ctx.oidcProviderId ?? randomUUID();
  const adminCalls = [
    ['providers list', 'GET', '/api/v1/admin/sso_providers'],
    ['provider show', 'GET', () => `/api/v1/admin/sso_providers/${provider()}`],
    ['provider create', 'POST', '/api/v1/admin/sso_providers', { name: `evil-${ctx.run}`, strategy: 'oauth2', client_id: 'x', client_secret: 'y', authorization_url: 'https://a.example/auth', token_url: 'https://a.example/token' }],
    ['provider update', 'PATCH', () => `/api/v1/admin/sso_providers/${provider()}`, { label: 'pwned' }],
    ['provider enable', 'POST', () => `/api/v1/admin/sso_providers/${provider()}/enable`],
    ['provider disable', 'POST', () => `/api/v1/admin/sso_providers/${provider()}/disable`],
    ['provider delete', 'DELETE', () => `/api/v1/admin/sso_providers/${provider()}`],
    ['audit log', 'GET', '/api/v1/admin/audit_logs'],
  ];
  const userCalls = [
    ['users list', 'GET', '/api/v1/admin/users'],
    ['user role change', 'PATCH', () => `/api/v1/admin/users/${ctx.users.f1admin.id}`, { role: 'super_admin' }],
    ['user suspend', 'POST', () => `/api/v1/admin/users/${ctx.users.f1admin.id}/suspend`],
    ['user history', 'GET', () => `/api/v1/admin/users/${ctx.users.f1admin.id}/auth_history`],
  ];
  const call = ([, method, path, json], extra) => ({ method, path: typeof path === 'function' ? path() : path, json: method === 'GET' ? undefined : json ?? {}, ...extra });
  const cases = [];
  let i = 0;
  for (const c of adminCalls) {
    i += 1;
    cases.push({ id: `I100m${i}`, title: `member: ${c[0]} -> 403`, req: () => call(c, { session: ctx.sessions.f1member }), expect: FORBIDDEN });
    cases.push({ id: `I100a${i}`, title: `family admin: ${c[0]} -> 403 (super_admin only)`, req: () => call(c, { session: ctx.sessions.f1admin }), expect: FORBIDDEN });
    cases.push({ id: `I100n${i}`, title: `anonymous: ${c[0]} -> 401`, req: () => call(c, {}), expect: UNAUTHORIZED });
    cases.push({ id: `I100k${i}`, title: `API key (read_write, admin): ${c[0]} -> 401 (sessions only)`, req: () => call(c, { key: ctx.keys.f1rw }), expect: UNAUTHORIZED });
  }
  for (const c of userCalls) {
    i += 1;
    cases.push({ id: `I100m${i}`, title: `member: ${c[0]} -> 403`, req: () => call(c, { session: ctx.sessions.f1member }), expect: FORBIDDEN });
    cases.push({ id: `I100n${i}`, title: `anonymous: ${c[0]} -> 401`, req: () => call(c, {}), expect: UNAUTHORIZED });
  }
  cases.push(
    { id: 'I100s1', title: 'super_admin: providers list -> 200', req: () => ({ path: '/api/v1/admin/sso_providers', session: ctx.sessions.ops }), expect: { status: 200 }, actor: 'superAdmin' },
    { id: 'I100s2', title: 'super_admin: audit log -> 200', req: () => ({ path: '/api/v1/admin/audit_logs?per_page=5', session: ctx.sessions.ops }), expect: { status: 200 }, actor: 'superAdmin' },
    { id: 'I100s3', title: 'super_admin: users list -> 200', req: () => ({ path: '/api/v1/admin/users?per_page=5', session: ctx.sessions.ops }), expect: { status: 200 }, actor: 'superAdmin' },
    { id: 'I100s4', title: 'family admin: own family users -> 200, no F2 user', req: () => ({ path: '/api/v1/admin/users?per_page=100', session: ctx.sessions.f1admin }), expect: { status: 200 } },
    { id: 'I100x', title: 'first-run setup after users exist -> refused', req: () => ({ method: 'POST', path: '/api/v1/auth/setup', json: { email: `setup-${ctx.run}@hearth-hostile.test`, password: 'a long enough passphrase', family_name: 'Takeover' } }), expect: { status: [403, 409] } },
    // null in an optional field: refused naming it, or taken as absent (budgets: null un-initializes); never a 500.
    { id: 'I100y', title: 'first-run setup with currency null (users exist) -> 422 naming currency', req: () => ({ method: 'POST', path: '/api/v1/auth/setup', json: { email: `setup-null-${ctx.run}@hearth-hostile.test`, password: 'a long enough passphrase', family_name: 'Nulls', currency: null } }), expect: { status: 422, error: 'validation_failed' }, check: (res) => (res.json?.errors?.some((e) => e.startsWith('currency ')) ? null : 'currency not named') },
    { id: 'I100y2', title: 'first-run setup with currency XYZ (not ISO 4217) -> 422 naming currency', req: () => ({ method: 'POST', path: '/api/v1/auth/setup', json: { email: `setup-xyz-${ctx.run}@hearth-hostile.test`, password: 'a long enough passphrase', family_name: 'Nulls', currency: 'XYZ' } }), expect: { status: 422, error: 'validation_failed' } },
    ...['name', 'currency', 'locale', 'date_format', 'timezone', 'month_start_day'].map((field, n) => ({
      id: `I100z${n + 1}`,
      title: `household settings ${field}: null -> 422 naming it`,
      req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', key: ctx.keys.f1rw, json: { [field]: null } }),
      expect: { status: 422, error: 'validation_failed' },
      check: (res) => (res.json?.errors?.some((e) => e.startsWith(`${field} `)) ? null : `${field} not named`),
    })),
    { id: 'I100z7', title: 'household settings currency XYZ (not ISO 4217) -> 422', req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', key: ctx.keys.f1rw, json: { currency: 'XYZ' } }), expect: { status: 422, error: 'validation_failed' } },
    ...['budgeted_spending', 'expected_income'].map((field, n) => ({
      id: `I100b${n + 1}`,
      title: `budget ${field}: null -> 200 (un-initializes), never 500`,
      req: () => ({ method: 'PATCH', path: `/api/v1/budgets/${ctx.f1ids.budgets[0] ?? randomUUID()}`, key: ctx.keys.f1rw, json: { [field]: null } }),
      expect: { status: [200, 404] },
    })),
    { id: 'I100b3', title: 'budget amount 12.345 USD (more decimals than the currency) -> 422', req: () => ({ method: 'PATCH', path: `/api/v1/budgets/${ctx.f1ids.budgets[0] ?? randomUUID()}`, key: ctx.keys.f1rw, json: { budgeted_spending: '12.345' } }), expect: { status: [422, 404] } },
    { id: 'I100b4', title: 'new budget with start_date null -> 422 naming it', req: () => ({ method: 'POST', path: '/api/v1/budgets', key: ctx.keys.f1rw, json: { start_date: null } }), expect: { status: 422, error: 'validation_failed' } },
    { id: 'I101a', title: 'super_admin changing own role', req: () => ({ method: 'PATCH', path: `/api/v1/admin/users/${ctx.users.ops.id}`, session: ctx.sessions.ops, json: { role: 'member' } }), expect: { status: 403, error: 'own_account' }, actor: 'superAdmin' },
    { id: 'I101b', title: 'super_admin suspending self', req: () => ({ method: 'POST', path: `/api/v1/admin/users/${ctx.users.ops.id}/suspend`, session: ctx.sessions.ops }), expect: { status: 403, error: 'own_account' }, actor: 'superAdmin' },
    { id: 'I101c', title: 'family admin granting super_admin to a member', req: () => ({ method: 'PATCH', path: `/api/v1/admin/users/${ctx.users.f1member.id}`, session: ctx.sessions.f1admin, json: { role: 'super_admin' } }), expect: FORBIDDEN },
    { id: 'I101d', title: 'family admin demoting the super admin of another family', req: () => ({ method: 'PATCH', path: `/api/v1/admin/users/${ctx.users.ops.id}`, session: ctx.sessions.f1admin, json: { role: 'member' } }), expect: { status: 404, error: 'record_not_found' } },
    { id: 'I101e', title: 'admin of F1 changing the role of an F2 user', req: () => ({ method: 'PATCH', path: `/api/v1/admin/users/${ctx.users.f2member.id}`, session: ctx.sessions.f1admin, json: { role: 'admin' } }), expect: { status: 404, error: 'record_not_found' } },
    { id: 'I101f', title: 'admin of F1 suspending an F2 user', req: () => ({ method: 'POST', path: `/api/v1/admin/users/${ctx.users.f2admin.id}/suspend`, session: ctx.sessions.f1admin }), expect: { status: 404, error: 'record_not_found' } },
    { id: 'I101g', title: 'admin of F1 removing an F2 user (with the right confirmation)', req: () => ({ method: 'DELETE', path: `/api/v1/admin/users/${ctx.users.f2member.id}`, session: ctx.sessions.f1admin, json: { confirmation_email: ctx.users.f2member.email } }), expect: { status: 404, error: 'record_not_found' } },
    { id: 'I101h', title: 'remove with a wrong confirmation e-mail', req: () => ({ method: 'DELETE', path: `/api/v1/admin/users/${ctx.users.f1member.id}`, session: ctx.sessions.f1admin, json: { confirmation_email: 'someone@else.test' } }), expect: { status: 422, error: 'confirmation_mismatch' } },
    { id: 'I101i', title: 'unknown role value', req: () => ({ method: 'PATCH', path: `/api/v1/admin/users/${ctx.users.f1member.id}`, session: ctx.sessions.f1admin, json: { role: 'owner' } }), expect: { status: 422, error: 'validation_failed' } },
    { id: 'I101j', title: 'user id not a UUID', req: () => ({ method: 'PATCH', path: '/api/v1/admin/users/1%20OR%201=1', session: ctx.sessions.f1admin, json: { role: 'member' } }), expect: { status: 404, error: 'record_not_found' } },
    {
      id: 'I101k',
      title: "family admin reactivating a user a super admin suspended -> 403, still suspended",
      // f1suspend was suspended by f1admin in setup; here as if by the super admin.
      before: () => ctx.q(`UPDATE users SET suspended_by_role = 'super_admin' WHERE id = $1`, [ctx.users.f1suspend.id]),
      req: () => ({ method: 'POST', path: `/api/v1/admin/users/${ctx.users.f1suspend.id}/reactivate`, session: ctx.sessions.f1admin }),
      expect: { status: 403, error: 'suspended_by_super_admin' },
      check: async () => {
        const [u] = await ctx.q(`SELECT status FROM users WHERE id = $1`, [ctx.users.f1suspend.id]);
        return u.status === 'suspended' ? null : `status ${u.status}`;
      },
    },
    {
      id: 'I102',
      title: 'mass assignment on PATCH /admin/users/{id}: only role is applied',
      req: () => ({
        method: 'PATCH',
        path: `/api/v1/admin/users/${ctx.users.f1member.id}`,
        session: ctx.sessions.f1admin,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ role: 'member', family_id: ctx.f2, email: `hijack-${ctx.run}@evil.test`, password_hash: 'x', status: 'active', id: randomUUID() }).replace('{', '{"__proto__":{"role":"super_admin"},'),
      }),
      expect: { status: 200 },
      check: async () => {
        const [u] = await ctx.q(`SELECT family_id, email, role, password_hash FROM users WHERE id = $1`, [ctx.users.f1member.id]);
        return u.family_id === ctx.f1 && u.email === ctx.users.f1member.email && u.role === 'member' && u.password_hash !== 'x' ? null : `user changed: ${JSON.stringify({ ...u, password_hash: u.password_hash === 'x' })}`;
      },
    },
    { id: 'I102b', title: 'mass assignment on family settings: id and created_at ignored', req: () => ({ method: 'PATCH', path: '/api/v1/family_settings', key: ctx.keys.f1rw, json: { id: ctx.f2, created_at: '2000-01-01T00:00:00Z' } }), expect: { status: 200 }, check: async (res) => (res.json?.id === ctx.f1 ? null : `id ${res.json?.id}`) },
    { id: 'I103a', title: 'cross-site form POST with the victim cookie, no CSRF token', req: () => ({ method: 'POST', path: '/api/v1/settings/api_keys', session: ctx.sessions.f1admin, csrf: false, headers: { origin: 'https://evil.example' }, form: { name: 'stolen', scope: 'read_write' } }), expect: { status: 403, error: 'csrf_failed' } },
    { id: 'I103b', title: 'cross-site text/plain POST with the cookie', req: () => ({ method: 'POST', path: '/api/v1/settings/api_keys', session: ctx.sessions.f1admin, csrf: false, headers: { origin: 'https://evil.example', 'content-type': 'text/plain' }, body: '{"name":"stolen","scope":"read_write"}' }), expect: { status: [403, 415] } },
    { id: 'I103c', title: 'cross-site PATCH with the cookie and even the right token', req: () => ({ method: 'PATCH', path: `/api/v1/admin/users/${ctx.users.f1member.id}`, session: ctx.sessions.f1admin, headers: { origin: 'https://evil.example' }, json: { role: 'admin' } }), expect: { status: 403, error: 'csrf_failed' } },
    { id: 'I103d', title: 'same-origin DELETE without the CSRF token', req: () => ({ method: 'DELETE', path: `/api/v1/admin/users/${ctx.users.f1member.id}`, session: ctx.sessions.f1admin, csrf: false, json: { confirmation_email: ctx.users.f1member.email } }), expect: { status: 403, error: 'csrf_failed' } },
    { id: 'I103e', title: 'Origin: null (sandboxed iframe) with the cookie', req: () => ({ method: 'POST', path: '/api/v1/settings/api_keys', session: ctx.sessions.f1admin, headers: { origin: 'null' }, json: { name: 'n', scope: 'read' } }), expect: { status: 403, error: 'csrf_failed' } },
    { id: 'I103f', title: 'Sec-Fetch-Site: cross-site with the token', req: () => ({ method: 'POST', path: '/api/v1/settings/api_keys', session: ctx.sessions.f1admin, headers: { 'sec-fetch-site': 'cross-site' }, json: { name: 'n', scope: 'read' } }), expect: { status: 403, error: 'csrf_failed' } },
    { id: 'I103g', title: "another session's CSRF token", req: () => ({ method: 'POST', path: '/api/v1/settings/api_keys', session: { cookie: ctx.sessions.f1admin.cookie, csrf: ctx.sessions.f1member.csrf }, json: { name: 'n', scope: 'read' } }), expect: { status: 403, error: 'csrf_failed' } },
    { id: 'I103h', title: 'GET never changes state: GET on a suspend route', req: () => ({ path: `/api/v1/admin/users/${ctx.users.f1member.id}/suspend`, session: ctx.sessions.f1admin }), expect: { status: 404 }, check: async () => ((await ctx.q(`SELECT status FROM users WHERE id = $1`, [ctx.users.f1member.id]))[0].status === 'active' ? null : 'user suspended by a GET') },
    { id: 'I103i', title: 'GET /auth/logout does not sign out', req: () => ({ path: '/auth/logout', session: ctx.sessions.f1member }), expect: { status: [302, 404] }, check: async () => ((await ctx.req({ path: '/api/v1/me', session: ctx.sessions.f1member })).status === 200 ? null : 'session ended by a GET') },
    { id: 'I103j', title: 'cross-site sign-out (DELETE /sessions) without token', req: () => ({ method: 'DELETE', path: '/sessions', session: ctx.sessions.f1member, csrf: false, headers: { origin: 'https://evil.example' } }), expect: { status: 403, error: 'csrf_failed' } },
    ...[
      ['I105a', 'http://169.254.169.254/latest/meta-data/'],
      ['I105b', 'http://127.0.0.1:6379/'],
      ['I105c', 'file:///etc/passwd'],
      ['I105d', 'gopher://127.0.0.1:6379/_INFO'],
      ['I105e', 'http://[::1]:5432/'],
      ['I105f', 'REDIRECTOR'],
    ].map(([id, issuer]) => ({
      id,
      title: `provider issuer ${issuer === 'REDIRECTOR' ? 'that redirects to 169.254.169.254' : issuer} -> refused, nothing saved`,
      run: async () => {
        let target = issuer;
        let redirector;
        if (issuer === 'REDIRECTOR') {
          redirector = createServer((req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end());
          await new Promise((resolve) => redirector.listen(0, '127.0.0.1', resolve));
          target = `http://127.0.0.1:${redirector.address().port}`;
        }
        try {
          return await ctx.req({ method: 'POST', path: '/api/v1/admin/sso_providers', session: ctx.sessions.ops, json: { name: `ssrf-${id.toLowerCase()}-${ctx.run}`, strategy: 'openid_connect', issuer: target, client_id: 'c', client_secret: ctx.secret(`ssrf-secret-${ctx.run}`, 'client secret') }, timeoutMs: 60_000 });
        } finally {
          redirector?.closeAllConnections();
          redirector?.close();
        }
      },
      expect: { status: 422 },
      actor: 'superAdmin',
      check: async () => ((await ctx.q(`SELECT count(*)::int AS n FROM sso_providers WHERE name = $1`, [`ssrf-${id.toLowerCase()}-${ctx.run}`]))[0].n ? 'provider saved' : null),
    })),
    {
      id: 'I106a',
      title: 'provider label with HTML is returned as data (JSON), never the client secret',
      run: async () => {
        const secret = ctx.secret(`xss-secret-${randomUUID()}`, 'client secret');
        const res = await ctx.req({ method: 'POST', path: '/api/v1/admin/sso_providers', session: ctx.sessions.ops, json: { name: `xss-${ctx.run}`, label: '<img src=x onerror=alert(1)>', strategy: 'oauth2', client_id: 'x', client_secret: secret, authorization_url: 'https://idp.example/auth', token_url: 'https://idp.example/token', userinfo_url: 'https://idp.example/me' } });
        if (res.status !== 201) return res;
        ctx.xssProvider = res.json.id;
        const reads = [
          await ctx.req({ path: '/api/v1/admin/sso_providers', session: ctx.sessions.ops }),
          await ctx.req({ path: `/api/v1/admin/sso_providers/${res.json.id}`, session: ctx.sessions.ops }),
          await ctx.req({ path: '/api/v1/auth/config' }),
        ];
        res.problem = [res, ...reads].some((r) => r.text.includes(secret)) ? 'client secret returned' : reads.some((r) => !(r.headers.get('content-type') ?? '').includes('application/json')) ? 'not JSON' : null;
        return res;
      },
      expect: { status: 201 },
      actor: 'superAdmin',
      check: (res) => res.problem,
    },
    { id: 'I106b', title: 'provider authorization_url javascript: -> refused', req: () => ({ method: 'POST', path: '/api/v1/admin/sso_providers', session: ctx.sessions.ops, json: { name: `js-${ctx.run}`, strategy: 'oauth2', client_id: 'x', client_secret: 'y-secret-value', authorization_url: 'javascript:alert(1)', token_url: 'https://idp.example/token' } }), expect: { status: 422 }, actor: 'superAdmin' },
    {
      id: 'I106c',
      title: 'blank client_secret on update keeps the old one',
      run: async () => {
        const before = (await ctx.q(`SELECT client_secret_encrypted FROM sso_providers WHERE id = $1`, [ctx.xssProvider]))[0]?.client_secret_encrypted;
        const res = await ctx.req({ method: 'PATCH', path: `/api/v1/admin/sso_providers/${ctx.xssProvider}`, session: ctx.sessions.ops, json: { client_secret: '', label: 'Renamed' } });
        const after = (await ctx.q(`SELECT client_secret_encrypted FROM sso_providers WHERE id = $1`, [ctx.xssProvider]))[0]?.client_secret_encrypted;
        res.problem = before && before === after ? null : 'secret changed or missing';
        return res;
      },
      expect: { status: 200 },
      actor: 'superAdmin',
      check: (res) => res.problem,
    },
    { id: 'I106d', title: 'provider name with a path (../admin)', req: () => ({ method: 'POST', path: '/api/v1/admin/sso_providers', session: ctx.sessions.ops, json: { name: '../admin', strategy: 'oauth2', client_id: 'x', client_secret: 'y-secret-value', authorization_url: 'https://idp.example/auth', token_url: 'https://idp.example/token' } }), expect: { status: 422, error: 'validation_failed' }, actor: 'superAdmin' },
    {
      id: 'I107a',
      title: 'CRLF and 10 KB user agents are stored cleaned and bounded',
      run: async () => {
        // fetch refuses CR/LF in header values (so does Node's HTTP parser); a tab and 10 KB get through.
        const res = await ctx.req({ method: 'POST', path: '/sessions', headers: { 'user-agent': `evil\tinjected ${'u'.repeat(10_000)}` }, json: { email: ctx.users.f1member.email, password: 'definitely wrong' } });
        const [row] = await ctx.q(`SELECT user_agent FROM audit_logs WHERE event = 'login_failed' AND user_id = $1 ORDER BY created_at DESC LIMIT 1`, [ctx.users.f1member.id]);
        res.problem = !row ? 'no audit row' : row.user_agent && (row.user_agent.length > 1000 || /[\t\r\n]/.test(row.user_agent)) ? `user agent stored as ${row.user_agent.length} chars with control characters: ${/[\t\r\n]/.test(row.user_agent)}` : null;
        return res;
      },
      expect: { status: 401, error: 'invalid_credentials' },
      check: (res) => res.problem,
    },
    {
      id: 'I107b',
      title: 'callback of an unknown provider with a spoofed name: audit provider field only from known providers',
      run: async () => {
        const spoof = `<script>x</script>${ctx.run}`;
        const res = await ctx.req({ path: `/auth/${encodeURIComponent(spoof)}/callback?code=x&state=y&strategy=saml` });
        const rows = await ctx.q(`SELECT provider_name FROM audit_logs WHERE provider_name LIKE $1`, [`%${ctx.run}%script%`]);
        res.problem = rows.length ? `spoofed provider name stored: ${rows[0].provider_name}` : null;
        return res;
      },
      expect: { status: 302, location: /^\/login\?error=sso_[a-z_]+$/ },
      check: (res) => res.problem,
    },
    { id: 'I107c', title: 'audit rows not editable: PATCH', req: () => ({ method: 'PATCH', path: `/api/v1/admin/audit_logs/${randomUUID()}`, session: ctx.sessions.ops, json: { event: 'login' } }), expect: { status: 404 }, actor: 'superAdmin' },
    { id: 'I107d', title: 'audit rows not deletable: DELETE', req: () => ({ method: 'DELETE', path: '/api/v1/admin/audit_logs', session: ctx.sessions.ops }), expect: { status: 404 }, actor: 'superAdmin' },
    { id: 'I107e', title: 'audit log filter with SQL in it', req: () => ({ path: "/api/v1/admin/audit_logs?event=login'%20OR%201=1--&provider=x'--", session: ctx.sessions.ops }), expect: { status: 422, error: 'validation_failed' }, actor: 'superAdmin' },
    {
      id: 'I104',
      title: '11th admin change in a minute from one address -> 429 + Retry-After; rotating the client part of X-Forwarded-For does not reset it',
      last: true,
      run: async () => {
        const proxyHop = '10.251.0.1';
        // Changes count against the limit (reads have a budget of their own); a change of a user that is not there
        // counts as well, and changes nothing.
        const change = (ip) => ({ method: 'PATCH', path: `/api/v1/admin/users/${randomUUID()}`, json: { role: 'member' }, session: ctx.sessions.f1admin, ip });
        let res;
        for (let n = 0; n < 11; n += 1) res = await ctx.req(change(proxyHop));
        if (res.status !== 429) return res;
        const problem = res.headers.get('retry-after') ? null : 'no Retry-After';
        const rotated = await ctx.req(change(`203.0.113.${Math.floor(Math.random() * 200) + 1}, ${proxyHop}`));
        rotated.problem = problem;
        return rotated;
      },
      expect: { status: 429, error: 'rate_limit_exceeded' },
      check: (res) => res.problem,
    },
  );
  return cases;
};
