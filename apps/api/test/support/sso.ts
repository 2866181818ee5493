import request from 'supertest';
import type { Server } from 'node:http';
import { startFreshTestApp } from './fresh-database';
import { as, Browser, cookiesOf, signIn } from './sessions';
import { IdpAccount, IdpClient, OidcIdp, startOidcIdp } from './oidc-idp';
import { startTestApp, TestApp } from './test-app';

/** The public origin the tests give the app (APP_URL); the IdP redirects there, the tests replay it with supertest. */
export const APP_ORIGIN = 'http://127.0.0.1:3999';

export const SSO_ENV = {
  APP_URL: APP_ORIGIN,
  SSO_ALLOW_INSECURE_HTTP: 'true',
  RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
  RATE_LIMIT_ADMIN_PER_MINUTE: '100000',
  RATE_LIMIT_ADMIN_READS_PER_MINUTE: '100000',
};

/** Where the IdP sends the browser back to for the provider `name`: a redirect URI its client must list. */
export const callbackUrl = (name: string) => `${APP_ORIGIN}/auth/${name}/callback`;

/** An OpenID Connect provider's fields for the admin API, for the IdP's client `hearth`; `fields` add to them or override them. */
export const oidcProviderFields = (idp: OidcIdp, name: string, clientSecret: string, fields: Record<string, unknown> = {}) => ({
  name,
  strategy: 'openid_connect',
  issuer: idp.issuer,
  client_id: 'hearth',
  client_secret: clientSecret,
  ...fields,
});

/** A generic OAuth2 provider's fields: the IdP's authorization, token and user info URLs, for the client of oauth2Client. */
export const oauth2ProviderFields = (idp: OidcIdp, name: string, clientSecret: string, fields: Record<string, unknown> = {}) => ({
  name,
  strategy: 'oauth2',
  issuer: idp.issuer,
  authorization_url: `${idp.issuer}/auth`,
  token_url: `${idp.issuer}/token`,
  userinfo_url: `${idp.issuer}/me`,
  client_id: 'hearth-basic',
  client_secret: clientSecret,
  token_auth_method: 'client_secret_basic',
  scopes: 'openid email profile',
  ...fields,
});

/** The IdP's client for the OAuth2 provider `name`: it authenticates at the token endpoint with HTTP Basic. */
export const oauth2Client = (name: string, clientSecret: string): IdpClient => ({
  client_id: 'hearth-basic',
  client_secret: clientSecret,
  redirect_uris: [callbackUrl(name)],
  token_endpoint_auth_method: 'client_secret_basic',
});

export interface SsoApp {
  t: TestApp;
  admin: Browser;
  adminId: string;
}

/**
 * The app with SSO_ENV (plus `env`) and a signed-in super admin. `fresh`: on a database of its own, for suites that
 * check instance-wide counts (other suites share the CI database).
 */
export async function startSsoApp(env: Record<string, string> = {}, { fresh = true } = {}): Promise<SsoApp> {
  const t = await (fresh ? startFreshTestApp : startTestApp)({ ...SSO_ENV, ...env });
  try {
    const h = await t.newHousehold({ role: 'super_admin' });
    return { t, admin: await signIn(t.server, h.email), adminId: h.userId };
  } catch (error) {
    await t.close();
    throw error;
  }
}

export interface SsoSuite extends SsoApp {
  idp: OidcIdp;
  /** The providers made from `providers`, in order. */
  providers: Awaited<ReturnType<typeof createProvider>>[];
  close(): Promise<void>;
}

/**
 * The setup of the OIDC suites: the in-process IdP with `clients` and `accounts`, the app on a database of its own
 * (startSsoApp), and the providers `providers(idp)` describes, created through the admin API as the super admin.
 */
export async function startSsoSuite(options: {
  clients: IdpClient[];
  accounts?: Record<string, IdpAccount>;
  env?: Record<string, string>;
  providers?: (idp: OidcIdp) => Record<string, unknown>[];
}): Promise<SsoSuite> {
  const idp = await startOidcIdp({ clients: options.clients, accounts: options.accounts ?? {} });
  let app: SsoApp | undefined;
  try {
    app = await startSsoApp(options.env);
    const providers = [];
    for (const body of options.providers?.(idp) ?? []) providers.push(await createProvider(app.t.server, app.admin, body));
    const { t } = app;
    return {
      ...app,
      idp,
      providers,
      async close() {
        await t.close();
        await idp.close();
      },
    };
  } catch (error) {
    await app?.t.close();
    await idp.close();
    throw error;
  }
}

export interface SsoAttempt {
  /** Where the app sent the browser after the callback. */
  location: string;
  /** Cookies of the signed-in browser (session + CSRF), plus the SSO transaction cookie. */
  cookie: string;
  setCookies: string[];
  /** The IdP's redirect back to the app, for replay tests. */
  callbackPath: string;
}

