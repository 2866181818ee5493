import request from 'supertest';
import type { Server } from 'node:http';

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

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A request as the admin app sends it: session cookie plus X-CSRF-Token. */
export function as(server: Server, browser: Browser, method: Method, path: string) {
  return request(server)[method](path).set('Cookie', browser.cookie).set('X-CSRF-Token', browser.csrf);
}
