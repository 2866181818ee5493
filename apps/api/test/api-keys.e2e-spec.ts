import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import request from 'supertest';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { ApiKey } from '../src/auth/auth.entities';
import { Family } from '../src/finance/entities/family.entity';
import { User } from '../src/users/user.entity';
import { as, signIn } from './support/sessions';
import { startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';

const INVALID = { error: 'unauthorized', message: 'Access token or API key is invalid, expired, or missing' };

describe('API-key authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const settings = (key?: string) => {
    const req = request(t.server).get('/api/v1/family_settings');
    return key === undefined ? req : req.set('X-Api-Key', key);
  };

  it('lets a valid key read its own family', async () => {
    const h = await t.newHousehold({ scope: 'read' });
    const res = await settings(h.apiKey).expect(200);
    expect(res.body).toMatchObject({ id: h.familyId, currency: 'USD', month_start_day: 1 });
  });

  it('refuses a request without a key, telling it to send one or sign in (the admin app reads the settings with its session)', async () => {
    const res = await settings().expect(401);
    expect(res.body).toEqual({ error: 'unauthorized', message: 'Send an API key in the X-Api-Key header, or sign in.' });
  });

  it.each([
    ['empty', ''],
    ['malformed', 'not-a-key'],
    ['unknown', `hth_abcdefgh_${'A'.repeat(43)}`],
  ])('refuses a %s key with the 401 body', async (_, key) => {
    const res = await settings(key).expect(401);
    expect(res.body).toEqual(INVALID);
  });

  it('refuses a revoked key', async () => {
    const h = await t.newHousehold();
    await settings(h.apiKey).expect(200);
    expect(await t.app.get(ApiKeysService).revoke(h.apiKeyPrefix)).toMatchObject({ prefix: h.apiKeyPrefix, userId: h.userId });
    expect((await settings(h.apiKey).expect(401)).body).toEqual(INVALID);
  });

  it('refuses an expired key', async () => {
    const h = await t.newHousehold();
    const expired = await t.app
      .get(ApiKeysService)
      .create({ userId: h.userId, name: 'old', scope: 'read', expiresAt: new Date(Date.now() - 1000) });
    expect((await settings(expired.key).expect(401)).body).toEqual(INVALID);
  });

  it("refuses a suspended user's key with 'Account has been deactivated'", async () => {
    const h = await t.newHousehold();
    await t.dataSource.getRepository(User).update({ id: h.userId }, { status: 'suspended' });
    expect((await settings(h.apiKey).expect(401)).body).toEqual({
      error: 'unauthorized',
      message: 'Account has been deactivated',
    });
  });

  it('refuses a read key on a write route with the 403 body, and changes nothing', async () => {
    const h = await t.newHousehold({ scope: 'read' });
    const res = await request(t.server)
      .patch('/api/v1/family_settings')
      .set('X-Api-Key', h.apiKey)
      .send({ name: 'Renamed' })
      .expect(403);
    expect(res.body).toEqual({ error: 'insufficient_scope', message: "This action requires the 'write' scope" });
    expect((await settings(h.apiKey).expect(200)).body.name).not.toBe('Renamed');
  });

  it('lets a read_write key write', async () => {
    const h = await t.newHousehold({ scope: 'read_write' });
    const res = await request(t.server)
      .patch('/api/v1/family_settings')
      .set('X-Api-Key', h.apiKey)
      .send({ name: 'The Renamed', month_start_day: 15, timezone: 'Asia/Tokyo' })
      .expect(200);
    expect(res.body).toMatchObject({ name: 'The Renamed', month_start_day: 15, timezone: 'Asia/Tokyo' });
  });

  it('keeps families apart: a key sees only its own family', async () => {
    const a = await t.newHousehold();
    const b = await t.newHousehold();
    expect((await settings(a.apiKey).expect(200)).body.id).toBe(a.familyId);
    expect((await settings(b.apiKey).expect(200)).body.id).toBe(b.familyId);
  });

  it('stores only a hash of the key', async () => {
    const h = await t.newHousehold();
    const rows = await t.dataSource.query(`SELECT * FROM api_keys WHERE prefix = $1`, [h.apiKeyPrefix]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0])).not.toContain(h.apiKey.slice(13));
  });
});

