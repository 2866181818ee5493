import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { hash } from 'argon2';
import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import type { ApiKeyScope, Role } from '@hearth/contracts';
import { createApp } from '../../src/app';
import { ApiKeysService } from '../../src/auth/api-keys.service';
import { createLogger } from '../../src/common/logger';
import { loadConfig } from '../../src/config/config';
import { startRuntime, Runtime } from '../../src/runtime';
import { UsersService } from '../../src/users/users.service';
import { migratedSnapshot } from './migrated-snapshot';
import { PASSWORD } from './sessions';

/**
 * The real application on a real database: the PostgreSQL of DATABASE_URL / Redis of REDIS_URL when set,
 * otherwise an in-memory PGlite and the PostgreSQL-backed queue. Nothing is mocked.
 */
export interface TestApp {
  app: INestApplication;
  server: Server;
  runtime: Runtime;
  dataSource: DataSource;
  /** A new family with one user and an API key of the given scope. */
  newHousehold(options?: { scope?: ApiKeyScope; role?: Role; currency?: string }): Promise<Household>;
  close(): Promise<void>;
}

export interface Household {
  familyId: string;
  userId: string;
  email: string;
  apiKey: string;
  apiKeyPrefix: string;
}

/**
 * The households' PASSWORD as an argon2id hash, made once per test process: one hash costs 0.1-1 s of both cores,
 * and the suites create over a thousand households. Sign-in still verifies it at full cost.
 */
let passwordHash: Promise<string> | undefined;

/** Gives a user created without a password the households' PASSWORD. */
export async function givePassword(dataSource: DataSource, userId: string): Promise<void> {
  passwordHash ??= hash(PASSWORD);
  await dataSource.query(`UPDATE users SET password_hash = $1 WHERE id = $2`, [await passwordHash, userId]);
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    DATA_DIR: 'memory://',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    QUEUE_PREFIX: `test-${randomUUID().slice(0, 8)}`,
    ...env,
  });
  const logger = createLogger(config.logLevel);
  // An embedded database not made yet, in memory or in a new directory, starts from the run's migrated one.
  const newEmbedded = config.databaseUrl === null && (config.dataDir.startsWith('memory://') || !existsSync(config.dataDir));
  const runtime = await startRuntime(config, logger, { embeddedSnapshot: newEmbedded ? await migratedSnapshot() : undefined });
  const app = await createApp(config, runtime, logger);
  await app.init();
  const dataSource = app.get(DataSource);

  return {
    app,
    server: app.getHttpServer(),
    runtime,
    dataSource,
    async newHousehold({ scope = 'read_write', role = 'admin', currency = 'USD' } = {}) {
      const email = `user-${randomUUID()}@example.com`;
      const { user, family } = await app.get(UsersService).create({ email, role, familyName: `Family ${randomUUID()}`, currency });
      await givePassword(dataSource, user.id);
      const key = await app.get(ApiKeysService).create({ userId: user.id, name: 'test key', scope });
      return { familyId: family.id, userId: user.id, email, apiKey: key.key, apiKeyPrefix: key.prefix };
    },
    async close() {
      await app.close();
      await runtime.stop();
    },
  };
}
