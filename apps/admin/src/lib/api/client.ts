import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CSRF_COOKIE = 'hearth_csrf';

/**
 * The CSRF token of the session this page knows, from the last sign-in / me answer, else the readable cookie. Held
 * here, not only read from the cookie: after a sign-in in another tab (a new session, maybe another user's), a write
 * from this page is refused (csrf_failed) instead of made as that session, and the page reads /me again.
 */
let csrfToken: string | null = null;
export const rememberCsrfToken = (token: string | null): void => {
  csrfToken = token;
};
export function currentCsrfToken(): string | null {
  if (csrfToken) return csrfToken;
  const pair = document.cookie.split('; ').find((c) => c.startsWith(`${CSRF_COOKIE}=`));
  return pair ? decodeURIComponent(pair.slice(CSRF_COOKIE.length + 1)) : null;
}

const csrf: Middleware = {
  onRequest({ request }) {
    const token = currentCsrfToken();
    if (UNSAFE.has(request.method) && token) request.headers.set('X-CSRF-Token', token);
    return request;
  },
};

/**
 * The typed client (paths generated from apps/api/openapi.json). The API is on this page's origin: it serves the app,
 * or a reverse proxy serves both (it sends no CORS headers); its cookies go with every request.
 */
export const api = createClient<paths>({ credentials: 'same-origin' });
api.use(csrf);

/** An API refusal, normalised from the ErrorResponse body (docs/api/errors-and-lists.md). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string[] = [],
    readonly retryAfterSeconds: number | null = null,
    /** The whole error body, for the fields some refusals add (ambiguous_date_format's date_formats). */
    readonly body: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface ErrorBody {
  error?: string;
  message?: string | null;
  details?: unknown;
  errors?: string[] | null;
}

function toApiError(status: number, body: unknown, response?: Response): ApiError {
  const b = (body && typeof body === 'object' ? body : {}) as ErrorBody;
  const details = Array.isArray(b.details) ? b.details.map(String) : (b.errors ?? []);
  const retry = Number(response?.headers.get('Retry-After'));
  const fallback = status === 0 ? 'The service could not be reached. Check your connection and try again.' : `The request failed (${status}).`;
  return new ApiError(status, b.error ?? 'error', b.message ?? fallback, details, Number.isFinite(retry) && retry > 0 ? retry : null, { ...b });
}

/** Awaits an openapi-fetch call: the data on success, a thrown ApiError otherwise (network failures included). */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw toApiError(0, null);
  }
  if (!result.response.ok) throw toApiError(result.response.status, result.error, result.response);
  return result.data as T;
}

/** A user-facing sentence for any error. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429 && error.retryAfterSeconds) return `Too many requests. Try again in ${error.retryAfterSeconds} seconds.`;
    if (error.code === 'csrf_failed') return 'Your session changed, perhaps because you signed in again in another tab. Nothing was saved: try again.';
    // A validation error's message is its first detail: say each problem once.
    return [error.message, ...error.details.filter((d) => d !== error.message)].join(' ');
  }
  return 'Something went wrong. Try again.';
}
