// H. Local login (POST /sessions) and sessions.
import { cookiesOf } from '../http.mjs';

const INVALID = { status: 401, error: 'invalid_credentials' };

export default (ctx) => {
  const login = (email, password, extra = {}) => ({ method: 'POST', path: '/sessions', json: { email, password }, ...extra });
  const noCookie = (res) => (res.setCookies.some((c) => c.startsWith('hearth_session=')) ? 'a session cookie was set' : null);
  const sameAsUnknown = async (res) => {
    const unknown = await ctx.req(login(`nobody-${ctx.run}@hearth-hostile.test`, 'whatever password'));
    return unknown.text === res.text ? noCookie(res) : `body differs from the unknown-user body: ${res.text} vs ${unknown.text}`;
  };
  const audited = (userId) => async () => {
    const rows = await ctx.q(`SELECT details, provider_name FROM audit_logs WHERE event = 'login_failed' AND user_id = $1`, [userId]);
    return rows.length && rows.every((r) => r.provider_name === 'local') ? null : `login_failed audit rows: ${JSON.stringify(rows).slice(0, 200)}`;
  };
  return [
    {
      id: 'H93b',
      title: '30 failures for one account from 30 client addresses -> per-account throttle (429), audited without the password',
      run: async () => {
        let last;
        for (let i = 0; i < 30; i += 1) {
          ctx.http.ip = `10.93.${Math.floor(i / 200)}.${i + 1}`;
          last = await ctx.req(login(ctx.users.f1throttle.email, ctx.secret(`wrong-${ctx.run}-${i}`, 'wrong password')));
        }
        return last;
      },
      expect: { status: 429, error: 'rate_limit_exceeded' },
      check: async (res) => {
        if (!res.headers.get('retry-after')) return 'no Retry-After';
        const rows = await ctx.q(`SELECT details FROM audit_logs WHERE event = 'login_failed' AND user_id = $1`, [ctx.users.f1throttle.id]);
        if (rows.length < 10) return `only ${rows.length} login_failed rows`;
        return JSON.stringify(rows).includes(`wrong-${ctx.run}`) ? 'password in the audit log' : null;
      },
    },
    {
      id: 'H93c',
      title: 'the throttled account refuses even the right password until the window passes',
      req: () => login(ctx.users.f1throttle.email, ctx.users.f1throttle.password),
      expect: { status: 429, error: 'rate_limit_exceeded' },
    },
    { id: 'H94a', title: 'unknown e-mail', req: () => login(`nobody-${ctx.run}@hearth-hostile.test`, 'whatever password'), expect: INVALID, check: noCookie },
    { id: 'H94b', title: 'wrong password: same body as unknown e-mail, audited', req: () => login(ctx.users.f1member.email, ctx.secret(`not-the-password-${ctx.run}`, 'wrong password')), expect: INVALID, check: async (res) => (await sameAsUnknown(res)) ?? (await audited(ctx.users.f1member.id)()) },
    {
      id: 'H94c',
      title: 'SSO-only user (no password): same body',
      req: () => login(ctx.jitUserEmail ?? `jit-missing-${ctx.run}@allowed.test`, 'some password'),
      expect: INVALID,
      check: async (res) => (ctx.jitUserEmail ? sameAsUnknown(res) : 'no SSO-only user was created by group F'),
    },
    { id: 'H94d', title: 'suspended user with the right password: same body', req: () => login(ctx.users.f1suspend.email, ctx.users.f1suspend.password), expect: INVALID, check: sameAsUnknown },
    { id: 'H94e', title: 'removed user with the right password: same body', req: () => login(ctx.users.f1remove.email, ctx.users.f1remove.password), expect: INVALID, check: sameAsUnknown },
    { id: 'H94f', title: 'e-mail in upper case with spaces signs in', req: () => login(`  ${ctx.users.f1admin.email.toUpperCase()} `, ctx.users.f1admin.password), expect: { status: 201 } },
    { id: 'H94g', title: 'HTML form body signs in', req: () => ({ method: 'POST', path: '/sessions', form: { email: ctx.users.f1admin.email, password: ctx.users.f1admin.password } }), expect: { status: 201 } },
    { id: 'H94h', title: 'missing password', req: () => ({ method: 'POST', path: '/sessions', json: { email: ctx.users.f1admin.email } }), expect: { status: 422, error: 'validation_failed' } },
    { id: 'H94i', title: 'missing e-mail', req: () => ({ method: 'POST', path: '/sessions', json: { password: 'x' } }), expect: { status: 422, error: 'validation_failed' } },
    { id: 'H94j', title: 'password as an object ($ne operator)', req: () => ({ method: 'POST', path: '/sessions', json: { email: ctx.users.f1admin.email, password: { $ne: '' } } }), expect: { status: 422, error: 'validation_failed' } },
    { id: 'H94k', title: 'e-mail as an array', req: () => ({ method: 'POST', path: '/sessions', json: { email: [ctx.users.f1admin.email], password: ctx.users.f1admin.password } }), expect: { status: 422, error: 'validation_failed' } },
    { id: 'H94l', title: 'empty JSON body', req: { method: 'POST', path: '/sessions', json: {} }, expect: { status: 422, error: 'validation_failed' } },
    { id: 'H94m', title: 'e-mail of another family with its password missing a character', req: () => login(ctx.users.f2member.email, ctx.users.f2member.password.slice(0, -1)), expect: INVALID },
    { id: 'H95', title: 'local login disabled / admin override', run: (c) => localLoginDisabled(c), expect: { status: 201 }, check: (res) => res.problem },
    {
      id: 'H96a',
      title: '80-byte password: the first 72 bytes right, the rest wrong -> refused (no bcrypt-style truncation)',
      before: () => {
        ctx.longUser = ctx.createUser({ label: 'f1long', role: 'member', familyName: `Attackers ${ctx.run}` });
      },
      run: async () => {
        const long = ctx.secret(`${'L'.repeat(72)}${ctx.run}`, 'password');
        const out = await ctx.req({ method: 'PUT', path: '/api/v1/me/password', session: await ctx.signIn(ctx.longUser), json: { current_password: ctx.longUser.password, new_password: long } });
        if (out.status !== 204) return out;
        ctx.longUser.password = long;
        return ctx.req(login(ctx.longUser.email, `${'L'.repeat(72)}XXXXXXXX`));
      },
      expect: INVALID,
    },
    { id: 'H96b', title: '1 MB password -> 413/422 without hashing', req: () => login(ctx.users.f1admin.email, 'p'.repeat(1024 * 1024)), expect: { status: [413, 422] } },
    {
      id: 'H97a',
      title: 'session fixation: a planted cookie is not reused; new token at sign-in; HttpOnly, SameSite=Lax',
      run: async () => {
        const planted = 'hearth_session=planted-by-attacker-0123456789';
        const res = await ctx.req({ ...login(ctx.users.f1admin.email, ctx.users.f1admin.password), headers: { cookie: planted } });
        const cookie = res.setCookies.find((c) => c.startsWith('hearth_session='));
        res.problem = !cookie ? 'no session cookie' : cookie.includes('planted-by-attacker') ? 'planted token reused' : !/HttpOnly/i.test(cookie) || !/SameSite=Lax/i.test(cookie) ? `cookie flags: ${cookie}` : null;
        if (cookie) ctx.secret(/hearth_session=([^;]+)/.exec(cookie)[1], 'session token');
        return res;
      },
      expect: { status: 201 },
      check: (res) => res.problem,
    },
    {
      id: 'H97b',
      title: 'logout revokes the server row: the old cookie then gets 401',
      run: async () => {
        const s = await ctx.signIn(ctx.users.f1admin);
        const out = await ctx.req({ method: 'DELETE', path: '/sessions', session: s });
        if (out.status !== 204) return out;
        return ctx.req({ path: '/api/v1/me', session: s });
      },
      expect: { status: 401, error: 'unauthorized' },
    },
    { id: 'H97c', title: 'forged session cookie', req: { path: '/api/v1/me', headers: { cookie: 'hearth_session=forged' } }, expect: { status: 401, error: 'unauthorized' } },
    { id: 'H97d', title: 'two session cookies (one forged, one valid)', req: () => ({ path: '/api/v1/me', headers: { cookie: `hearth_session=forged; ${ctx.sessions.f1member.cookie}` } }), expect: { status: [200, 401] } },
    { id: 'H97e', title: '8 KB session cookie', req: { path: '/api/v1/me', headers: { cookie: `hearth_session=${'s'.repeat(8192)}` } }, expect: { status: 401, error: 'unauthorized' } },
    { id: 'H98a', title: "suspended user's existing session stops working", req: () => ({ path: '/api/v1/me', session: ctx.sessions.f1suspend }), expect: { status: 401, error: 'unauthorized' } },
    { id: 'H98b', title: "suspended user's key stops working", req: () => ({ path: '/api/v1/budgets', key: ctx.keys.f1suspend }), expect: { status: 401, error: 'unauthorized' } },
    { id: 'H99', title: 'MFA-enabled user', notRun: 'not applicable: Hearth has no MFA' },
    { id: 'H100a', title: 'password reset for an unknown address answers like a known one', req: { method: 'POST', path: '/api/v1/auth/password_reset', json: { email: 'nobody@hearth-hostile.test' } }, expect: { status: 202 } },
    { id: 'H100b', title: 'password reset completion with a forged token', req: { method: 'POST', path: '/api/v1/auth/password_reset/complete', json: { token: 'forged-token', password: 'a brand new passphrase' } }, expect: { status: [400, 404, 410, 422] } },
    { id: 'H100c', title: 'password reset completion with an object token', req: { method: 'POST', path: '/api/v1/auth/password_reset/complete', json: { token: { $ne: null }, password: 'a brand new passphrase' } }, expect: { status: 422, error: 'validation_failed' } },
    {
      id: 'H93a',
      title: '11th sign-in attempt within a minute from one address -> 429 + Retry-After; a rotated left-most X-Forwarded-For does not reset it',
      last: true,
      run: async () => {
        const proxy = '10.250.0.1';
        let res;
        for (let i = 0; i < 11; i += 1) res = await ctx.req({ ...login(`nobody${i}-${ctx.run}@hearth-hostile.test`, 'x'), ip: proxy });
        if (res.status !== 429) return res;
        // The client claims another address in front of the same last hop: Express trusts only loopback, so the
        // bucket is the same one.
        const spoofed = await ctx.req({ ...login(`nobody-${ctx.run}@hearth-hostile.test`, 'x'), ip: `1.2.3.4, ${proxy}` });
        spoofed.problem = res.headers.get('retry-after') ? null : 'no Retry-After';
        return spoofed;
      },
      expect: { status: 429, error: 'rate_limit_exceeded' },
      check: (res) => res.problem,
    },
  ];
};

