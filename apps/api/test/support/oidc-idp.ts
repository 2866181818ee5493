import { createPrivateKey, generateKeyPairSync, KeyObject, randomUUID, sign } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importEsm } from '../../src/common/esm';

/**
 * A real OpenID Provider (`oidc-provider`) in-process over http on 127.0.0.1 and a random port, for end-to-end tests
 * of SSO sign-in: API tests drive it with `login()`, browser tests through its login form at /interaction/<uid>.
 * `tamperIdToken` rewrites the ID token of token responses, to test the relying party's refusals.
 */

export interface IdpAccount {
  /** Defaults to the account's key in `accounts`. */
  sub?: string;
  email?: unknown;
  email_verified?: unknown;
  given_name?: string;
  family_name?: string;
  groups?: unknown;
  [claim: string]: unknown;
}

export interface IdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  token_endpoint_auth_method?: 'client_secret_post' | 'client_secret_basic';
}

export interface Jwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** `idp`: re-signed with the provider's own key; `attacker`: with another RSA key; `none`: unsigned (alg none). */
export type Signer = 'idp' | 'attacker' | 'none';
export type IdTokenTamper = (token: Jwt) => Jwt & { signer: Signer };

export interface OidcIdp {
  issuer: string;
  /** Live: edit an account's claims between logins. */
  accounts: Record<string, IdpAccount>;
  /** Follows an authorization URL through the provider's login as `accountId`; returns the redirect back to the client. */
  login(authorizationUrl: string, accountId: string): Promise<URL>;
  tamperIdToken(tamper: IdTokenTamper | null): void;
  close(): Promise<void>;
}

/** The parts of oidc-provider (and its Koa context) this helper uses. */
interface Grant {
  addOIDCScope(scope: string): void;
  save(): Promise<string>;
}
interface GrantClass {
  new (init: { clientId: string; accountId: string }): Grant;
  find(id: string): Promise<Grant | undefined>;
}
interface ProviderContext {
  body: unknown;
  oidc: {
    result?: { consent?: { grantId?: string } };
    session: { accountId: string; grantIdFor(clientId: string): string | undefined };
    client: { clientId: string };
    provider: { Grant: GrantClass };
  };
}
interface Provider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<unknown>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: unknown, options: { mergeWithLastSubmission: boolean }): Promise<void>;
}

type ProviderModule = { default: new (issuer: string, configuration: Record<string, unknown>) => Provider };

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function signJwt(token: Jwt, signer: Signer, keys: Record<'idp' | 'attacker', KeyObject>): string {
  const header = { ...token.header, alg: signer === 'none' ? 'none' : (token.header.alg ?? 'RS256') };
  const input = `${b64(header)}.${b64(token.payload)}`;
  if (signer === 'none') return `${input}.`;
  return `${input}.${sign('sha256', Buffer.from(input), keys[signer]).toString('base64url')}`;
}

function decodeJwt(jwt: string): Jwt {
  const [header, payload] = jwt.split('.');
  return { header: JSON.parse(Buffer.from(header, 'base64url').toString()), payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) };
}

async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString());
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startOidcIdp(options: { clients: IdpClient[]; accounts: Record<string, IdpAccount> }): Promise<OidcIdp> {
  const { default: Provider } = await importEsm<ProviderModule>('oidc-provider'); // ESM-only
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const kid = randomUUID();
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  const keys = { idp: createPrivateKey({ key: jwk, format: 'jwk' }), attacker };
  const accounts = options.accounts;
  let tamper: IdTokenTamper | null = null;

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      ...client,
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: [randomUUID()] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name', 'name'], groups: ['groups'] },
    // Scope claims in the ID token too, as most real providers do.
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, id: string) => {
      const account = accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => {
          const claims: Record<string, unknown> = { ...account, sub: account.sub ?? id };
          for (const key of Object.keys(claims)) if (claims[key] === undefined) delete claims[key];
          return claims;
        },
      };
    },
    // First-party test clients: consent is implied, so the only interaction is the login form.
    loadExistingGrant: async (ctx: ProviderContext) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile groups');
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: ProviderContext, form: string) => {
          ctx.body = `<!DOCTYPE html><html><body>${form}<button form="op.logoutForm" name="logout" value="yes">Sign out</button></body></html>`;
        },
        postLogoutSuccessSource: async (ctx: ProviderContext) => {
          ctx.body = '<!DOCTYPE html><html><body>Signed out</body></html>';
        },
      },
    },
    pkce: { required: () => true },
    ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Grant: 3600, Session: 3600 },
  });
  const callback = provider.callback();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
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
        const login = (await readBody(req)).get('login') ?? '';
        if (!accounts[login]) {
          res.statusCode = 400;
          res.end('unknown account');
          return;
        }
        await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
        return;
      }
      if (tamper && req.method === 'POST' && url.pathname === '/token') interceptTokenResponse(res, tamper, keys);
      callback(req, res);
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });

  return {
    issuer,
    accounts,
    tamperIdToken(next) {
      tamper = next;
    },
    async login(authorizationUrl, accountId) {
      const jar = new Map<string, string>();
      const step = async (input: string | URL, init: RequestInit = {}) => {
        const response = await fetch(input, {
          ...init,
          redirect: 'manual',
          headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
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
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Buffers the token endpoint's JSON and rewrites its id_token before it leaves. */
function interceptTokenResponse(res: ServerResponse, tamper: IdTokenTamper, keys: Record<'idp' | 'attacker', KeyObject>): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = ((chunk: unknown) => {
    if (chunk) chunks.push(Buffer.from(chunk as string));
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: unknown) => {
    if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
    let body = Buffer.concat(chunks).toString();
    try {
      const json = JSON.parse(body) as Record<string, unknown>;
      if (typeof json.id_token === 'string') {
        const { signer, ...token } = tamper(decodeJwt(json.id_token));
        json.id_token = signJwt(token, signer, keys);
        body = JSON.stringify(json);
      }
    } catch {
      // not JSON: pass through
    }
    res.removeHeader('content-length');
    res.setHeader('content-length', Buffer.byteLength(body));
    write(body);
    return end();
  }) as typeof res.end;
}
