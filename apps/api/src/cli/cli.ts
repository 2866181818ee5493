import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { API_KEY_SCOPES, ApiKeyScope, AuditEvent, ROLES, Role } from '@hearth/contracts';
import type { AuditEntry } from '../audit/audit.service';
import type { CommandDatabase } from '../database/command-database';
import { ApiError } from '../common/api-error';
import { loadConfig } from '../config/config';
import { AUDIT_COMMANDS } from '../audit/audit-commands';
import { SSO_COMMANDS } from '../sso/sso-commands';
import type { Command } from './command';
import { PromptCancelled, promptPassword, readPasswordFromStdin } from './password-input';

// A command lives a second or two: the embedded database's WebAssembly is compiled once, by the fast baseline compiler,
// and not again by the optimizing one in the background, which costs twice the CPU for a process this short.
setFlagsFromString('--liftoff-only');

/** The audit row of a change made by an operator's command: actor `cli`, no request origin. */
async function audited(db: CommandDatabase, event: AuditEvent, entry: Omit<AuditEntry, 'actor' | 'origin'>): Promise<void> {
  const [{ AuditService }, { AuditLogsRepository }] = await Promise.all([import('../audit/audit.service'), import('../audit/audit-logs.repository')]);
  await new AuditService(db.make(AuditLogsRepository)).record(event, { ...entry, actor: 'cli' });
}

/** UsersService as the application's injector builds it, on the command's connection. */
async function usersService(db: CommandDatabase) {
  const [{ UsersService }, { UsersRepository }, { FamiliesRepository }, { Transactions }] = await Promise.all([
    import('../users/users.service'),
    import('../users/users.repository'),
    import('../finance/families.repository'),
    import('../database/transactions'),
  ]);
  return new UsersService(db.make(UsersRepository), db.make(FamiliesRepository), db.make(Transactions));
}

