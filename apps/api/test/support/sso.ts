import request from 'supertest';
import type { Server } from 'node:http';
import { as, Browser, cookiesOf } from './sessions';
import type { OidcIdp } from './oidc-idp';
import type { TestApp } from './test-app';

/** The public origin the tests give the app (APP_URL); the IdP redirects there, the tests replay it with supertest. */
export const APP_ORIGIN = 'http://127.0.0.1:3999';

export const SSO_ENV = {
  APP_URL: APP_ORIGIN,
  SSO_ALLOW_INSECURE_HTTP: 'true',
  RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
  RATE_LIMIT_ADMIN_PER_MINUTE: '100000',
};

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
export function browserOf(attempt: SsoAttempt): Browser {
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
