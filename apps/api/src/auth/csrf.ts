import type { Request } from 'express';
import { ApiError } from '../common/api-error';
import { CSRF_HEADER, sameSecret } from './session-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const isUnsafeMethod = (method: string): boolean => !SAFE_METHODS.has(method.toUpperCase());

const csrfFailed = (message: string) => new ApiError(403, 'csrf_failed', message);

/**
 * Origin check: a browser's cross-site request says so in Origin (or Sec-Fetch-Site); it must name this instance
 * (APP_URL, else the Host the request was sent to). Requests without either header are not from a modern browser
 * page and fall through to the token check.
 */
export function assertSameOrigin(req: Request, appUrl: string | null): void {
  if (req.header('sec-fetch-site') === 'cross-site') throw csrfFailed('Cross-site requests are not allowed');
  const origin = req.header('origin');
  if (origin === undefined) return;
  const allowed = new Set<string>([`${req.protocol}://${req.get('host')}`]);
  if (appUrl) allowed.add(appUrl);
  if (!allowed.has(origin)) throw csrfFailed('Cross-origin requests are not allowed');
}

/** Double-submit check: X-CSRF-Token must carry the session's CSRF token (also set in the readable csrf cookie). */
export function assertCsrfToken(req: Request, expected: string): void {
  const presented = req.header(CSRF_HEADER);
  if (!presented || !sameSecret(presented, expected)) throw csrfFailed('Missing or invalid CSRF token (send the X-CSRF-Token header)');
}
