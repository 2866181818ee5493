import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { startTestApp, TestApp } from './test-app';

/**
 * The app on an empty database of its own: a new PostgreSQL database when DATABASE_URL is set (dropped on close),
 * else the usual in-memory PGlite. For tests about instance-wide state (first user, last super admin).
 */
export async function startFreshTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  if (!process.env.DATABASE_URL) return startTestApp(env);
  const admin = new URL(process.env.DATABASE_URL);
  const name = `hearth_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const run = async (sql: string) => {
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const t = await startTestApp({ ...env, DATABASE_URL: url.toString() });
  return {
    ...t,
    async close() {
      await t.close();
      await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
