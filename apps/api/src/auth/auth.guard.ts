import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { roleAtLeast, Role } from '@hearth/contracts';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import { ApiKeysService, unauthorized } from './api-keys.service';
import { assertCsrfToken, assertSameOrigin, isUnsafeMethod } from './csrf';
import type { Principal, SessionPrincipal } from './principal';
import { routeAccess } from './route-access';
import { readCookie, SESSION_COOKIE } from './session-token';
import { SessionsService } from './sessions.service';

export type AuthenticatedRequest = Request & { principal?: Principal; sessionPrincipal?: SessionPrincipal };

const KEY_OR_SESSION = 'Send an API key in the X-Api-Key header, or sign in.';

function assertRole(role: Role, minRole: Role): void {
  if (!roleAtLeast(role, minRole)) throw new ApiError(403, 'forbidden', `This action requires the '${minRole}' role`);
}

/**
 * Global guard: fails closed. A route is reachable only when it is @Public(), names the scope its API key must carry
 * (@RequireScope), or asks for a browser session (@RequireSession). A route with both takes the key when X-Api-Key is
 * sent, the session cookie otherwise, and holds either to the session's minimum role. Authentication comes before the
 * scope/role check, so bad credentials are 401 whatever the route asks for; a session's unsafe request must then pass
 * the Origin and CSRF-token checks.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly sessions: SessionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = routeAccess(this.reflector, context.getHandler(), context.getClass());
    if (access.public) return true;
    const { scope, session } = access;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();

    if (scope && (!session || req.header('x-api-key') !== undefined)) {
      const principal = await this.apiKeys.authenticate(req.header('x-api-key'));
      this.apiKeys.authorize(principal, scope);
      // A key acts for its user: it reaches no further than that user's session would (family exports are for admins).
      if (session) assertRole(principal.role, session.minRole);
      req.principal = principal;
      return true;
    }
    if (!session) throw unauthorized();
    const cookie = readCookie(req.header('cookie'), SESSION_COOKIE);
    // Neither credential: an API client learns where its key goes, not only that a session is missing.
    if (scope && cookie === undefined) throw unauthorized(KEY_OR_SESSION);

    // CSRF below holds for a sign-out of an idle session too: its token is bound to the session token, not its freshness.
    const principal = await this.sessions.authenticate(cookie, new Date(), session.signOut);
    if (isUnsafeMethod(req.method)) {
      assertSameOrigin(req, this.config.appUrl);
      assertCsrfToken(req, this.sessions.csrfToken(principal.token));
    }
    assertRole(principal.role, session.minRole);
    req.sessionPrincipal = principal;
    // A route that takes a key or a session (e.g. imports from the admin app): the session acts with full scope.
    if (scope) req.principal = { userId: principal.userId, familyId: principal.familyId, role: principal.role, apiKeyId: '', scope: 'read_write' };
    return true;
  }
}
