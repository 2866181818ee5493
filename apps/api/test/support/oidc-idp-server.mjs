/* global URLSearchParams */
// A real OpenID Provider (oidc-provider) in-process over http on 127.0.0.1 and a random port, shared by the API and
// browser tests (through the typed oidc-idp.ts) and the hostile harness's group F. Sign-in is driven over HTTP by
// `login()` the way a browser follows the redirects, or in a browser through the login form at /interaction/<uid>.
// Hooks make it misbehave on purpose: rewrite and re-sign the ID token of token responses, rewrite user info,
// publish extra JWKS keys, fail JWKS, hang the token endpoint or answer it with anything (a 500 page).
import { createHmac, createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const b64 = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function decodeJwt(jwt) {
  const [header, payload] = jwt.split('.');
  return { header: JSON.parse(Buffer.from(header, 'base64url').toString()), payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) };
}

const rsaJwk = (alg = 'RS256') => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg, use: 'sig' };
};
const publicJwk = ({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub }) => pub;
const escapeHtml = (value) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * startIdp({ clients, accounts, keys = 1 })
 * `keys`: how many RS256 keys the provider publishes (the first one signs).
 */
export async function startIdp({ clients, accounts, keys = 1 }) {
  const jwks = Array.from({ length: keys }, () => rsaJwk());
  const attacker = rsaJwk();
  const rotated = rsaJwk();
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const state = { tamper: null, userinfo: null, extraKeys: [], jwksFails: false, hangToken: false, tokenAnswer: null, jwksHits: 0, lastJwksHit: 0, hung: [] };

  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;

  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({ token_endpoint_auth_method: 'client_secret_post', grant_types: ['authorization_code'], response_types: ['code'], ...c })),
    jwks: { keys: jwks },
    cookies: { keys: [randomUUID()] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'], groups: ['groups'] },
    // Scope claims in the ID token too, as most real providers do.
    conformIdTokenClaims: false,
    findAccount: async (_ctx, id) => {
      const account = accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => {
          const claims = { ...account, sub: account.sub ?? id };
          for (const key of Object.keys(claims)) if (claims[key] === undefined) delete claims[key];
          return claims;
        },
      };
    },
    // First-party test clients: consent is implied, so the only interaction is the login form.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile groups');
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.body = `<!DOCTYPE html><html><body>${form}<button form="op.logoutForm" name="logout" value="yes">Sign out</button></body></html>`;
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.body = '<!DOCTYPE html><html><body>Signed out</body></html>';
        },
      },
    },
    pkce: { required: () => true },
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Grant: 3600, Session: 3600 },
  });
  provider.on('server_error', () => undefined);
  const callback = provider.callback();

  /** Re-signs `token` ({ header, payload }) as `signer`. */
  function signJwt({ header, payload }, signer) {
    const keyFor = { idp: jwks[0], attacker, rotated };
    if (signer === 'none') return `${b64({ ...header, alg: 'none' })}.${b64(payload)}.`;
    if (signer.startsWith('hs256:')) {
      const input = `${b64({ ...header, alg: 'HS256' })}.${b64(payload)}`;
      return `${input}.${createHmac('sha256', signer.slice(6)).update(input).digest('base64url')}`;
    }
    if (signer === 'es256') {
      const input = `${b64({ ...header, alg: 'ES256' })}.${b64(payload)}`;
      return `${input}.${sign('sha256', Buffer.from(input), { key: ec, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
    }
    const jwk = keyFor[signer];
    const h = { ...header, alg: 'RS256' };
    if (signer === 'rotated') h.kid = rotated.kid;
    const input = `${b64(h)}.${b64(payload)}`;
    return `${input}.${sign('sha256', Buffer.from(input), createPrivateKey({ key: jwk, format: 'jwk' })).toString('base64url')}`;
  }

  /** Buffers a JSON response of the provider and passes it through `rewrite` before it leaves. */
  function intercept(res, rewrite) {
    const chunks = [];
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = (chunk) => {
      if (chunk) chunks.push(Buffer.from(chunk));
      return true;
    };
    res.end = (chunk) => {
      if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk));
      let body = Buffer.concat(chunks).toString();
      try {
        const out = rewrite(JSON.parse(body), res);
        body = typeof out === 'string' ? out : JSON.stringify(out);
      } catch {
        // not JSON: unchanged
      }
      res.removeHeader('content-length');
      res.setHeader('content-length', Buffer.byteLength(body));
      write(body);
      return end();
    };
  }

  server.on('request', (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      const interaction = /^\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname);
      if (interaction && req.method === 'GET' && !interaction[2]) {
        await provider.interactionDetails(req, res);
        const buttons = Object.keys(accounts)
          .map((id) => `<button type="submit" name="login" value="${escapeHtml(id)}">${escapeHtml(id)}</button>`)
          .join('');
        res.setHeader('Content-Type', 'text/html; charset=utf-8');
        res.end(`<!DOCTYPE html><html><body><h1>Test IdP sign-in</h1><form method="post" action="/interaction/${interaction[1]}/login">${buttons}</form></body></html>`);
        return;
      }
      if (interaction && req.method === 'POST' && interaction[2]) {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        const login = new URLSearchParams(Buffer.concat(chunks).toString()).get('login') ?? '';
        if (!accounts[login]) {
          res.statusCode = 400;
          res.end('unknown account');
          return;
        }
        await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
        return;
      }
      if (url.pathname === '/jwks') {
        state.jwksHits += 1;
        state.lastJwksHit = Date.now();
        if (state.jwksFails) {
          res.statusCode = 500;
          res.end('jwks down');
          return;
        }
        if (state.extraKeys.length) intercept(res, (json) => ({ keys: [...json.keys, ...state.extraKeys] }));
      }
      if (req.method === 'POST' && url.pathname === '/token') {
        if (state.hangToken) {
          state.hung.push(res);
          return; // never answered until close()
        }
        if (state.tokenAnswer) {
          const { status, contentType, body } = state.tokenAnswer;
          res.writeHead(status, { 'content-type': contentType }).end(body);
          return;
        }
        if (state.tamper) {
          const tamper = state.tamper;
          intercept(res, (json) => {
            if (typeof json.id_token !== 'string') return json;
            const { signer = 'idp', raw, ...token } = tamper(decodeJwt(json.id_token));
            return { ...json, id_token: raw ?? signJwt(token, signer) };
          });
        }
      }
      if (url.pathname === '/me' && state.userinfo) {
        const rewrite = state.userinfo;
        intercept(res, (json, response) => rewrite(json, response));
      }
      callback(req, res);
    })().catch((error) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  return {
    issuer,
    accounts,
    state,
    keys: { attacker, rotated, first: jwks[0] },
    publicJwk,
    /** tamper(jwt) -> { header, payload, signer } | { raw } ; null to stop. */
    tamperIdToken(fn) {
      state.tamper = fn;
    },
    tamperUserinfo(fn) {
      state.userinfo = fn;
    },
    /** answerToken({ status, contentType, body }) answers every token request so; null to stop. */
    answerToken(answer) {
      state.tokenAnswer = answer;
    },
    reset() {
      state.tamper = null;
      state.userinfo = null;
      state.extraKeys = [];
      state.jwksFails = false;
      state.hangToken = false;
      state.tokenAnswer = null;
      for (const res of state.hung.splice(0)) res.destroy();
    },
    /** Follows an authorization URL through the provider's login as `accountId`; returns the redirect back to the client. */
    async login(authorizationUrl, accountId) {
      const jar = new Map();
      const step = async (input, init = {}) => {
        const response = await fetch(input, { ...init, redirect: 'manual', headers: { ...(init.headers ?? {}), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const at = pair.indexOf('=');
          jar.set(pair.slice(0, at), pair.slice(at + 1));
        }
        const location = response.headers.get('location');
        if (!location) throw new Error(`IdP answered ${response.status} without a redirect: ${(await response.text()).slice(0, 300)}`);
        return new URL(location, issuer);
      };
      const interactionUrl = await step(authorizationUrl);
      if (!interactionUrl.href.startsWith(issuer)) return interactionUrl; // already signed in at the IdP
      const resume = await step(new URL(`${interactionUrl.pathname}/login`, issuer), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login: accountId }).toString(),
      });
      return step(resume);
    },
    async close() {
      for (const res of state.hung.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
