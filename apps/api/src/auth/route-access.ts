import type { Type } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { RequiredScope, Role } from '@hearth/contracts';
import { PUBLIC_ROUTE, REQUIRED_SCOPE, REQUIRED_SESSION, SessionRequirement } from './auth.decorators';

/**
 * What a route asks of its caller, as the AuthGuard enforces it and openapi.json documents it: each setting the
 * handler declares, else the one its controller declares.
 */
export interface RouteAccess {
  public: boolean;
  /** An API key with this scope is taken. */
  scope?: RequiredScope;
  /** A browser session is taken, of a user with at least `session.minRole`; a key's user must have that role too. */
  session?: SessionRequirement;
}

export function routeAccess(reflector: Reflector, handler: Function, controller: Type): RouteAccess {
  const targets = [handler, controller];
  return {
    public: reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) ?? false,
    scope: reflector.getAllAndOverride<RequiredScope>(REQUIRED_SCOPE, targets),
    session: reflector.getAllAndOverride<SessionRequirement>(REQUIRED_SESSION, targets),
  };
}

/** The lowest role that may call the route: its session's minimum; any user's key on a key-only route; none when public. */
export function requiredRole(access: RouteAccess): Role | null {
  if (access.public) return null;
  return access.session?.minRole ?? 'member';
}
