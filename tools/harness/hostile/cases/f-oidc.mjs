// F. OIDC and generic OAuth2 against a real oidc-provider driven by the harness. Every refusal must be a 302 to
// /login?error=sso_..., no session cookie, no new user/session/identity row, and a login_failed audit row with a reason.
import { randomBytes, randomUUID } from 'node:crypto';
import { cookiesOf } from '../http.mjs';
import { startIdp } from '../../../../apps/api/test/support/oidc-idp-server.mjs';

const REFUSED = { status: 302, location: /^\/login\?error=sso_[a-z_]+$/ };
const SIGNED_IN = { status: 302, location: /^\/$/ };
const now = () => Math.floor(Date.now() / 1000);

export default (ctx) => {
  const run = ctx.run;
  const dom = ctx.allowedDomain;
  const mail = (name) => `${name}-${run}@${dom}`;
  const names = { corp: `corp-${run}`, other: `other-${run}`, pin: `pin-${run}`, roles: `roles-${run}`, oauth: `oauth-${run}` };
  const f = {}; // idp1, idp2, providers

  async function setupF() {
    if (f.ready) return;
    const secret = ctx.secret(`client-secret-${randomBytes(16).toString('hex')}`, 'client secret');
    f.secret = secret;
    const cb = (name) => `${ctx.appUrl}/auth/${name}/callback`;
    const accounts = {
      happy: { email: mail('happy'), email_verified: true, given_name: 'Hap', groups: ['staff'] },
      alice: { email: mail('alice'), email_verified: true },
      oscar: { email: mail('oscar'), email_verified: true },
      hank: { email: mail('hank'), email_verified: true },
      dup: { email: mail('dup1'), email_verified: true },
      victim: { email: ctx.users.f2member.email, email_verified: true },
      unverified: { email: mail('unverified'), email_verified: false },
      noverified: { email: mail('noverified') },
      strfalse: { email: mail('strfalse'), email_verified: 'false' },
      strtrue: { email: mail('strtrue'), email_verified: 'true' },
    };
    const allowList = [
      ['upper', `u-${run}@${dom.toUpperCase()}`, true],
      ['sub', `u-${run}@sub.${dom}`, false],
      ['suffix', `u-${run}@${dom}.evil.test`, false],
      ['dot', `u-${run}@${dom}.`, false],
      ['space', `u-${run}@${dom} `, false],
      ['evilat', `u-${run}@evil.test@${dom}`, false],
      ['atevil', `u-${run}@${dom}@evil.test`, false],
      ['puny', `u-${run}@xn--llowed-test-xyz.test`, false],
      ['homoglyph', `u-${run}@\u0430llowed.test`, false],
      ['empty', '', false],
      ['array', [`u-${run}@${dom}`], false],
    ];
    for (const [id, email] of allowList) accounts[`dom-${id}`] = { email, email_verified: true };
    for (const [id, groups] of Object.entries({ gstring: 'root', gobject: { root: true }, gmany: Array.from({ length: 10_000 }, (_, i) => `group-${i}`), gcase: ['Root'] })) {
      accounts[id] = { email: mail(id), email_verified: true, groups };
    }
    f.allowList = allowList;
    f.idp1 = await startIdp({
      keys: 2,
      accounts,
      clients: [
        { client_id: 'hearth', client_secret: secret, redirect_uris: [names.corp, names.pin, names.roles].map(cb) },
        { client_id: 'hearth-oauth', client_secret: secret, redirect_uris: [cb(names.oauth)], token_endpoint_auth_method: 'client_secret_basic' },
      ],
    });
    f.idp2 = await startIdp({
      keys: 1,
      accounts: { hank: { email: mail('hank'), email_verified: true }, dup: { email: mail('dup2'), email_verified: true }, single: { email: mail('single'), email_verified: true } },
      clients: [{ client_id: 'hearth', client_secret: secret, redirect_uris: [names.other, names.pin].map(cb) }],
    });
    (ctx.teardown ??= []).push(() => f.idp1.close(), () => f.idp2.close());
    const create = async (body) => {
      const res = await ctx.req({ method: 'POST', path: '/api/v1/admin/sso_providers', session: ctx.sessions.ops, json: { client_secret: secret, scopes: 'openid email profile groups', enabled: true, ...body } });
      if (res.status !== 201) throw new Error(`provider ${body.name}: ${res.status} ${res.text}`);
      return res.json.id;
    };
    f.ids = {
      corp: await create({ name: names.corp, strategy: 'openid_connect', issuer: f.idp1.issuer, client_id: 'hearth' }),
      other: await create({ name: names.other, strategy: 'openid_connect', issuer: f.idp2.issuer, client_id: 'hearth' }),
      pin: await create({ name: names.pin, strategy: 'openid_connect', issuer: f.idp1.issuer, client_id: 'hearth' }),
      roles: await create({
        name: names.roles,
        strategy: 'openid_connect',
        issuer: f.idp1.issuer,
        client_id: 'hearth',
        default_role: 'member',
        role_mapping: { groupMappings: [{ group: 'root', role: 'super_admin' }, { group: 'staff', role: 'member' }] },
      }),
      oauth: await create({
        name: names.oauth,
        strategy: 'oauth2',
        issuer: f.idp1.issuer,
        authorization_url: `${f.idp1.issuer}/auth`,
        token_url: `${f.idp1.issuer}/token`,
        userinfo_url: `${f.idp1.issuer}/me`,
        client_id: 'hearth-oauth',
        token_auth_method: 'client_secret_basic',
        scopes: 'openid email profile',
      }),
    };
    ctx.oidcProviderId = f.ids.corp;
    f.ready = true;
  }

  /** GET /auth/<name>: the redirect to the IdP and the transaction cookie. */
  async function start(name, cookie = '') {
    const res = await ctx.req({ path: `/auth/${name}`, headers: cookie ? { cookie } : {} });
    if (res.status !== 302 || !res.location.startsWith('http')) throw new Error(`GET /auth/${name}: ${res.status} -> ${res.location}`);
    return { url: res.location, cookie: [cookie, cookiesOf(res.setCookies)].filter(Boolean).join('; ') };
  }
  async function finish(path, cookie) {
    const res = await ctx.req({ path, headers: cookie ? { cookie } : {} });
    for (const c of res.setCookies) {
      const token = /^hearth_session=([^;]+)/.exec(c)?.[1];
      if (token) ctx.secret(token, 'session token (SSO)');
      const csrf = /^hearth_csrf=([^;]+)/.exec(c)?.[1];
      if (csrf) ctx.secret(csrf, 'CSRF token (SSO)');
    }
    return res;
  }
  async function sso(name, account, idp = f.idp1) {
    const s = await start(name);
    const back = await idp.login(s.url, account);
    const res = await finish(back.pathname + back.search, s.cookie);
    res.callbackPath = back.pathname + back.search;
    res.txCookie = s.cookie;
    res.authorizationUrl = s.url;
    return res;
  }

  const counts = async () => (await ctx.q(`SELECT (SELECT count(*) FROM users) AS u, (SELECT count(*) FROM sessions) AS s, (SELECT count(*) FROM sso_identities) AS i`))[0];

  /**
   * A refusal case: `act` drives the flow and returns the final callback response; the check adds "nothing was
   * created and the refusal is audited with `reason`".
   */
  const refusal = (id, title, act, reason, provider = 'corp') => ({
    id,
    title,
    before: setupF,
    run: async () => {
      let before = await counts();
      let startedAt = new Date(Date.now() - 1000);
      // Acts that sign in first (to replay it) call mark() once the part that should succeed is done.
      const mark = async () => {
        before = await counts();
        startedAt = new Date(Date.now() - 50);
      };
      let res;
      try {
        res = await act(mark);
      } finally {
        f.idp1?.reset();
        f.idp2?.reset();
      }
      const after = await counts();
      const problems = [];
      if (res.setCookies?.some((c) => c.startsWith('hearth_session='))) problems.push('session cookie set');
      if (JSON.stringify(before) !== JSON.stringify(after)) problems.push(`rows changed ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
      const [audit] = await ctx.q(`SELECT details FROM audit_logs WHERE event = 'login_failed' AND provider_name = $1 AND created_at >= $2 ORDER BY created_at DESC LIMIT 1`, [names[provider], startedAt]);
      const got = `${audit?.details?.reason ?? ''} ${audit?.details?.detail ?? ''}`;
      if (!audit) problems.push('no login_failed audit row');
      else if (reason && !new RegExp(`^(${reason})\\b`).test(got)) problems.push(`audited reason "${got.slice(0, 120)}", expected ${reason}`);
      res.problem = problems.join('; ') || null;
      return res;
    },
    expect: REFUSED,
    check: (res) => res.problem,
  });
  const tampered = (fn, account = 'alice', name = names.corp) => async () => {
    f.idp1.tamperIdToken(fn);
    return sso(name, account);
  };
  const claims = (edit, signer = 'idp') => (jwt) => ({ ...jwt, payload: edit({ ...jwt.payload }), signer });

  const cases = [
    {
      id: 'F59',
      title: 'happy path: code + PKCE S256 + state + nonce, JIT account, session',
      before: setupF,
      run: async () => {
        const res = await sso(names.corp, 'happy');
        const auth = new URL(res.authorizationUrl);
        const p = auth.searchParams;
        res.problem =
          p.get('code_challenge_method') !== 'S256' || !p.get('code_challenge') || !p.get('state') || !p.get('nonce')
            ? `authorization request lacks S256/state/nonce: ${auth.search}`
            : !res.setCookies.some((c) => c.startsWith('hearth_session='))
              ? 'no session'
              : null;
        ctx.jitUserEmail = mail('happy');
        return res;
      },
      expect: SIGNED_IN,
      check: (res) => res.problem,
    },
    refusal('F60a', 'ID token with another iss (validly signed)', tampered(claims((p) => ({ ...p, iss: 'http://evil.example' }))), 'invalid_id_token'),
    refusal('F60b', 'ID token without sub', tampered(claims((p) => { delete p.sub; return p; })), 'invalid_id_token'),
    refusal('F60c', 'ID token for another audience', tampered(claims((p) => ({ ...p, aud: 'someone-else' }))), 'invalid_id_token'),
    refusal('F60c2', 'ID token without aud', tampered(claims((p) => { delete p.aud; return p; })), 'invalid_id_token'),
    refusal('F60d', 'ID token without iat', tampered(claims((p) => { delete p.iat; return p; })), 'invalid_id_token'),
    refusal('F60e', 'alg none', tampered(claims((p) => p, 'none')), 'invalid_id_token'),
    refusal('F60f1', 'RS256 signed by an unknown key, claims all correct', tampered(claims((p) => p, 'attacker')), 'invalid_id_token'),
    refusal('F60f2', 'HS256 signed with a random secret', tampered(claims((p) => p, `hs256:${randomUUID()}`)), 'invalid_id_token'),
    refusal('F60f3', 'HS256 signed with the client secret (alg not configured)', tampered((jwt) => ({ ...jwt, signer: `hs256:${f.secret}` })), 'invalid_id_token'),
    refusal('F60f4', 'ES256 signed by an unknown key', tampered(claims((p) => p, 'es256')), 'invalid_id_token'),
    refusal('F60g', 'kid absent, several keys in the JWKS', tampered((jwt) => { const { kid, ...header } = jwt.header; void kid; return { header, payload: jwt.payload, signer: 'idp' }; }), 'invalid_id_token'),
    {
      id: 'F60g2',
      title: 'kid absent, a single key in the JWKS -> accepted',
      before: setupF,
      run: async () => {
        f.idp2.tamperIdToken((jwt) => { const { kid, ...header } = jwt.header; void kid; return { header, payload: jwt.payload, signer: 'idp' }; });
        try {
          return await sso(names.other, 'single', f.idp2);
        } finally {
          f.idp2.reset();
        }
      },
      expect: SIGNED_IN,
    },
    refusal('F60h', 'nonce of another sign-in', async () => {
      const other = new URL((await start(names.corp)).url).searchParams.get('nonce');
      return tampered(claims((p) => ({ ...p, nonce: other })))();
    }, 'invalid_id_token'),
    refusal('F60h2', 'nonce removed', tampered(claims((p) => { delete p.nonce; return p; })), 'invalid_id_token'),
    refusal('F61a', 'exp 5 minutes in the past', tampered(claims((p) => ({ ...p, iat: now() - 600, exp: now() - 300 }))), 'invalid_id_token'),
    refusal('F61b', 'iat 7 days old (exp still in the future)', tampered(claims((p) => ({ ...p, iat: now() - 7 * 86_400 }))), 'invalid_id_token'),
    refusal('F61c', 'nbf 5 minutes in the future', tampered(claims((p) => ({ ...p, nbf: now() + 300 }))), 'invalid_id_token'),
    refusal('F61d', 'second, untrusted aud without azp', tampered(claims((p) => ({ ...p, aud: ['hearth', 'untrusted-rp'] }))), 'invalid_id_token'),
    refusal('F61e', 'second, untrusted aud with azp = our client', tampered(claims((p) => ({ ...p, aud: ['hearth', 'untrusted-rp'], azp: 'hearth' }))), 'invalid_id_token'),
    {
      id: 'F61f',
      title: 'exp 10 s ago, inside the clock tolerance -> accepted',
      before: setupF,
      run: async () => {
        try {
          return await tampered(claims((p) => ({ ...p, iat: now() - 120, exp: now() - 10 })))();
        } finally {
          f.idp1.reset();
        }
      },
      expect: SIGNED_IN,
    },
    { id: 'F61g', title: 'server clock moved +-90 s', notRun: 'needs an injected clock or faketime around the server process; the harness does not move clocks' },
    refusal('F62', 'HS256 whose HMAC key is the OP RSA public key (algorithm confusion)', tampered((jwt) => ({ ...jwt, signer: `hs256:${JSON.stringify(f.idp1.publicJwk(f.idp1.keys.first))}` })), 'invalid_id_token'),
    refusal('F63a', 'userinfo sub differs from the ID token sub', async () => {
      f.idp1.tamperUserinfo((json) => ({ ...json, sub: 'someone-else' }));
      return sso(names.corp, 'alice');
    }, 'invalid_userinfo|invalid_id_token|userinfo|provider_unavailable|invalid_response'),
    refusal('F63b', 'userinfo answers an HTML 500', async () => {
      f.idp1.tamperUserinfo((_json, response) => {
        response.statusCode = 500;
        response.setHeader('content-type', 'text/html');
        return '<html>boom</html>';
      });
      return sso(names.corp, 'alice');
    }, null),
    {
      id: 'F64a',
      title: 'discovery issuer differs only by a trailing slash -> provider refused at save',
      before: setupF,
      req: () => ({ method: 'POST', path: '/api/v1/admin/sso_providers', session: ctx.sessions.ops, json: { name: `slash-${run}`, strategy: 'openid_connect', issuer: `${f.idp1.issuer}/`, client_id: 'hearth', client_secret: f.secret } }),
      expect: { status: 422, error: 'discovery_failed' },
      actor: 'superAdmin',
    },
    refusal('F64b', 'JWKS answers 500 -> fail closed', async () => {
      f.idp1.state.jwksFails = true;
      return tampered(claims((p) => p, 'rotated'))();
    }, null),
    {
      id: 'F64c',
      title: 'key rotation: a token signed by a new kid published in the JWKS -> refetch, accepted',
      before: setupF,
      last: true, // openid-client refetches a JWKS at most once a minute: run it late, when that minute has passed
      run: async () => {
        // openid-client refetches a JWKS for an unknown kid at most once every 60 s (its rate limit): wait that out.
        const wait = f.idp1.state.lastJwksHit + 61_000 - Date.now();
        if (wait > 0) await ctx.sleep(wait);
        f.idp1.state.extraKeys = [f.idp1.publicJwk(f.idp1.keys.rotated)];
        try {
          return await tampered(claims((p) => p, 'rotated'))();
        } finally {
          f.idp1.reset();
        }
      },
      expect: SIGNED_IN,
    },
    {
      ...refusal('F64d', '5 tokens with random unknown kids: refused, JWKS refetched at most once', async () => {
        const hits = f.idp1.state.jwksHits;
        let res;
        for (let n = 0; n < 5; n += 1) res = await tampered((jwt) => ({ header: { ...jwt.header, kid: randomUUID() }, payload: jwt.payload, signer: 'attacker' }))();
        res.refetches = f.idp1.state.jwksHits - hits;
        return res;
      }, 'invalid_id_token'),
      check: (res) => res.problem ?? (res.refetches > 1 ? `${res.refetches} JWKS refetches for 5 unknown kids` : null),
    },
    refusal('F65a', 'callback without state', () => finish(`/auth/${names.corp}/callback?code=abc`, ''), 'state_missing'),
    refusal('F65b', 'callback with a made-up state', () => finish(`/auth/${names.corp}/callback?code=abc&state=forged`, ''), 'state_invalid'),
    refusal('F65c', 'callback in another browser (no transaction cookie)', async () => {
      const s = await start(names.corp);
      const back = await f.idp1.login(s.url, 'alice');
      return finish(back.pathname + back.search, '');
    }, 'state_browser_mismatch'),
    refusal('F65d', "callback with another browser's transaction cookie", async () => {
      const mine = await start(names.corp);
      const theirs = await start(names.corp);
      const back = await f.idp1.login(mine.url, 'alice');
      return finish(back.pathname + back.search, theirs.cookie);
    }, 'state_browser_mismatch'),
    refusal('F65e', 'state altered by one character', async () => {
      const s = await start(names.corp);
      const back = await f.idp1.login(s.url, 'alice');
      const state = back.searchParams.get('state');
      back.searchParams.set('state', `${state.slice(0, -1)}${state.endsWith('A') ? 'B' : 'A'}`);
      return finish(back.pathname + back.search, s.cookie);
    }, 'state_invalid'),
    refusal('F66a', 'callback replayed (state used once)', async (mark) => {
      const first = await sso(names.corp, 'alice');
      if (first.location !== '/') throw new Error(`first sign-in went to ${first.location}`);
      await mark();
      return finish(first.callbackPath, first.txCookie);
    }, 'state_invalid'),
    refusal('F66b', 'a redeemed code with a fresh transaction: the OP refuses the code', async (mark) => {
      const first = await sso(names.corp, 'alice');
      await mark();
      const code = new URL(first.callbackPath, ctx.appUrl).searchParams.get('code');
      const s = await start(names.corp);
      const state = new URL(s.url).searchParams.get('state');
      return finish(`/auth/${names.corp}/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}&iss=${encodeURIComponent(f.idp1.issuer)}`, s.cookie);
    }, null),
    refusal('F66c', 'callback for provider A with the state minted for provider B (mix-up)', async () => {
      const s = await start(names.other);
      const back = await f.idp2.login(s.url, 'hank');
      return finish(`/auth/${names.corp}/callback${back.search}`, s.cookie);
    }, null),
    refusal('F66d', 'iss response parameter of another authorization server', async () => {
      const s = await start(names.corp);
      const back = await f.idp1.login(s.url, 'alice');
      back.searchParams.set('iss', f.idp2.issuer);
      return finish(back.pathname + back.search, s.cookie);
    }, null),
    {
      ...refusal('F67', 'error=access_denied with a <script> description: not reflected', async () => {
        const s = await start(names.corp);
        const state = new URL(s.url).searchParams.get('state');
        return finish(`/auth/${names.corp}/callback?error=access_denied&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E&state=${state}&iss=${encodeURIComponent(f.idp1.issuer)}`, s.cookie);
      }, 'provider_error'),
      expect: { status: 302, location: /^\/login\?error=sso_failed$/ },
    },
    {
      id: 'F68',
      title: 'identity made with issuer A, provider switched to issuer B under the same name -> issuer_mismatch',
      before: setupF,
      run: async () => {
        const first = await sso(names.pin, 'hank');
        if (first.location !== '/') return first;
        const patched = await ctx.req({ method: 'PATCH', path: `/api/v1/admin/sso_providers/${f.ids.pin}`, session: ctx.sessions.ops, json: { issuer: f.idp2.issuer, client_secret: '' } });
        if (patched.status !== 200) return patched;
        const startedAt = new Date(Date.now() - 1000);
        const res = await sso(names.pin, 'hank', f.idp2);
        const [audit] = await ctx.q(`SELECT details FROM audit_logs WHERE event = 'login_failed' AND provider_name = $1 AND created_at >= $2`, [names.pin, startedAt]);
        res.problem = audit?.details?.reason === 'issuer_mismatch' ? null : `audit ${JSON.stringify(audit?.details)}`;
        return res;
      },
      expect: REFUSED,
      check: (res) => res.problem,
    },
    {
      id: 'F69',
      title: "IdP e-mail equal to a local user's (the victim's) -> link page, no session, wrong password does not link",
      before: setupF,
      run: async () => {
        const res = await sso(names.corp, 'victim');
        if (res.location !== '/sso/link') return res;
        const cookie = res.txCookie;
        const link = await ctx.req({ method: 'POST', path: '/auth/link', headers: { cookie }, json: { password: 'not the victim password' } });
        res.problem = res.setCookies.some((c) => c.startsWith('hearth_session=')) ? 'session cookie set' : link.status !== 401 ? `link with a wrong password: ${link.status}` : null;
        return res;
      },
      expect: { status: 302, location: /^\/sso\/link$/ },
      check: (res) => res.problem,
    },
    refusal('F70a', 'email_verified false', () => sso(names.corp, 'unverified'), 'email_unverified'),
    refusal('F70b', 'email_verified absent', () => sso(names.corp, 'noverified'), 'email_unverified'),
    refusal('F70c', 'email_verified "false" (string)', () => sso(names.corp, 'strfalse'), 'email_unverified'),
    refusal('F70d', 'email_verified "true" (string) -> refused (decided)', () => sso(names.corp, 'strtrue'), 'email_unverified'),
    ...['upper', 'sub', 'suffix', 'dot', 'space', 'evilat', 'atevil', 'puny', 'homoglyph', 'empty', 'array'].map((variant, n) =>
      variant === 'upper'
        ? { id: 'F71a', title: `allow-list ${dom}: u@${dom.toUpperCase()} -> account created`, before: setupF, run: () => sso(names.corp, 'dom-upper'), expect: SIGNED_IN }
        : refusal(`F71${String.fromCharCode(97 + n)}`, `allow-list ${dom}: e-mail variant "${variant}" -> refused`, () => sso(names.corp, `dom-${variant}`), 'domain_not_allowed|email_missing|email_unverified|invalid_email'),
    ),
    ...[
      ['F72a', 'gstring', 'groups as the string "root" -> one group, mapped', 'super_admin'],
      ['F72b', 'gobject', 'groups as an object -> ignored, no elevation', null],
      ['F72c', 'gmany', 'groups with 10,000 entries -> bounded, no elevation', null],
      ['F72d', 'gcase', 'groups ["Root"] vs mapping "root" -> case-sensitive, no elevation', null],
    ].map(([id, account, title, role]) => ({
      id,
      title,
      before: setupF,
      run: async () => {
        const res = await sso(names.roles, account);
        const [u] = await ctx.q(`SELECT role FROM users WHERE email = $1`, [mail(account)]);
        res.problem = role ? (u?.role === role ? null : `role ${u?.role}`) : u && u.role === 'super_admin' ? 'elevated to super_admin' : null;
        return res;
      },
      expect: { status: 302, location: /^(\/|\/login\?error=sso_[a-z_]+)$/ },
      check: (res) => res.problem,
    })),
    {
      id: 'F73a',
      title: 'generic OAuth2: userinfo id numeric instead of sub -> one identity keyed by the string id',
      before: setupF,
      run: async () => {
        f.idp1.tamperUserinfo((json) => {
          const { sub, ...rest } = json;
          void sub;
          return { ...rest, id: 424242 };
        });
        try {
          const res = await sso(names.oauth, 'oscar');
          const rows = await ctx.q(`SELECT uid FROM sso_identities WHERE provider_id = $1`, [f.ids.oauth]);
          res.problem = rows.length === 1 && rows[0].uid === '424242' ? null : `identities ${JSON.stringify(rows)}`;
          return res;
        } finally {
          f.idp1.reset();
        }
      },
      expect: SIGNED_IN,
      check: (res) => res.problem,
    },
    {
      id: 'F73b',
      title: 'two providers returning the same sub -> two distinct identities and users',
      before: setupF,
      run: async () => {
        const a = await sso(names.corp, 'dup');
        if (a.location !== '/') return a;
        const b = await sso(names.other, 'dup', f.idp2);
        const rows = await ctx.q(`SELECT provider_id, user_id FROM sso_identities WHERE uid = 'dup' AND provider_id = ANY($1)`, [[f.ids.corp, f.ids.other]]);
        b.problem = rows.length === 2 && rows[0].user_id !== rows[1].user_id ? null : `identities ${JSON.stringify(rows)}`;
        return b;
      },
      expect: SIGNED_IN,
      check: (res) => res.problem,
    },
    refusal('F74', 'provider disabled between start and callback', async () => {
      const s = await start(names.corp);
      const back = await f.idp1.login(s.url, 'alice');
      const off = await ctx.req({ method: 'POST', path: `/api/v1/admin/sso_providers/${f.ids.corp}/disable`, session: ctx.sessions.ops });
      if (off.status !== 200) throw new Error(`disable: ${off.status}`);
      try {
        return await finish(back.pathname + back.search, s.cookie);
      } finally {
        await ctx.req({ method: 'POST', path: `/api/v1/admin/sso_providers/${f.ids.corp}/enable`, session: ctx.sessions.ops });
      }
    }, 'provider_disabled|provider_unknown|provider_unavailable'),
    refusal('F75', 'token endpoint never answers -> failure within the configured timeout', async () => {
      const s = await start(names.corp);
      const back = await f.idp1.login(s.url, 'alice');
      f.idp1.state.hangToken = true;
      return finish(back.pathname + back.search, s.cookie);
    }, null),
    {
      id: 'F76a',
      title: '1 MB ID token -> accepted or refused, never 5xx',
      before: setupF,
      run: async () => {
        try {
          return await tampered(claims((p) => ({ ...p, padding: 'p'.repeat(1024 * 1024) })))();
        } finally {
          f.idp1.reset();
        }
      },
      expect: { status: 302, location: /^(\/|\/login\?error=sso_[a-z_]+)$/ },
    },
    {
      id: 'F76b',
      title: 'ID token with 5,000 claims -> accepted or refused, never 5xx',
      before: setupF,
      run: async () => {
        try {
          return await tampered(claims((p) => ({ ...p, ...Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`c${i}`, i])) })))();
        } finally {
          f.idp1.reset();
        }
      },
      expect: { status: 302, location: /^(\/|\/login\?error=sso_[a-z_]+)$/ },
    },
  ];
  return cases;
};
