import type { ErrorBody } from '@hearth/contracts';

/**
 * An error the client is meant to see: a status, a stable `error` code and a human message (docs/api/errors-and-lists.md).
 * Anything else that escapes a handler becomes a generic 500 with no internals in the body.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Omit<ErrorBody, 'error' | 'message'> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return { error: this.code, message: this.message, ...this.extra };
  }

  static validation(errors: string[]): ApiError {
    return new ApiError(422, 'validation_failed', errors[0] ?? 'Validation failed', { errors });
  }

  static notFound(): ApiError {
    return new ApiError(404, 'record_not_found', 'The requested resource was not found');
  }
}

/**
 * A refusal of a browser navigation outside the API (an SSO redirect): the browser is sent to `location`, a page of
 * the app that explains it, instead of being shown a JSON body. The headers (Retry-After) go with the redirect.
 */
export class NavigationRefused extends ApiError {
  constructor(
    readonly location: string,
    status: number,
    code: string,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(status, code, message, {}, headers);
  }
}
