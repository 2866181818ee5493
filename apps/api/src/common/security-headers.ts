import type { NextFunction, Request, Response } from 'express';

/**
 * The app's page (index.html, whatever its route). The built app loads only its own files, with no inline script or
 * style, so the policy allows nothing else; React's `style={...}` sets DOM properties, which a CSP does not govern.
 * No site may frame it (clickjacking), and it sends no Referer: a mailed link's token (/password_reset?token=...)
 * would otherwise go out with every request the page makes before it has read the token and dropped it from the
 * address bar. docker/nginx/hearth.conf.template sends the same headers when nginx serves the app; a test compares.
 */
export const APP_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // Revalidated on every visit, so a new release's page (and the asset names in it) is picked up at once.
  'Cache-Control': 'no-cache',
};

/** The app's scripts and styles have content hashes in their names: a new build has new names. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';

/** The OpenAPI document is the same for everyone and holds no data. */
const PUBLIC_API_PATHS = new Set(['/api/v1/openapi.json']);

/**
 * Every response: the browser must not guess a type other than the one sent (a JSON error echoing input is never
 * run as a script). Every response of the API, sign-in (/sessions: the CSRF token) and SSO (/auth/...) carries a
 * secret or a household's data and must not stay in a browser or proxy cache: `no-store`.
 */
export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const path = req.path;
  if ((path.startsWith('/api/') && !PUBLIC_API_PATHS.has(path)) || path === '/sessions' || path.startsWith('/auth/')) {
    res.setHeader('Cache-Control', 'no-store');
  }
  next();
}

export function setAppPageHeaders(res: Response): void {
  for (const [name, value] of Object.entries(APP_PAGE_HEADERS)) res.setHeader(name, value);
}
