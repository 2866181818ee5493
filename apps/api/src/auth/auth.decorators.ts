import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import type { RequiredScope, Role } from '@hearth/contracts';
import { ErrorResponseDto } from '../common/error-response.dto';
import type { Principal, SessionPrincipal } from './principal';

export const PUBLIC_ROUTE = 'hearth:public';
export const REQUIRED_SCOPE = 'hearth:scope';
export const REQUIRED_SESSION = 'hearth:session';
export const RATE_LIMITS = 'hearth:rate-limits';
export const SIGN_IN_NAVIGATION = 'hearth:sign-in-navigation';

export interface SessionRequirement {
  /** Lowest role allowed; super_admin > admin > member. */
  minRole: Role;
  /** A sign-out route: a session idle past SESSION_IDLE_MINUTES is still taken, to be ended (not revoked or expired ones). */
  signOut: boolean;
}

/**
 * Named request budgets (see rate-limit.ts). `admin`: administration (changes and reads have separate budgets);
 * `login`: sign-in attempts; `sso_return`: the steps by which a provider returns to us (callbacks, SAML ACS and SLO).
 */
export type RateLimitName = 'admin' | 'login' | 'sso_return';

/** The route needs no credentials. Every other route must name its scope, or the guard refuses it. */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

// openapi.json documents these two (security, 401, 403, the role) from the same metadata the guard reads (openapi.ts).

/** The route takes an API key (X-Api-Key) with this scope; `write` needs a read_write key. */
export const RequireScope = (scope: RequiredScope) => SetMetadata(REQUIRED_SCOPE, scope);

/**
 * The route takes a browser session (the httpOnly session cookie) of a user with at least `minRole`. Unsafe methods
 * also need the CSRF token in X-CSRF-Token and, when the browser sends one, a same-origin Origin header.
 * Combined with @RequireScope, a request carrying X-Api-Key is authenticated by its key instead; the key's user must
 * still have at least `minRole`.
 */
export const RequireSession = (requirement: Partial<SessionRequirement> = {}) => {
  const minRole = requirement.minRole ?? 'member';
  const signOut = requirement.signOut ?? false;
  return SetMetadata(REQUIRED_SESSION, { minRole, signOut } satisfies SessionRequirement);
};

/** Counts requests to the route against the named per-IP budget(s). */
export const RateLimit = (...names: RateLimitName[]) =>
  applyDecorators(
    SetMetadata(RATE_LIMITS, names),
    ApiResponse({ type: ErrorResponseDto, status: 429, description: 'Rate limit exceeded; see Retry-After' }),
  );

/**
 * The route is a browser navigation of SSO (a redirect to or from a provider), not an API call: when a rate limit
 * refuses it, the browser is sent to the sign-in page with the wait instead of getting a JSON body.
 */
export const SignInNavigation = () => SetMetadata(SIGN_IN_NAVIGATION, true);

export const CurrentSession = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): SessionPrincipal => ctx.switchToHttp().getRequest().sessionPrincipal,
);

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal => ctx.switchToHttp().getRequest().principal,
);

export { ApiHeader };
