import 'reflect-metadata';
import { MODULE_METADATA, PATH_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { RequestMethod, Type } from '@nestjs/common';
import { FEATURE_MODULES } from '../app.module';
import { HealthController } from '../health/health.controller';
import { RESERVED_PROVIDER_NAMES } from '../sso/provider-fields';
import { PUBLIC_ROUTE, REQUIRED_SCOPE, REQUIRED_SESSION } from './auth.decorators';

/** Every controller reachable from the application's modules (the health controller is wired in AppModule). */
function controllersOf(modules: unknown[], seen = new Set<unknown>()): Type[] {
  const found: Type[] = [];
  for (const entry of modules) {
    const module = (entry as { module?: unknown })?.module ?? entry;
    if (!module || seen.has(module)) continue;
    seen.add(module);
    found.push(...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, module) as Type[] | undefined) ?? []));
    found.push(...controllersOf((Reflect.getMetadata(MODULE_METADATA.IMPORTS, module) as unknown[] | undefined) ?? [], seen));
  }
  return found;
}

interface Route {
  name: string;
  handler: (...args: unknown[]) => unknown;
  controller: Type;
}

function routesOf(controller: Type): Route[] {
  const prototype = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(prototype)
    .filter((key) => key !== 'constructor' && typeof prototype[key] === 'function')
    .map((key) => ({ name: key, handler: prototype[key] as Route['handler'], controller }))
    .filter((route) => Reflect.getMetadata(PATH_METADATA, route.handler) !== undefined);
}

const declared = (key: string, route: Route) =>
  Reflect.getMetadata(key, route.handler) ?? Reflect.getMetadata(key, route.controller);

const controllers = [...new Set([HealthController, ...controllersOf(FEATURE_MODULES)])];
const routes = controllers.flatMap(routesOf);

describe('every route declares how it authenticates', () => {
  it('finds the controllers and their routes', () => {
    expect(controllers.length).toBeGreaterThanOrEqual(6);
    expect(routes.length).toBeGreaterThanOrEqual(20);
  });

  it.each(routes.map((r) => [`${r.controller.name}.${r.name} (${RequestMethod[Reflect.getMetadata(METHOD_METADATA, r.handler)]})`, r]))(
    '%s is @Public, @RequireScope or @RequireSession',
    (_, route) => {
      const ways = [PUBLIC_ROUTE, REQUIRED_SCOPE, REQUIRED_SESSION].filter((key) => declared(key, route as Route) !== undefined);
      expect(ways.length).toBeGreaterThan(0);
    },
  );

  const pathOf = (route: Route) => Reflect.getMetadata(PATH_METADATA, route.controller) as string;
  // Provider management is for super admins only (docs/multi-tenancy.md#roles); so are the instance-wide audit log and the blocks of
  // removed users' SSO identities.
  const superAdminOnly = ['admin/sso_providers', 'admin/audit_logs', 'admin/sso_identity_blocks'];

  it('keeps administration behind an admin session and never public', () => {
    const adminRoutes = routes.filter((r) => pathOf(r).startsWith('admin'));
    expect(adminRoutes.length).toBeGreaterThan(0);
    for (const route of adminRoutes) {
      expect(declared(PUBLIC_ROUTE, route)).toBeUndefined();
      const minRole = superAdminOnly.includes(pathOf(route)) ? 'super_admin' : 'admin';
      expect([route.name, declared(REQUIRED_SESSION, route)]).toEqual([route.name, { minRole, signOut: false }]);
    }
  });

  it('takes a session gone idle only on the sign-out routes', () => {
    const signOut = routes.filter((r) => (declared(REQUIRED_SESSION, r) as { signOut?: boolean } | undefined)?.signOut);
    expect(signOut.map((r) => `${r.controller.name}.${r.name}`).sort()).toEqual(['SessionsController.destroy', 'SsoController.logout']);
  });
});

describe('routes under /auth', () => {
  // A provider's sign-in address is /auth/<name>: a route of ours there would shadow it.
  it('reserve their first path segment as a provider name', () => {
    const segments = routes
      .map((r) => `${Reflect.getMetadata(PATH_METADATA, r.controller) as string}/${Reflect.getMetadata(PATH_METADATA, r.handler) as string}`)
      .filter((path) => path.startsWith('auth/'))
      .map((path) => path.split('/').filter(Boolean)[1])
      .filter((segment) => !segment.startsWith(':'));
    expect(segments.length).toBeGreaterThan(0);
    for (const segment of new Set(segments)) expect([segment, RESERVED_PROVIDER_NAMES.has(segment)]).toEqual([segment, true]);
  });
});
