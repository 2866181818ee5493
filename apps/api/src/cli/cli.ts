import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { API_KEY_SCOPES, ApiKeyScope, AuditEvent, ROLES, Role } from '@hearth/contracts';
import { AuditEntry, AuditService } from '../audit/audit.service';
import { ApiKeysRepository } from '../auth/api-keys.repository';
import { apiKeyNameProblems, ApiKeysService } from '../auth/api-keys.service';
import { ApiError } from '../common/api-error';
import { createLogger } from '../common/logger';
import { loadConfig } from '../config/config';
import { createDataSource } from '../database/data-source';
import { startRuntime } from '../runtime';
import { newUserProblems, UsersService } from '../users/users.service';
import { SSO_COMMANDS } from '../sso/sso-cli';
import { AUDIT_COMMANDS } from '../audit/audit-cli';
import type { DataSource } from 'typeorm';

interface Command {
  summary: string;
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; default?: string }>;
  required: string[];
  /** Problems with the given values alone, found before the database is opened: usage errors (exit 2). */
  check?(values: Record<string, string | undefined>): string[];
  run(values: Record<string, string | undefined>, dataSource: DataSource): Promise<void>;
}

/** The audit row of a change made by an operator's command: actor `cli`, no request origin. */
const audited = (dataSource: DataSource, event: AuditEvent, entry: Omit<AuditEntry, 'actor' | 'origin'>) =>
  new AuditService(dataSource).record(event, { ...entry, actor: 'cli' });

const COMMANDS: Record<string, Command> = {
  'users:create': {
    summary: 'Create a user in the named family, creating the family when new (in --currency, default USD); joining refuses another currency',
    usage: '--email EMAIL --password PASSWORD --family-name NAME [--role member|admin|super_admin (default member)] [--currency USD]',
    // No --currency default: a new family gets USD, and joining one must not look like asking for USD.
    options: { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string', default: 'member' }, 'family-name': { type: 'string' }, currency: { type: 'string' } },
    required: ['email', 'password', 'family-name'],
    check(v) {
      if (!ROLES.includes(v.role as Role)) return [`--role must be one of ${ROLES.join(', ')}`];
      return newUserProblems({ email: v.email!, password: v.password, role: v.role as Role, familyName: v['family-name'], currency: v.currency });
    },
    async run(v, dataSource) {
      const { user, family, familyCreated } = await new UsersService(dataSource).create({
        email: v.email!,
        password: v.password!,
        role: v.role as Role,
        familyName: v['family-name'],
        currency: v.currency,
      });
      await audited(dataSource, 'user_created', { userId: user.id, familyId: family.id, details: { role: user.role, family_created: familyCreated } });
      console.log(`Created user ${user.email} (${user.role}) id=${user.id}`);
      console.log(`${familyCreated ? 'Created' : 'Joined'} family "${family.name}" (${family.currency}) id=${family.id}`);
    },
  },
  'api-keys:create': {
    summary: 'Create an API key for a user; the key is printed once and never stored',
    usage: '--email EMAIL --name NAME --scope read|read_write',
    options: { email: { type: 'string' }, name: { type: 'string' }, scope: { type: 'string' } },
    required: ['email', 'name', 'scope'],
    check(v) {
      return [...apiKeyNameProblems(v.name!), ...(API_KEY_SCOPES.includes(v.scope as ApiKeyScope) ? [] : [`--scope must be one of ${API_KEY_SCOPES.join(', ')}`])];
    },
    async run(v, dataSource) {
      const user = await new UsersService(dataSource).findByEmail(v.email!);
      if (!user) throw new Error(`No user with e-mail ${v.email}`);
      if (user.status !== 'active') throw new Error(`User ${user.email} is suspended; reactivate the account before creating an API key`);
      const created = await new ApiKeysService(new ApiKeysRepository(dataSource)).create({
        userId: user.id,
        name: v.name!,
        scope: v.scope as ApiKeyScope,
        uniqueName: true,
      });
      await audited(dataSource, 'api_key_created', {
        userId: user.id,
        familyId: user.familyId,
        details: { api_key_id: created.id, prefix: created.prefix, scope: created.scope },
      });
      console.log(`Created API key "${created.name}" (${created.scope}) prefix=${created.prefix}`);
      console.log('Store it now; it cannot be shown again:');
      console.log(created.key);
    },
  },
  'api-keys:revoke': {
    summary: 'Revoke an API key by its visible prefix',
    usage: '--prefix hth_xxxxxxxx',
    options: { prefix: { type: 'string' } },
    required: ['prefix'],
    async run(v, dataSource) {
      const revoked = await new ApiKeysService(new ApiKeysRepository(dataSource)).revoke(v.prefix!);
      if (!revoked) throw new Error(`No active API key with prefix ${v.prefix}`);
      const owner = await new UsersService(dataSource).findWithFamily(revoked.userId);
      await audited(dataSource, 'api_key_revoked', { userId: revoked.userId, familyId: owner?.familyId ?? null, details: { api_key_id: revoked.id, prefix: revoked.prefix } });
      console.log(`Revoked API key ${v.prefix}`);
    },
  },
  ...SSO_COMMANDS,
  ...AUDIT_COMMANDS,
};

/** Exit codes, for scripts: 2 means fix the command line, 1 means it ran and failed. */
const EXIT_CODES = 'Exit codes: 0 done; 1 failed (no such user or key, refused by a rule, database unreachable); 2 usage error (unknown command or option, missing or invalid value).';

function help(): string {
  const lines = ['Usage: npm run cli -- <command> [options]', '       npm run cli -- <command> --help', '', 'Commands:'];
  for (const [name, command] of Object.entries(COMMANDS)) {
    lines.push(`  ${name.padEnd(28)} ${command.summary}`);
    if (command.usage) lines.push(`  ${''.padEnd(28)} ${command.usage}`);
  }
  lines.push('', 'Configuration comes from the same environment variables as the service (DATA_DIR, DATABASE_URL, ...).', EXIT_CODES);
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${help()}`);
    return 2;
  }
  const usage = `Usage: npm run cli -- ${name} ${command.usage}`.trimEnd();
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, options: { ...command.options, help: { type: 'boolean' } }, strict: true }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.log(`${command.summary}\n${usage}\n${EXIT_CODES}`);
    return 0;
  }
  const missing = command.required.filter((option) => !values[option]);
  const problems = missing.length ? [`Missing ${missing.map((m) => `--${m}`).join(', ')}`] : (command.check?.(values as Record<string, string | undefined>) ?? []);
  if (problems.length) {
    console.error(`${problems.join('; ')}\n${usage}`);
    return 2;
  }
  const config = loadConfig();
  const runtime = await startRuntime(config, createLogger('warn'));
  const dataSource = createDataSource(runtime.database);
  await dataSource.initialize();
  try {
    await command.run(values as Record<string, string | undefined>, dataSource);
    return 0;
  } finally {
    await dataSource.destroy();
    await runtime.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof ApiError ? (error.extra.errors ?? [error.message]).join('; ') : error instanceof Error ? error.message : String(error);
    console.error(`Error: ${message}`);
    process.exit(1);
  },
);