/** H95 on a second server process on the same database with AUTH_LOCAL_LOGIN_ENABLED=false (+ override). */
async function localLoginDisabled(ctx) {
  const problems = [];
  let last;
  await ctx.withServer({ AUTH_LOCAL_LOGIN_ENABLED: 'false', AUTH_LOCAL_ADMIN_OVERRIDE_ENABLED: 'false' }, async (url) => {
    const res = await ctx.req({ url: `${url}/sessions`, method: 'POST', json: { email: ctx.users.f1admin.email, password: ctx.users.f1admin.password } });
    if (res.status !== 403 || res.json?.error !== 'local_login_disabled') problems.push(`disabled: ${res.status} ${res.json?.error}`);
    if (res.setCookies.some((c) => c.startsWith('hearth_session='))) problems.push('disabled: session cookie set');
    const reset = await ctx.req({ url: `${url}/api/v1/auth/password_reset`, method: 'POST', json: { email: ctx.users.f1admin.email } });
    if (reset.status !== 403) problems.push(`password reset while disabled: ${reset.status}`);
  });
  await ctx.withServer({ AUTH_LOCAL_LOGIN_ENABLED: 'false', AUTH_LOCAL_ADMIN_OVERRIDE_ENABLED: 'true' }, async (url) => {
    const member = await ctx.req({ url: `${url}/sessions`, method: 'POST', json: { email: ctx.users.f1admin.email, password: ctx.users.f1admin.password } });
    const wrong = await ctx.req({ url: `${url}/sessions`, method: 'POST', json: { email: ctx.users.f1admin.email, password: 'wrong password here' } });
    if (member.status !== wrong.status || member.text !== wrong.text) problems.push(`override: a non-super-admin with the right password is told apart: ${member.status} ${member.text} vs ${wrong.status} ${wrong.text}`);
    last = await ctx.req({ url: `${url}/sessions`, method: 'POST', json: { email: ctx.users.ops.email, password: ctx.users.ops.password } });
    const token = /hearth_session=([^;]+)/.exec(cookiesOf(last.setCookies))?.[1];
    ctx.secret(token, 'session token (override)');
    ctx.secret(last.json?.user?.csrf_token, 'CSRF token (override)');
    const [row] = await ctx.q(`SELECT details FROM audit_logs WHERE event = 'login' AND user_id = $1 ORDER BY created_at DESC LIMIT 1`, [ctx.users.ops.id]);
    if (!JSON.stringify(row?.details ?? {}).includes('admin_override')) problems.push(`override login not audited as admin_override: ${JSON.stringify(row)}`);
  });
  last.problem = problems.length ? problems.join('; ') : null;
  return last;
}
