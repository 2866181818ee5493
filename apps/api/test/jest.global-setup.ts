import { createLogger } from '../src/common/logger';
import { loadConfig } from '../src/config/config';
import { startRuntime } from '../src/runtime';

/** Against a shared PostgreSQL, migrate once before test files start in parallel. */
export default async function globalSetup(): Promise<void> {
  if (!process.env.DATABASE_URL) return;
  const runtime = await startRuntime(loadConfig({ ...process.env, NODE_ENV: 'test' }), createLogger('silent'));
  await runtime.stop();
}
