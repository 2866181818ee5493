import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { RequiredScope } from '@hearth/contracts';
import { PUBLIC_ROUTE, REQUIRED_SCOPE } from './auth.decorators';
import { ApiKeysService, unauthorized } from './api-keys.service';

/**
 * Global guard: fails closed. A route is reachable only when it is marked @Public() or names the scope its
 * API key must carry (@RequireScope). Authentication happens before the scope check, so an unknown key is 401
 * whatever the route asks for.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const scope = this.reflector.getAllAndOverride<RequiredScope>(REQUIRED_SCOPE, targets);
    const req = context.switchToHttp().getRequest<Request & { principal?: unknown }>();
    if (!scope) throw unauthorized();
    const principal = await this.apiKeys.authenticate(req.header('x-api-key'));
    this.apiKeys.authorize(principal, scope);
    req.principal = principal;
    return true;
  }
}