/** `connect`: a signed-in browser (cookie) adds the provider to its account instead of signing in. */
export async function startSso(server: Server, providerName: string, cookie = '', connect = false): Promise<{ authorizationUrl: string; cookie: string }> {
  const res = await request(server).get(`/auth/${providerName}${connect ? '?intent=connect' : ''}`).set('Cookie', cookie);
  if (res.status !== 302) throw new Error(`GET /auth/${providerName} answered ${res.status}`);
  const setCookies = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  return { authorizationUrl: res.headers.location, cookie: [cookie, cookiesOf(setCookies)].filter(Boolean).join('; ') };
}

export async function finishSso(server: Server, callbackPath: string, cookie: string): Promise<SsoAttempt> {
  const res = await request(server).get(callbackPath).set('Cookie', cookie);
  if (res.status !== 302) throw new Error(`callback answered ${res.status}: ${JSON.stringify(res.body)}`);
  const setCookies = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  return { location: res.headers.location, cookie: [cookie, cookiesOf(setCookies)].filter(Boolean).join('; '), setCookies, callbackPath };
}

/** A whole browser sign-in: the app's redirect, the IdP login as `accountId`, the callback. */
export async function ssoLogin(server: Server, idp: OidcIdp, providerName: string, accountId: string, cookie = '', connect = false): Promise<SsoAttempt> {
  const started = await startSso(server, providerName, cookie, connect);
  const back = await idp.login(started.authorizationUrl, accountId);
  return finishSso(server, back.pathname + back.search, started.cookie);
}

/** A signed-in browser from an SSO attempt that ended in a session. */
export function browserOf(attempt: Pick<SsoAttempt, 'location' | 'cookie' | 'setCookies'>): Browser {
  const csrf = /hearth_csrf=([^;]+)/.exec(attempt.cookie)?.[1];
  if (!csrf) throw new Error(`no session after SSO (went to ${attempt.location})`);
  return { cookie: attempt.cookie, csrf, setCookies: attempt.setCookies };
}

export async function createProvider(server: Server, admin: Browser, body: Record<string, unknown>) {
  const res = await as(server, admin, 'post', '/api/v1/admin/sso_providers').send(body);
  if (res.status !== 201) throw new Error(`provider not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string; callback_url: string };
}

export const countRows = async (t: TestApp, table: string): Promise<number> =>
  Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n);

/** The row counts of `tables`, in order: compared before and after an attempt that must create nothing. */
export const countsOf = (t: TestApp, tables: string[]): Promise<number[]> => Promise.all(tables.map((table) => countRows(t, table)));

/** The user row (every column) with `email`, or undefined. */
export const userByEmail = async (t: TestApp, email: string) => (await t.dataSource.query(`SELECT * FROM users WHERE email = $1`, [email]))[0];

export const roleOf = async (t: TestApp, userId: string): Promise<string> => (await t.dataSource.query(`SELECT role FROM users WHERE id = $1`, [userId]))[0].role;

/** The user's SSO identity row (the first, for a user with one). */
export const identityOf = async (t: TestApp, userId: string) => (await t.dataSource.query(`SELECT * FROM sso_identities WHERE user_id = $1`, [userId]))[0];

/** The details of the user's role_changed audit rows, oldest first. */
export const roleChanges = async (t: TestApp, userId: string): Promise<Record<string, unknown>[]> =>
  (await t.dataSource.query(`SELECT details FROM audit_logs WHERE event = 'role_changed' AND user_id = $1 ORDER BY created_at, id`, [userId])).map(
    (row: { details: Record<string, unknown> }) => row.details,
  );

export async function lastFailure(
  t: TestApp,
  providerName: string,
): Promise<{ reason: string; row: { details: Record<string, unknown>; user_id: string | null } & Record<string, unknown> }> {
  const [row] = await t.dataSource.query(
    `SELECT * FROM audit_logs WHERE event = 'login_failed' AND provider_name = $1 ORDER BY created_at DESC LIMIT 1`,
    [providerName],
  );
  return { reason: row?.details?.reason, row };
}

/**
 * Runs a sign-in `attempt` that must be refused: no session cookie, and no session, user or SSO identity row made.
 * Returns the attempt and the provider's last login_failed audit, for the caller's checks of where it went and why.
 */
export async function expectNoSignIn<A extends Pick<SsoAttempt, 'setCookies'>>(t: TestApp, providerName: string, attempt: () => Promise<A>) {
  const tables = ['sessions', 'users', 'sso_identities'];
  const before = await countsOf(t, tables);
  const result = await attempt();
  expect(result.setCookies.some((c) => c.startsWith('hearth_session='))).toBe(false);
  expect(await countsOf(t, tables)).toEqual(before);
  return { result, failure: await lastFailure(t, providerName) };
}
