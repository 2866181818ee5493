import type { CookieOptions, Request, Response } from 'express';
import { CSRF_COOKIE, SESSION_COOKIE } from './session-token';

/** httpOnly session cookie + readable CSRF cookie; SameSite=Lax; Secure whenever the request came over https. */
function options(req: Request, httpOnly: boolean): CookieOptions {
  return { httpOnly, sameSite: 'lax', secure: req.secure, path: '/' };
}

export function setSessionCookies(req: Request, res: Response, token: string, csrfToken: string, expiresAt: Date): void {
  res.cookie(SESSION_COOKIE, token, { ...options(req, true), expires: expiresAt });
  res.cookie(CSRF_COOKIE, csrfToken, { ...options(req, false), expires: expiresAt });
}

export function clearSessionCookies(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, options(req, true));
  res.clearCookie(CSRF_COOKIE, options(req, false));
}
