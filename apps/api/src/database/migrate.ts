import { ADVISORY_LOCKS } from './advisory-locks';
import { createDataSource, DatabaseTarget } from './data-source';

/**
 * Runs the pending migrations, one process at a time on PostgreSQL (the session advisory lock on a connection of its
 * own); PGlite has one owner. runtime.ts loads this lazily (see its `migrate`).
 */
export async function migrateDatabase(target: DatabaseTarget): Promise<void> {
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
