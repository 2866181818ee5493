import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'hearth_session';
export const CSRF_COOKIE = 'hearth_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** 32 random bytes, base64url: the session cookie and reset-link token. Only its SHA-256 is stored. */
export const generateToken = (): string => randomBytes(32).toString('base64url');
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const isWellFormedToken = (token: string | undefined): token is string => !!token && TOKEN_PATTERN.test(token);

/**
 * The CSRF token of a session: an HMAC of the session token, so it needs no storage, changes with every session
 * and cannot be computed by a page that only knows the (readable) CSRF cookie of another session.
 */
export const csrfTokenFor = (sessionToken: string, secret: string): string =>
  createHmac('sha256', secret).update(`csrf:${sessionToken}`).digest('base64url');

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A keyed digest of an e-mail address: counts failed sign-ins per account without storing the address. */
export const accountKey = (normalizedEmail: string, secret: string): string =>
  createHmac('sha256', secret).update(`login:${normalizedEmail}`).digest('hex').slice(0, 32);

/** Cookie header parsing; the first value of a repeated name wins, malformed pairs are skipped. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const value = pair.slice(at + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
