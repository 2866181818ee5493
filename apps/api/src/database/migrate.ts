import { ADVISORY_LOCKS } from './advisory-locks';
import { createDataSource, DatabaseTarget } from './data-source';

/**
 * On PostgreSQL, several processes (API and worker processes of a scaled-out deployment) may start at once: each
 * waits for the advisory lock, so migrations run once and the others find nothing left to do. PGlite has one owner.
 */
export async function migrate(target: DatabaseTarget): Promise<void> {
  const dataSource = createDataSource(target);
  await dataSource.initialize();
  const lock = target.embedded ? null : dataSource.createQueryRunner();
  try {
    await lock?.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCKS.migrations]);
    await dataSource.runMigrations();
  } finally {
    await lock?.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS.migrations]).catch(() => undefined);
    await lock?.release();
    await dataSource.destroy();
  }
}
