import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiHeader, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import type { RequiredScope } from '@hearth/contracts';
import type { Principal } from './principal';

export const PUBLIC_ROUTE = 'hearth:public';
export const REQUIRED_SCOPE = 'hearth:scope';

/** The route needs no credentials. Every other route must name its scope, or the guard refuses it. */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The route takes an API key (X-Api-Key) with this scope; `write` needs a read_write key. */
export const RequireScope = (scope: RequiredScope) =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPE, scope),
    ApiSecurity('ApiKey'),
    ApiResponse({ status: 401, description: 'Missing, invalid, expired or revoked API key, or deactivated user' }),
    ApiResponse({ status: 403, description: `Key lacks the '${scope}' scope` }),
  );

export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal => ctx.switchToHttp().getRequest().principal,
);

export { ApiHeader };
