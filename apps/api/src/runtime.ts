import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config';
import type { DatabaseTarget } from './database/data-source';
import { EmbeddedPostgres } from './database/embedded-postgres';

/** Where the process keeps its data and jobs: resolved once at start from the configuration. */
export interface Runtime {
  mode: 'embedded' | 'external';
  database: DatabaseTarget;
  queue: { backend: 'redis'; url: string } | { backend: 'postgres'; url: string; schema: string };
  stop(): Promise<void>;
}

const RUNNING_FILE = 'embedded-server.json';

function liveEmbeddedServer(dataDir: string): { pid: number; url: string } | null {
  const file = join(dataDir, RUNNING_FILE);
  if (!existsSync(file)) return null;
  try {
    const { pid, url } = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; url: string };
    process.kill(pid, 0);
    return { pid, url };
  } catch {
    return null;
  }
}

/** The database a process with this configuration opens, in words for an operator; never a credential. */
export function describeDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>): string {
  if (config.databaseUrl !== null) {
    try {
      const url = new URL(config.databaseUrl);
      return `PostgreSQL at ${url.hostname || 'localhost'}:${url.port || 5432}${url.pathname} (DATABASE_URL)`;
    } catch {
      return 'PostgreSQL (DATABASE_URL)';
    }
  }
  if (config.dataDir.startsWith('memory://')) return `a new in-memory embedded database (DATA_DIR=${config.dataDir}: nothing is kept)`;
  const owner = liveEmbeddedServer(config.dataDir);
  return `the embedded database in ${resolve(config.dataDir)}${owner ? `, through the Hearth process ${owner.pid} that holds it` : ''}`;
}

/**
 * With DATABASE_URL: that PostgreSQL. Without: PGlite in DATA_DIR, or the embedded server another Hearth
 * process (the service while the CLI runs) already holds there, since one PGlite directory has one owner.
 * Migrations run here, before the app starts. `embeddedSnapshot` starts a new embedded database from a migrated
 * one (tests); the migrations then find nothing or only what is newer to do.
 */
export async function startRuntime(config: AppConfig, logger: Logger, { embeddedSnapshot }: { embeddedSnapshot?: Blob } = {}): Promise<Runtime> {
  let embedded: EmbeddedPostgres | null = null;
  let url = config.databaseUrl;
  const isEmbedded = url === null;
  if (url === null) {
    url = config.dataDir.startsWith('memory://') ? null : (liveEmbeddedServer(config.dataDir)?.url ?? null);
    if (url === null) {
      embedded = await EmbeddedPostgres.start(config.dataDir, embeddedSnapshot);
      url = embedded.url;
      if (!config.dataDir.startsWith('memory://')) {
        writeFileSync(join(config.dataDir, RUNNING_FILE), JSON.stringify({ pid: process.pid, url }));
      }
    }
  }
  const database: DatabaseTarget = { url, embedded: isEmbedded };
  await migrate(database);
  const queue: Runtime['queue'] = config.redisUrl
    ? { backend: 'redis', url: config.redisUrl }
    : // PGlite ignores per-connection search_path, so the embedded queue lives in the default schema.
      { backend: 'postgres', url, schema: isEmbedded ? 'public' : 'bullmq' };
  if (isEmbedded) {
    logger.info({ dataDir: config.dataDir }, 'Running in embedded single-node mode (PGlite database, PostgreSQL-backed job queue)');
  }
  return {
    mode: isEmbedded ? 'embedded' : 'external',
    database,
    queue,
    async stop() {
      if (!embedded) return;
      if (!config.dataDir.startsWith('memory://')) rmSync(join(config.dataDir, RUNNING_FILE), { force: true });
      await embedded.stop();
    },
  };
}

/**
 * On PostgreSQL, several processes (API and worker processes of a scaled-out deployment) may start at once: each
 * waits for the advisory lock, so migrations run once and the others find nothing left to do. PGlite has one owner.
 */
export async function migrate(target: DatabaseTarget): Promise<void> {
  // Loaded here, not on import: the embedded database's start (file reads, WebAssembly compilation) overlaps loading
  // TypeORM, the entities and the migrations, which a short-lived process (the CLI) feels.
  const { migrateDatabase } = await import('./database/migrate');
  await migrateDatabase(target);
}
