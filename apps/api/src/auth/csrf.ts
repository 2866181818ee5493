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
  if (origin !== undefined && !isOwnOrigin(req, origin, appUrl)) throw csrfFailed('Cross-origin requests are not allowed');
}

/** Whether the request says it comes from a page of this instance: an Origin header naming APP_URL or the Host. */
export function fromOwnPage(req: Request, appUrl: string | null): boolean {
  const origin = req.header('origin');
  return origin !== undefined && req.header('sec-fetch-site') !== 'cross-site' && isOwnOrigin(req, origin, appUrl);
}

const isOwnOrigin = (req: Request, origin: string, appUrl: string | null): boolean =>
  origin === appUrl || origin === `${req.protocol}://${req.get('host')}`;

/** Double-submit check: X-CSRF-Token must carry the session's CSRF token (also set in the readable csrf cookie). */
export function assertCsrfToken(req: Request, expected: string): void {
  const presented = req.header(CSRF_HEADER);
  if (!presented || !sameSecret(presented, expected)) throw csrfFailed('Missing or invalid CSRF token (send the X-CSRF-Token header)');
}
