import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { ROLE_RANK, ROLES, type Role } from '@hearth/contracts';
import { SessionsService } from '../src/auth/sessions.service';
import { CSRF_COOKIE, SESSION_COOKIE } from '../src/auth/session-token';
import { User } from '../src/users/user.entity';
import { Household, startTestApp, TestApp } from './support/test-app';

interface Operation {
  security?: Record<string, string[]>[];
  responses: Record<string, { description?: string }>;
  'x-required-role'?: Role;
}

/** The committed document, as its readers get it. */
const document: { paths: Record<string, Record<string, Operation>> } = JSON.parse(
  readFileSync(join(__dirname, '../openapi.json'), 'utf8'),
);
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, path, method, operation })),
);

/** The role the words of the 403 say ("Role below admin"); an operation that names none admits any user. */
const roleInWords = (operation: Operation): Role | null => {
  if (!operation.security?.length) return null;
  return (/Role below (member|admin|super_admin)\b/.exec(operation.responses['403']?.description ?? '')?.[1] as Role | undefined) ?? 'member';
};

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Which role each operation lets through, found by calling it (the documentation plays no part): as a user of each
 * role, with every credential the operation takes, path ids made up and an empty body. The guard decides before any
 * handler runs, so a refusal for the role is a 403 naming the role, whatever else the request lacks.
 */
describe('every operation documents the role the API enforces', () => {
  let t: TestApp;
  const users = {} as Record<Role, Household>;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ADMIN_PER_MINUTE: '100000', RATE_LIMIT_LOGIN_PER_MINUTE: '100000' });
    for (const role of ROLES) users[role] = await t.newHousehold({ role });
  });
  afterAll(() => t.close());

  /** A fresh session each call: some operations end the one they are called with. */
  async function session(role: Role) {
    const user = await t.dataSource.getRepository(User).findOneByOrFail({ id: users[role].userId });
    const opened = await t.app.get(SessionsService).openSession(user, { ip: null, userAgent: null }, { method: 'password' });
    return { cookie: `${SESSION_COOKIE}=${opened.token}; ${CSRF_COOKIE}=${opened.csrfToken}`, csrf: opened.csrfToken };
  }

  async function call(op: (typeof operations)[number], role: Role | null, credential: 'ApiKey' | 'Session' | null) {
    const path = op.path.replace(/\{[^}]+\}/g, () => randomUUID());
    let req = request(t.server)[op.method as Method](path);
    if (credential === 'ApiKey') req = req.set('X-Api-Key', users[role!].apiKey);
    if (credential === 'Session') {
      const { cookie, csrf } = await session(role!);
      req = req.set('Cookie', cookie).set('X-CSRF-Token', csrf);
    }
    return ['post', 'put', 'patch', 'delete'].includes(op.method) ? req.send({}) : req;
  }

  it('reads the operations and their roles from openapi.json', () => {
    expect(operations.length).toBeGreaterThanOrEqual(50);
    expect(operations.find((op) => op.name === 'GET /api/v1/family_exports')?.operation['x-required-role']).toBe('admin');
  });

  it.each(operations.filter((op) => op.operation.security?.length).map((op) => [op.name, op]))('%s', async (_, op) => {
    const documented = roleInWords(op.operation);
    expect(op.operation['x-required-role']).toBe(documented);
    const credentials = op.operation.security!.flatMap((scheme) => Object.keys(scheme)) as ('ApiKey' | 'Session')[];
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const credential of credentials) {
      for (const role of ROLES) {
        const res = await call(op, role, credential);
        const refused = res.status === 403 && res.body.error === 'forbidden' && /requires the '\w+' role/.test(res.body.message);
        outcomes.push(`${role} with ${credential}: ${refused ? `refused (${res.body.message})` : 'let through'}`);
        expected.push(
          `${role} with ${credential}: ${ROLE_RANK[role] < ROLE_RANK[documented!] ? `refused (This action requires the '${documented}' role)` : 'let through'}`,
        );
      }
    }
    expect(outcomes).toEqual(expected);
  });

  it.each(operations.filter((op) => !op.operation.security?.length).map((op) => [op.name, op]))(
    '%s, documented as public, asks for no credentials',
    async (_, op) => {
      expect(op.operation['x-required-role']).toBeUndefined();
      const res = await call(op, null, null);
      expect(res.body.error).not.toBe('unauthorized');
    },
  );
});
