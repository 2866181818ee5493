import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config';
import { CommandDatabase } from '../src/database/command-database';
import { CLIENT_SECRET_PURPOSE } from '../src/sso/oidc-gateway';
import { SecretBox } from '../src/sso/secret-box';
import { backfillEncryptionTask, listProvidersTask, seedProvidersTask } from '../src/sso/sso-cli';
import { IDENTITY_LABEL_PURPOSE } from '../src/users/identity-blocks.repository';
import { as, signIn } from './support/sessions';
import { OidcIdp, startOidcIdp } from './support/oidc-idp';
import { APP_ORIGIN, createProvider, lastFailure, SSO_ENV, ssoLogin } from './support/sso';
import { startTestApp, TestApp } from './support/test-app';

const run = randomUUID().slice(0, 8);
const YAML_NAME = `yaml-${run}`;
const DB_NAME = `db-${run}`;
const SEED_NAME = `seed-${run}`;
const SECRET = `secret-${randomUUID()}`;
const SECRET_ENV = `HEARTH_TEST_SSO_SECRET_${run.toUpperCase()}`;

describe('provider sources and operator tasks', () => {
  let idp: OidcIdp;
  let file: string;
  beforeAll(async () => {
    idp = await startOidcIdp({
      clients: [{ client_id: 'hearth', client_secret: SECRET, redirect_uris: [YAML_NAME, DB_NAME, SEED_NAME].map((n) => `${APP_ORIGIN}/auth/${n}/callback`) }],
      accounts: { yuri: { email: `yuri-${run}@example.org`, email_verified: true } },
    });
    process.env[SECRET_ENV] = SECRET;
    file = join(mkdtempSync(join(tmpdir(), 'hearth-auth-')), 'auth.yml');
    writeFileSync(
      file,
      `test:\n  providers:\n    - id: ${YAML_NAME}\n      strategy: openid_connect\n      label: From YAML\n      issuer: ${idp.issuer}\n      client_id: hearth\n      client_secret: \${${SECRET_ENV}}\n      scopes: openid email profile\n`,
    );
  });
  afterAll(async () => {
    delete process.env[SECRET_ENV];
    await idp?.close();
  });

  describe('AUTH_PROVIDERS_SOURCE=yaml', () => {
    let t: TestApp;
    beforeAll(async () => {
      // A provider left in the database from db mode: not in the file, so not usable in yaml mode.
      const db = await startTestApp(SSO_ENV);
      const admin = await signIn(db.server, (await db.newHousehold({ role: 'super_admin' })).email);
      await createProvider(db.server, admin, { name: DB_NAME, strategy: 'openid_connect', issuer: idp.issuer, client_id: 'hearth', client_secret: SECRET, enabled: true });
      if (process.env.DATABASE_URL) {
        await db.close();
        t = await startTestApp({ ...SSO_ENV, AUTH_PROVIDERS_SOURCE: 'yaml', AUTH_PROVIDERS_FILE: file });
      } else {
        // PGlite is in-memory per app: carry the row over by hand.
        const [row] = await db.dataSource.query(`SELECT * FROM sso_providers WHERE name = $1`, [DB_NAME]);
        await db.close();
        t = await startTestApp({ ...SSO_ENV, AUTH_PROVIDERS_SOURCE: 'yaml', AUTH_PROVIDERS_FILE: file });
        await t.dataSource.query(
          `INSERT INTO sso_providers (id, name, label, strategy, enabled, issuer, client_id, client_secret_encrypted) VALUES ($1, $2, $3, $4, true, $5, $6, $7)`,
          [row.id, row.name, row.label, row.strategy, row.issuer, row.client_id, row.client_secret_encrypted],
        );
      }
    });
    afterAll(() => t?.close());

    it('loads the file at start, encrypting the secret, and signs in through it', async () => {
      const [row] = await t.dataSource.query(`SELECT * FROM sso_providers WHERE name = $1`, [YAML_NAME]);
      expect(row).toMatchObject({ label: 'From YAML', enabled: true, issuer: idp.issuer });
      expect(row.client_secret_encrypted).toMatch(/^enc:v1:/);
      expect(JSON.stringify(row)).not.toContain(SECRET);
      expect((await ssoLogin(t.server, idp, YAML_NAME, 'yuri')).location).toBe('/');
    });

    it('refuses providers that are not in the file, and changes through the admin API', async () => {
      const start = await request(t.server).get(`/auth/${DB_NAME}`).expect(302);
      expect(start.headers.location).toBe('/login?error=sso_provider_unavailable');
      expect((await lastFailure(t, DB_NAME)).reason).toBe('provider_disabled');
      const admin = await signIn(t.server, (await t.newHousehold({ role: 'super_admin' })).email);
      const list = await as(t.server, admin, 'get', '/api/v1/admin/sso_providers').expect(200);
      expect(list.body.source).toBe('yaml');
      const refused = await as(t.server, admin, 'post', '/api/v1/admin/sso_providers')
        .send({ name: `new-${run}`, strategy: 'openid_connect', issuer: idp.issuer, client_id: 'hearth', client_secret: SECRET })
        .expect(409);
      expect(refused.body.error).toBe('providers_from_yaml');
    });
  });

  describe('a providers file that cannot be read as one', () => {
    const root = join(__dirname, '../../..');
    /** The built service (`npm start`) with AUTH_PROVIDERS_SOURCE=yaml; resolves with its exit code and stderr. */
    const startWith = (providersFile: string) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const env = { ...process.env, ...SSO_ENV, NODE_ENV: 'test', PORT: '3998', DATA_DIR: mkdtempSync(join(tmpdir(), 'hearth-data-')), AUTH_PROVIDERS_SOURCE: 'yaml', AUTH_PROVIDERS_FILE: providersFile };
        const child = execFile(process.execPath, ['-r', join(root, 'tools/dist.cjs'), join(root, 'dist/api/apps/api/src/main.js')], { env, timeout: 60_000 }, (_error, _stdout, stderr) =>
          resolve({ code: child.exitCode, stderr }),
        );
      });

    it.each([
      ['not valid YAML', 'providers:\n  - id: corp\n    strategy: openid_connect\n   issuer: https://idp.example.com\n', /line 4/],
      ['providers that are not a list', 'providers:\n  corp:\n    strategy: openid_connect\n', /providers must be a list/],
    ])('stops the service at start, naming the file and AUTH_PROVIDERS_FILE, when it holds %s', async (_label, text, detail) => {
      const broken = join(mkdtempSync(join(tmpdir(), 'hearth-auth-')), 'auth.yml');
      writeFileSync(broken, text);
      const { code, stderr } = await startWith(broken);
      expect(code).toBe(1);
      const [line] = stderr.split('\n').filter((l) => l.startsWith('Hearth failed to start'));
      expect(line).toContain(`${broken} (AUTH_PROVIDERS_FILE)`);
      expect(stderr).toMatch(detail);
    }, 90_000);
  });

  describe('CLI tasks', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(SSO_ENV);
    });
    afterAll(() => t?.close());

    it('sso_providers:seed previews with DRY_RUN, then creates, then skips unchanged providers; sso_providers:list shows them', async () => {
      const seedFile = join(mkdtempSync(join(tmpdir(), 'hearth-seed-')), 'auth.yml');
      writeFileSync(
        seedFile,
        `providers:\n  - { id: ${SEED_NAME}, strategy: openid_connect, issuer: "${idp.issuer}", client_id: hearth, client_secret: "${SECRET}", enabled: false }\n  - { id: broken-${run}, strategy: oauth2 }\n`,
      );
      const config = loadConfig({ ...process.env, ...SSO_ENV, NODE_ENV: 'test' });
      const out: string[] = [];
      expect(await seedProvidersTask(CommandDatabase.on(t.dataSource), config, seedFile, true, (l) => out.push(l))).toBe(1);
      expect(out).toContain('Mode: DRY RUN (no changes will be saved)');
      expect(out.find((l) => l.startsWith(`CREATE (dry-run): ${SEED_NAME}`))).toBeDefined();
      expect(out.find((l) => l.startsWith(`ERROR: broken-${run}: authorization_url is required`))).toBeDefined();
      expect(await t.dataSource.query(`SELECT * FROM sso_providers WHERE name = $1`, [SEED_NAME])).toEqual([]);

      out.length = 0;
      await seedProvidersTask(CommandDatabase.on(t.dataSource), config, seedFile, false, (l) => out.push(l));
      expect(out.find((l) => l.startsWith(`CREATE: ${SEED_NAME}`))).toBeDefined();
      expect(out.join('\n')).not.toContain(SECRET);
      const [row] = await t.dataSource.query(`SELECT * FROM sso_providers WHERE name = $1`, [SEED_NAME]);
      expect(row.enabled).toBe(false);
      expect(SecretBox.fromConfig(config).open(row.client_secret_encrypted, CLIENT_SECRET_PURPOSE)).toBe(SECRET);
      // An operator's change is audited with actor cli; the dry run and the unchanged run below record nothing.
      const audited = () => t.dataSource.query(`SELECT event, actor, provider_id, details->'changed' AS changed FROM audit_logs WHERE provider_name = $1`, [SEED_NAME]);
      expect(await audited()).toEqual([{ event: 'provider_created', actor: 'cli', provider_id: row.id, changed: expect.arrayContaining(['issuer', 'client_id', 'client_secret']) }]);

      out.length = 0;
      await seedProvidersTask(CommandDatabase.on(t.dataSource), config, seedFile, false, (l) => out.push(l));
      expect(out).toContain(`SKIP: ${SEED_NAME} (no changes)`);
      expect(await audited()).toHaveLength(1);

      out.length = 0;
      await listProvidersTask(CommandDatabase.on(t.dataSource), (l) => out.push(l));
      expect(out).toContain(`${SEED_NAME.padEnd(20)} ${'openid_connect'.padEnd(20)} ✗ disabled`);
      expect(await seedProvidersTask(CommandDatabase.on(t.dataSource), config, `${seedFile}.missing`, false, (l) => out.push(l))).toBe(1);
    });

    it.each([
      ['default_role: guest', 'default_role must be one of member, admin, super_admin'],
      ['token_auth_method: private_key_jwt', 'token_auth_method must be one of client_secret_post, client_secret_basic'],
    ])('sso_providers:seed refuses a provider with %s, as the admin API does', async (setting, message) => {
      const name = `bad-${setting.split(':')[0].replace(/_/g, '-')}-${run}`;
      const seedFile = join(mkdtempSync(join(tmpdir(), 'hearth-seed-')), 'auth.yml');
      writeFileSync(
        seedFile,
        `providers:\n  - { id: ${name}, strategy: openid_connect, issuer: "${idp.issuer}", client_id: hearth, client_secret: "${SECRET}", ${setting} }\n`,
      );
      const config = loadConfig({ ...process.env, ...SSO_ENV, NODE_ENV: 'test' });
      const out: string[] = [];
      expect(await seedProvidersTask(CommandDatabase.on(t.dataSource), config, seedFile, false, (l) => out.push(l))).toBe(1);
      expect(out).toContain(`ERROR: ${name}: ${message}`);
      expect(await t.dataSource.query(`SELECT * FROM sso_providers WHERE name = $1`, [name])).toEqual([]);
    });

    it('security:backfill_encryption encrypts plaintext secrets and re-encrypts them (and removed identities\' labels) under custom keys', async () => {
      const admin = await signIn(t.server, (await t.newHousehold({ role: 'super_admin' })).email);
      const provider = await createProvider(t.server, admin, { name: `bf-${run}`, strategy: 'oauth2', authorization_url: `${idp.issuer}/auth`, token_url: `${idp.issuer}/token`, userinfo_url: `${idp.issuer}/me`, client_id: 'c', client_secret: SECRET });
      await t.dataSource.query(`UPDATE sso_providers SET client_secret_encrypted = $2 WHERE id = $1`, [provider.id, 'plaintext-from-before']);
      const base = loadConfig({ ...process.env, ...SSO_ENV, NODE_ENV: 'test' });
      const stored = async () => (await t.dataSource.query(`SELECT client_secret_encrypted AS v FROM sso_providers WHERE id = $1`, [provider.id]))[0].v as string;
      await t.dataSource.query(`INSERT INTO sso_identity_blocks (provider_id, uid_digest, identity_label_encrypted) VALUES ($1, $2, $3)`, [
        provider.id,
        'a'.repeat(64),
        SecretBox.fromConfig(base).seal(`gone-${run}@example.org`, IDENTITY_LABEL_PURPOSE),
      ]);
      const label = async () => (await t.dataSource.query(`SELECT identity_label_encrypted AS v FROM sso_identity_blocks WHERE provider_id = $1`, [provider.id]))[0].v as string;

      const preview = await backfillEncryptionTask(CommandDatabase.on(t.dataSource), base, true);
      expect(preview.results.sso_providers.updated).toBeGreaterThanOrEqual(1);
      expect(await stored()).toBe('plaintext-from-before');
      // Only this provider's value is asserted: a shared PostgreSQL database keeps rows of earlier runs under other keys.
      const auditedRuns = async () => (await t.dataSource.query(`SELECT count(*)::int AS n FROM audit_logs WHERE event = 'secrets_reencrypted' AND actor = 'cli'`))[0].n as number;
      const runsBefore = await auditedRuns();
      await backfillEncryptionTask(CommandDatabase.on(t.dataSource), base, false);
      expect(SecretBox.fromConfig(base).open(await stored(), CLIENT_SECRET_PURPOSE)).toBe('plaintext-from-before');
      expect(await auditedRuns()).toBe(runsBefore + 1);

      const custom = loadConfig({
        ...process.env,
        ...SSO_ENV,
        NODE_ENV: 'test',
        ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY: 'custom-primary',
        ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY: 'custom-deterministic',
        ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT: 'custom-salt',
      });
      expect(() => SecretBox.fromConfig(custom).open(SecretBox.fromConfig(base).seal('x', 'p'), 'p')).toThrow();
      const rotated = await backfillEncryptionTask(CommandDatabase.on(t.dataSource), custom, false);
      expect(rotated.results.sso_providers.updated).toBeGreaterThanOrEqual(1);
      expect(rotated.results.sso_identity_blocks.updated).toBeGreaterThanOrEqual(1);
      expect(SecretBox.fromConfig(custom).open(await stored(), CLIENT_SECRET_PURPOSE)).toBe('plaintext-from-before');
      expect(SecretBox.fromConfig(custom).open(await label(), IDENTITY_LABEL_PURPOSE)).toBe(`gone-${run}@example.org`);
    });
  });
});