// Only what `--help` needs loads up front; a command loads its services (and the database layer) when it runs.
const COMMANDS: Record<string, Command> = {
  'users:create': {
    summary: 'Create a user in the named family, creating the family when new (in --currency, default USD); joining refuses another currency',
    usage: '--email EMAIL --family-name NAME [--role member|admin|super_admin (default member)] [--currency USD] [--password-stdin]',
    // No --currency default: a new family gets USD, and joining one must not look like asking for USD.
    options: { email: { type: 'string' }, role: { type: 'string', default: 'member' }, 'family-name': { type: 'string' }, currency: { type: 'string' } },
    required: ['email', 'family-name'],
    password: { prompt: (v) => `Password for ${v.email}: `, confirm: true },
    async check(v) {
      if (!ROLES.includes(v.role as Role)) return [`--role must be one of ${ROLES.join(', ')}`];
      const { newUserProblems } = await import('../users/users.service');
      return newUserProblems({ email: v.email!, password: v.password, role: v.role as Role, familyName: v['family-name'], currency: v.currency });
    },
    preload: () => import('../users/users.service'),
    async run(v, db) {
      const { user, family, familyCreated } = await (await usersService(db)).create({
        email: v.email!,
        password: v.password!,
        role: v.role as Role,
        familyName: v['family-name'],
        currency: v.currency,
      });
      await audited(db, 'user_created', { userId: user.id, familyId: family.id, details: { role: user.role, family_created: familyCreated } });
      console.log(`Created user ${user.email} (${user.role}) id=${user.id}`);
      console.log(`${familyCreated ? 'Created' : 'Joined'} family "${family.name}" (${family.currency}) id=${family.id}`);
    },
  },
  'api-keys:create': {
    summary: 'Create an API key for a user; the key is printed once and never stored',
    usage: '--email EMAIL --name NAME --scope read|read_write',
    options: { email: { type: 'string' }, name: { type: 'string' }, scope: { type: 'string' } },
    required: ['email', 'name', 'scope'],
    async check(v) {
      const { apiKeyNameProblems } = await import('../auth/api-key-token');
      return [...apiKeyNameProblems(v.name!), ...(API_KEY_SCOPES.includes(v.scope as ApiKeyScope) ? [] : [`--scope must be one of ${API_KEY_SCOPES.join(', ')}`])];
    },
    preload: () => Promise.all([import('../users/users.service'), import('../auth/api-keys.service'), import('../auth/api-keys.repository')]),
    async run(v, db) {
      const [{ ApiKeysService }, { ApiKeysRepository }] = await Promise.all([import('../auth/api-keys.service'), import('../auth/api-keys.repository')]);
      const user = await (await usersService(db)).findByEmail(v.email!);
      if (!user) throw new Error(`No user with e-mail ${v.email}`);
      if (user.status !== 'active') throw new Error(`User ${user.email} is suspended; reactivate the account before creating an API key`);
      const created = await new ApiKeysService(db.make(ApiKeysRepository)).create({
        userId: user.id,
        name: v.name!,
        scope: v.scope as ApiKeyScope,
        uniqueName: true,
      });
      await audited(db, 'api_key_created', {
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
    preload: () => Promise.all([import('../users/users.service'), import('../auth/api-keys.service'), import('../auth/api-keys.repository')]),
    async run(v, db) {
      const [{ ApiKeysService }, { ApiKeysRepository }] = await Promise.all([import('../auth/api-keys.service'), import('../auth/api-keys.repository')]);
      const revoked = await new ApiKeysService(db.make(ApiKeysRepository)).revoke(v.prefix!);
      if (!revoked) throw new Error(`No active API key with prefix ${v.prefix}`);
      const owner = await (await usersService(db)).findWithFamily(revoked.userId);
      await audited(db, 'api_key_revoked', { userId: revoked.userId, familyId: owner?.familyId ?? null, details: { api_key_id: revoked.id, prefix: revoked.prefix } });
      console.log(`Revoked API key ${v.prefix}`);
    },
  },
  ...SSO_COMMANDS,
  ...AUDIT_COMMANDS,
};

const PASSWORD_HELP =
  'The password is typed at a prompt that does not echo it, or read from standard input with --password-stdin (one trailing newline is dropped); it is never an argument.';

/** Exit codes, for scripts: 2 means fix the command line, 1 means it ran and failed. */
const EXIT_CODES = 'Exit codes: 0 done; 1 failed (no such user or key, refused by a rule, database unreachable); 2 usage error (unknown command or option, missing or invalid value).';

function help(): string {
  const lines = ['Usage: npm run cli -- <command> [options]', '       npm run cli -- <command> --help', '', 'Commands:'];
  for (const [name, command] of Object.entries(COMMANDS)) {
    lines.push(`  ${name.padEnd(28)} ${command.summary}`);
    if (command.usage) lines.push(`  ${''.padEnd(28)} ${command.usage}`);
  }
  lines.push(
    '',
    'Configuration comes from the same environment variables as the service (DATA_DIR, DATABASE_URL, ...); the database a command opens is named on stderr.',
    PASSWORD_HELP,
    EXIT_CODES,
  );
  return lines.join('\n');
}

/** A usage error: the command line must change (exit 2). */
class UsageError extends Error {}

const PASSWORD_OPTION = /^--password(=|$)/;

/** A password typed at a prompt that does not echo it (twice when the command says so); only on a terminal. */
async function promptedPassword(command: Command, values: Record<string, string | undefined>): Promise<string> {
  if (!process.stdin.isTTY) {
    throw new UsageError('Missing the password: give it on standard input with --password-stdin (printf %s "$PASSWORD" | npm run cli -- ...), or run the command in a terminal to type it');
  }
  const password = await promptPassword(command.password!.prompt(values));
  if (command.password!.confirm && (await promptPassword('Repeat it: ')) !== password) throw new UsageError('The two passwords differ; nothing was changed');
  return password;
}

/**
 * Says on stderr (stdout is the command's output, which scripts read) which database the command opens. Without
 * DATA_DIR the embedded database is ./data of the current directory: when there is none, the operator is most likely
 * not where the service runs, and an empty new database would only answer "no such user"; so that is refused.
 */
function announceDatabase(config: ReturnType<typeof loadConfig>, database: string): void {
  const embeddedOnDisk = config.databaseUrl === null && !config.dataDir.startsWith('memory://');
  const dataDirSet = Boolean(process.env.DATA_DIR);
  if (embeddedOnDisk && !existsSync(config.dataDir)) {
    if (!dataDirSet) {
      throw new Error(
        `no database in ${resolve(config.dataDir)}: DATA_DIR is unset and this directory has no ./data. ` +
          "Set DATA_DIR to the service's data directory (or DATABASE_URL), or run the command where the service runs; DATA_DIR=./data creates a new, empty database here",
      );
    }
    console.error(`Creating a new embedded database in ${resolve(config.dataDir)} (DATA_DIR)`);
    return;
  }
  console.error(`Using ${database}${embeddedOnDisk && !dataDirSet ? ' (DATA_DIR unset)' : ''}`);
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
  if (command.password && rest.some((arg) => PASSWORD_OPTION.test(arg))) {
    console.error(`--password is not taken: npm prints the command line, and the shell history and process list keep it. Use --password-stdin, or a terminal to be prompted.\n${usage}`);
    return 2;
  }
  const options = { ...command.options, ...(command.password ? { 'password-stdin': { type: 'boolean' as const } } : {}), help: { type: 'boolean' as const } };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, options, strict: true }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.log(`${command.summary}\n${usage}${command.password ? `\n${PASSWORD_HELP}` : ''}\n${EXIT_CODES}`);
    return 0;
  }
  const missing = command.required.filter((option) => !values[option]);
  if (missing.length) {
    console.error(`Missing ${missing.map((m) => `--${m}`).join(', ')}\n${usage}`);
    return 2;
  }
  const given = values as Record<string, string | undefined>;
  try {
    // Read before the checks, so one message names every problem; a prompt comes after them instead.
    if (command.password && values['password-stdin']) given.password = await readPasswordFromStdin();
    let problems = (await command.check?.(given)) ?? [];
    if (!problems.length && command.password && given.password === undefined) {
      given.password = await promptedPassword(command, given);
      problems = (await command.check?.(given)) ?? [];
    }
    if (problems.length) throw new UsageError(problems.join('; '));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n${usage}`);
    return 2;
  }

  const config = loadConfig();
  const [{ describeDatabase, startRuntime }, { createLogger }] = await Promise.all([import('../runtime'), import('../common/logger')]);
  announceDatabase(config, describeDatabase(config));
  const starting = startRuntime(config, createLogger('warn'));
  starting.catch(() => undefined); // a failure is reported where it is awaited, below
  // The embedded database starts with file reads and a WebAssembly compilation off this thread: load the database
  // layer (TypeORM, entities, migrations) and the command's services meanwhile, once that has begun.
  await new Promise((resolve) => setImmediate(resolve));
  const [{ CommandDatabase }] = await Promise.all([import('../database/command-database'), command.preload?.()]);
  const runtime = await starting;
  const db = await CommandDatabase.open(runtime.database);
  try {
    await command.run(given, db);
    return 0;
  } finally {
    await db.close();
    await runtime.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof PromptCancelled) {
      console.error('Cancelled; nothing was changed.');
      process.exit(130);
    }
    const message = error instanceof ApiError ? (error.extra.errors ?? [error.message]).join('; ') : error instanceof Error ? error.message : String(error);
    console.error(`Error: ${message}`);
    process.exit(1);
  },
);