describe('operator CLI', () => {
  // Drives a real install the way an operator does: its own embedded data directory, or the CI PostgreSQL.
  // Asynchronous, so the embedded server living in this test process keeps answering the CLI.
  const root = join(__dirname, '../../..');
  /** Rejects with the exit code, stdout and stderr. `input` is the CLI's standard input (the password of --password-stdin). */
  const run = (args: string[], env: Record<string, string>, input = '', cwd = root) =>
    new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      const child = execFile(process.execPath, [join(root, 'tools/cli.mjs'), ...args], { cwd, env: { ...process.env, ...env }, encoding: 'utf8' }, (error, stdout, stderr) =>
        error ? reject(Object.assign(error, { stdout, stderr })) : resolve({ stdout, stderr }),
      );
      child.stdin!.end(input);
    });
  const cli = async (args: string[], env: Record<string, string>, input = '') => (await run(args, env, input)).stdout;
  const failure = (promise: Promise<unknown>) => promise.then(() => ({ code: 0, stdout: '', stderr: '' }), (error: { code: number; stdout: string; stderr: string }) => error);
  /** The embedded engine whatever the suite runs on: these tests are about DATA_DIR. */
  const EMBEDDED = { DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'silent' };

  it('creates a user and a key that authenticates, then revokes it', async () => {
    const dataDir = `${tmpdir()}/hearth-cli-${process.pid}-${Date.now()}`;
    const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const email = `cli-${Date.now()}@example.com`;
    expect(await cli(['--help'], env)).toContain('api-keys:create');
    expect(await cli(['users:create', '--email', email, '--password-stdin', '--role', 'super_admin', '--family-name', `CLI ${email}`, '--currency', 'EUR'], env, 'long enough pw\n')).toMatch(
      /Created user .* \(super_admin\)[\s\S]*Created family "CLI .*" \(EUR\)/,
    );
    const out = await cli(['api-keys:create', '--email', email.toUpperCase(), '--name', 'ci', '--scope', 'read'], env);
    const key = out.trim().split('\n').pop()!;
    const prefix = /prefix=(hth_\w{8})/.exec(out)![1];

    const t = await startTestApp({ DATA_DIR: dataDir });
    try {
      const ok = await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', key).expect(200);
      expect(ok.body.currency).toBe('EUR');
      expect(await cli(['api-keys:revoke', '--prefix', prefix], env)).toContain(`Revoked API key ${prefix}`);
      await request(t.server).get('/api/v1/family_settings').set('X-Api-Key', key).expect(401);
      // Each command is in the audit log with actor cli, as the super admin reads it.
      const browser = await signIn(t.server, email, 'long enough pw');
      const [user] = await t.dataSource.query(`SELECT id, family_id FROM users WHERE email = $1`, [email]);
      const log = await as(t.server, browser, 'get', `/api/v1/admin/audit_logs?user_id=${user.id}`).expect(200);
      const byCli = log.body.audit_logs.filter((row: { actor: string }) => row.actor === 'cli');
      expect(byCli.map((row: { event: string; family_id: string; details: Record<string, unknown> }) => [row.event, row.family_id, row.details]).reverse()).toEqual([
        ['user_created', user.family_id, { role: 'super_admin', family_created: true }],
        ['api_key_created', user.family_id, { api_key_id: expect.any(String), prefix, scope: 'read' }],
        ['api_key_revoked', user.family_id, { api_key_id: expect.any(String), prefix }],
      ]);
      expect(log.body.audit_logs.find((row: { event: string }) => row.event === 'login')).toMatchObject({ actor: 'user' });
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 360_000); // three CLI processes, each booting an embedded database from disk

  it('reads the password from standard input, never shows it, and names the database it opens', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-cli-')) + '/data';
    const env = { ...EMBEDDED, DATA_DIR: dataDir };
    const email = `stdin-${Date.now()}@example.com`;
    const password = 'a passphrase on stdin';
    try {
      const created = await run(['users:create', '--email', email, '--password-stdin', '--family-name', `Stdin ${email}`], env, `${password}\n`);
      expect(created.stdout).toContain(`Created user ${email} (member)`);
      expect(created.stderr).toContain(`Creating a new embedded database in ${dataDir} (DATA_DIR)`);
      expect(created.stdout + created.stderr).not.toContain(password);
      // The service open on that directory holds the database; the CLI goes through it, and says so.
      const t = await startTestApp(env);
      try {
        await signIn(t.server, email, password); // exactly what was piped in, less its line ending
        const through = await failure(run(['api-keys:revoke', '--prefix', 'hth_abcdefgh'], env));
        expect(through.stderr).toContain(`Using the embedded database in ${dataDir}, through the Hearth process ${process.pid} that holds it\n`);
      } finally {
        await t.close();
      }
      const alone = await failure(run(['api-keys:revoke', '--prefix', 'hth_abcdefgh'], env));
      expect(alone).toMatchObject({ code: 1, stderr: expect.stringContaining(`Using the embedded database in ${dataDir}\nError: No active API key`) });
    } finally {
      rmSync(dirname(dataDir), { recursive: true, force: true });
    }
  }, 240_000);

  it('asks for the password twice at a prompt that does not echo it when run in a terminal', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-cli-'));
    const env = { ...process.env, ...EMBEDDED, DATA_DIR: dataDir };
    const email = `prompt-${Date.now()}@example.com`;
    const password = 'typed at the prompt';
    /** The CLI on a pseudo-terminal (util-linux `script`), which echoes every keystroke unless the program turns echo off. */
    const typeAtPrompt = async (answers: string[]) => {
      const session = spawn('script', ['-qfec', `'${process.execPath}' tools/cli.mjs users:create --email ${email} --family-name Prompted`, '/dev/null'], { cwd: root, env });
      let screen = '';
      session.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => session.on('exit', resolve));
      for (const [i, prompt] of [`Password for ${email}: `, 'Repeat it: '].entries()) {
        await until(`the prompt "${prompt}"`, async () => screen.includes(prompt), 60_000);
        session.stdin.write(`${answers[i]}\r`);
      }
      const code = await exited;
      session.stdin.end();
      return { code, screen };
    };
    try {
      const differ = await typeAtPrompt([password, `${password}!`]);
      expect(differ).toEqual({ code: 2, screen: expect.stringContaining('The two passwords differ; nothing was changed') });
      const typed = await typeAtPrompt([password, password]);
      expect(typed).toEqual({ code: 0, screen: expect.stringContaining(`Created user ${email}`) });
      expect(differ.screen + typed.screen).not.toContain('typed at');
      const t = await startTestApp({ ...EMBEDDED, DATA_DIR: dataDir });
      try {
        await signIn(t.server, email, password);
      } finally {
        await t.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);

  it('takes no password on the command line, where npm would print it, and says how to give one', async () => {
    const env = { DATA_DIR: 'memory://', LOG_LEVEL: 'silent' };
    const refused = await failure(run(['users:create', '--email', 'a@example.com', '--password', 'long enough pw', '--family-name', 'F'], env));
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('--password is not taken: npm prints the command line') });
    expect(refused.stderr).not.toContain('long enough pw');
    // Without a terminal to prompt on, the password must come on standard input.
    expect(await failure(run(['users:create', '--email', 'a@example.com', '--family-name', 'F'], env))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Missing the password: give it on standard input with --password-stdin'),
    });
  }, 120_000);

  it('refuses to invent ./data when DATA_DIR is unset and the current directory has none, naming where it looked', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'hearth-cwd-'));
    try {
      const refused = await failure(run(['api-keys:revoke', '--prefix', 'hth_abcdefgh'], { ...EMBEDDED, DATA_DIR: '' }, '', cwd));
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining(`Error: no database in ${cwd}/data: DATA_DIR is unset and this directory has no ./data`) });
      expect(existsSync(join(cwd, 'data'))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  }, 120_000);

  it('explains a bad command and exits non-zero', async () => {
    await expect(cli(['users:create', '--email', 'x@example.com'], { DATA_DIR: 'memory://' })).rejects.toThrow(
      /Missing --family-name/,
    );
  });

  // Scripts tell "fix the command line" (2) from "the command ran and failed" (1) by the exit code alone.
  const exitCode = (args: string[], env: Record<string, string>, input = '') =>
    cli(args, env, input).then(
      () => 0,
      (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr }),
    );

  it('exits 2 on every usage error: unknown command or option, a missing or invalid value', async () => {
    const env = { DATA_DIR: 'memory://', LOG_LEVEL: 'silent' };
    const usage = (message: RegExp) => ({ code: 2, stderr: expect.stringMatching(message) });
    expect(await exitCode(['users:nuke'], env)).toEqual(usage(/Unknown command "users:nuke"/));
    expect(await exitCode(['api-keys:revoke', '--prefix', 'hth_abcdefgh', '--force'], env)).toEqual(usage(/Unknown option '--force'/));
    expect(await exitCode(['api-keys:revoke', '--prefix'], env)).toEqual(usage(/--prefix/));
    expect(await exitCode(['api-keys:revoke', 'hth_abcdefgh'], env)).toEqual(usage(/Unexpected argument 'hth_abcdefgh'/));
    expect(await exitCode(['api-keys:revoke'], env)).toEqual(usage(/Missing --prefix/));
    expect(await exitCode(['api-keys:create', '--email', 'a@example.com', '--name', 'n', '--scope', 'admin'], env)).toEqual(usage(/--scope must be one of read, read_write/));
    expect(await exitCode(['users:create', '--email', 'a@example.com', '--password-stdin', '--family-name', 'F', '--role', 'owner'], env, 'long enough pw')).toEqual(
      usage(/--role must be one of/),
    );
    expect(await exitCode(['users:create', '--email', 'not-an-email', '--password-stdin', '--family-name', 'F', '--currency', 'dollars'], env, 'short\n')).toEqual(
      usage(/email must be a valid e-mail address; password must be 8 to 256 characters; currency must be an ISO 4217 currency code such as USD or EUR \("DOLLARS" is not one\)/),
    );
  }, 300_000); // eight CLI processes

  it('exits 2 for an API key name the service could never accept (blank or over 100 characters)', async () => {
    const env = { DATA_DIR: 'memory://', LOG_LEVEL: 'silent' };
    const usage = { code: 2, stderr: expect.stringContaining('name must be 1 to 100 characters') };
    expect(await exitCode(['api-keys:create', '--email', 'a@example.com', '--name', 'n'.repeat(101), '--scope', 'read'], env)).toEqual(usage);
    expect(await exitCode(['api-keys:create', '--email', 'a@example.com', '--name', '   ', '--scope', 'read'], env)).toEqual(usage);
  }, 120_000);

  it('exits 1 when a well-formed command fails: no such user or key, a database that does not answer', async () => {
    const env = { DATA_DIR: 'memory://', LOG_LEVEL: 'silent' };
    expect(await exitCode(['api-keys:create', '--email', 'nobody@example.com', '--name', 'n', '--scope', 'read'], env)).toEqual({
      code: 1,
      stderr: expect.stringContaining('Error: No user with e-mail nobody@example.com'),
    });
    expect(await exitCode(['api-keys:revoke', '--prefix', 'hth_abcdefgh'], env)).toEqual({ code: 1, stderr: expect.stringContaining('No active API key with prefix hth_abcdefgh') });
    const unreachable = await exitCode(['api-keys:revoke', '--prefix', 'hth_abcdefgh'], { DATABASE_URL: 'postgres://postgres:pg-secret@127.0.0.1:1/none', LOG_LEVEL: 'silent' });
    // Which database it tried comes first, without the credentials in its URL.
    expect(unreachable).toEqual({ code: 1, stderr: expect.stringMatching(/(^|\n)Using PostgreSQL at 127\.0\.0\.1:1\/none \(DATABASE_URL\)\n[\s\S]*Error:/) });
    expect(JSON.stringify(unreachable)).not.toContain('pg-secret');
  }, 120_000);

  it('refuses to add a user to an existing family under another currency, creating nothing', async () => {
    const dataDir = `${tmpdir()}/hearth-cli-${process.pid}-${Date.now()}`;
    const t = await startTestApp({ DATA_DIR: dataDir });
    try {
      const h = await t.newHousehold(); // a USD family
      const family = await t.dataSource.getRepository(Family).findOneByOrFail({ id: h.familyId });
      const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
      const email = `partner-${h.familyId.slice(0, 8)}@example.com`; // a fixed one stays in a reused database
      const base = ['users:create', '--email', email, '--password-stdin', '--family-name', family.name];
      expect(await exitCode([...base, '--currency', 'eur'], env, 'long enough pw')).toEqual({
        code: 1,
        stderr: expect.stringContaining(`Error: family "${family.name}" already exists with currency USD, not EUR`),
      });
      expect(await t.dataSource.getRepository(User).countBy({ email })).toBe(0);
      // Leaving --currency out (or naming the family's own) joins the family.
      expect(await cli(base, env, 'long enough pw')).toContain(`Joined family "${family.name}" (USD)`);
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses an API key for a suspended user, whose keys would be refused anyway', async () => {
    const dataDir = `${tmpdir()}/hearth-cli-${process.pid}-${Date.now()}`;
    const t = await startTestApp({ DATA_DIR: dataDir });
    try {
      const h = await t.newHousehold();
      await t.dataSource.getRepository(User).update({ id: h.userId }, { status: 'suspended' });
      await expect(cli(['api-keys:create', '--email', h.email, '--name', 'ops', '--scope', 'read'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' })).rejects.toThrow(
        `Error: User ${h.email} is suspended; reactivate the account before creating an API key`,
      );
      expect(await t.dataSource.getRepository(ApiKey).countBy({ userId: h.userId, name: 'ops' })).toBe(0);
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a key name the user already has on an active key, as the settings API does', async () => {
    const dataDir = `${tmpdir()}/hearth-cli-${process.pid}-${Date.now()}`;
    const t = await startTestApp({ DATA_DIR: dataDir });
    try {
      const h = await t.newHousehold();
      await expect(cli(['api-keys:create', '--email', h.email, '--name', ' test key ', '--scope', 'read'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' })).rejects.toThrow(
        'Error: name is already used by another of your active API keys',
      );
      expect(await t.dataSource.getRepository(ApiKey).countBy({ userId: h.userId })).toBe(1);
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses an e-mail, password or family name longer than the HTTP API accepts', async () => {
    const args = ['users:create', '--email', `${'a'.repeat(320)}@example.com`, '--password-stdin', '--family-name', 'f'.repeat(201)];
    expect(await exitCode(args, { DATA_DIR: 'memory://', LOG_LEVEL: 'silent' }, 'p'.repeat(257))).toEqual({
      code: 2,
      stderr: expect.stringContaining('email must be at most 320 characters; password must be 8 to 256 characters; family name must be at most 200 characters'),
    });
  }, 120_000);
});
