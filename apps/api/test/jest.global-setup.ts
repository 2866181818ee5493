import { createLogger } from '../src/common/logger';
import { loadConfig } from '../src/config/config';
import { startRuntime } from '../src/runtime';
import { writeMigratedSnapshot } from './support/migrated-snapshot';

/**
 * Migrates once before test files start in parallel: the shared PostgreSQL when DATABASE_URL is set, else one
 * embedded database that every in-memory test app starts from.
 */
export default async function globalSetup(): Promise<void> {
  if (!process.env.DATABASE_URL) return writeMigratedSnapshot();
  const runtime = await startRuntime(loadConfig({ ...process.env, NODE_ENV: 'test' }), createLogger('silent'));
  await runtime.stop();
}
