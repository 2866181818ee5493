import type { INestApplication, Type } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { NestContainer } from '@nestjs/core';
import { DocumentBuilder, getSchemaPath, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { requiredRole, routeAccess, RouteAccess } from './auth/route-access';
import { ErrorResponseDto } from './common/error-response.dto';

/** The OpenAPI extension naming the lowest role an operation admits (absent on public operations). */
export const REQUIRED_ROLE_EXTENSION = 'x-required-role';

const operationId = (controller: string, method: string) => `${controller}_${method}`;

/** Every route handler of the application, by operation id. */
function routeHandlers(app: INestApplication): Map<string, { controller: Type; handler: () => unknown }> {
  const handlers = new Map<string, { controller: Type; handler: () => unknown }>();
  const container = (app as unknown as { container: NestContainer }).container;
  for (const module of container.getModules().values()) {
    for (const { metatype } of module.controllers.values()) {
      const controller = metatype as Type;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler === 'function' && Reflect.getMetadata(METHOD_METADATA, handler) !== undefined) {
          handlers.set(operationId(controller.name, name), { controller, handler: handler as () => unknown });
        }
      }
    }
  }
  return handlers;
}

const errorResponse = (description: string): ResponseObject => ({
  description,
  content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorResponseDto) } } },
});

/**
 * Documents who may call the operation from the metadata the AuthGuard enforces (routeAccess): its security
 * schemes, its 401 and 403 (role and scope first, then any reason the handler documents itself) and its role.
 */
function documentAccess(operation: OperationObject, access: RouteAccess): void {
  const role = requiredRole(access);
  if (role === null) return;
  const { session, scope } = access;
  operation.security = [...(session ? [{ Session: [] }] : []), ...(scope ? [{ ApiKey: [] }] : [])];
  const unauthorized = [
    scope && 'Missing, invalid, expired or revoked API key, or deactivated user',
    session && 'No valid session (signed out, expired, revoked or suspended user)',
  ];
  const forbidden = [
    session && `Role below ${session.minRole}, or CSRF token/Origin check failed`,
    scope && `Key lacks the '${scope}' scope`,
    (operation.responses['403'] as ResponseObject | undefined)?.description,
  ];
  operation.responses['401'] = errorResponse(unauthorized.filter(Boolean).join('; '));
  operation.responses['403'] = errorResponse(forbidden.filter(Boolean).join('; '));
  Object.assign(operation, { [REQUIRED_ROLE_EXTENSION]: role });
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Hearth API')
    .setDescription('Household finance: imports, budgets and sign-in administration')
    .setVersion('v1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }, 'ApiKey')
    .addCookieAuth('hearth_session', { type: 'apiKey', in: 'cookie', name: 'hearth_session' }, 'Session')
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorResponseDto], operationIdFactory: operationId });
  const reflector = new Reflector();
  const handlers = routeHandlers(app);
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path) as OperationObject[]) {
      const route = operation?.operationId === undefined ? undefined : handlers.get(operation.operationId);
      if (!route) continue;
      documentAccess(operation, routeAccess(reflector, route.handler, route.controller));
    }
  }
  return document;
}
