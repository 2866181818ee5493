import request from 'supertest';
import type { Server } from 'node:http';
import { SessionsService } from '../../src/auth/sessions.service';
import { CSRF_COOKIE, hashToken, SESSION_COOKIE } from '../../src/auth/session-token';
import { newProvider } from '../../src/sso/provider-fields';
import { SsoProvider } from '../../src/sso/sso.entities';
import { SsoRepository } from '../../src/sso/sso.repository';
import { User } from '../../src/users/user.entity';
import type { TestApp } from './test-app';

export const PASSWORD = 'correct horse battery';

/** A signed-in browser: the cookies to send and the CSRF token to echo on unsafe requests. */
export interface Browser {
  cookie: string;
  csrf: string;
  setCookies: string[];
}

export function cookiesOf(setCookies: string[] | string | undefined): string {
  const list = Array.isArray(setCookies) ? setCookies : setCookies ? [setCookies] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

export async function signIn(server: Server, email: string, password = PASSWORD): Promise<Browser> {
  const res = await request(server).post('/sessions').send({ email, password });
  if (res.status !== 201) throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  const setCookies = res.headers['set-cookie'] as unknown as string[];
  return { cookie: cookiesOf(setCookies), csrf: res.body.user.csrf_token, setCookies };
}

/**
 * A session opened the way the SSO callback opens one, through a provider of its own: for a user who cannot (or may
 * not) sign in with a password. The provider is recorded on the session, as a password session has none.
 */
export async function ssoSession(t: TestApp, userId: string): Promise<Browser> {
  const user = await t.dataSource.getRepository(User).findOneByOrFail({ id: userId });
  const provider = await t.dataSource.getRepository(SsoProvider).save(newProvider('openid_connect', `corp-${userId.slice(0, 8)}`));
  const signedIn = await t.app.get(SessionsService).openSession(user, { ip: null, userAgent: null }, { method: 'sso' }, provider.name);
  await t.app.get(SsoRepository).recordSsoSession(hashToken(signedIn.token), provider.id);
  return { cookie: `${SESSION_COOKIE}=${signedIn.token}; ${CSRF_COOKIE}=${signedIn.csrfToken}`, csrf: signedIn.csrfToken, setCookies: [] };
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A request as the admin app sends it: session cookie plus X-CSRF-Token. */
export function as(server: Server, browser: Browser, method: Method, path: string) {
  return request(server)[method](path).set('Cookie', browser.cookie).set('X-CSRF-Token', browser.csrf);
}
