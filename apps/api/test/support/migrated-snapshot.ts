import { existsSync, mkdirSync, openAsBlob, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres';
import { migrate } from '../../src/runtime';

/**
 * One migrated embedded database per test run: the global setup writes it, and every in-memory test app starts
 * from it instead of creating and migrating its own (about 3.5 s saved per app on the embedded engine).
 */
const FILE = join(__dirname, '../../../../tmp/embedded-migrated.tar');

export async function writeMigratedSnapshot(): Promise<void> {
  const embedded = await EmbeddedPostgres.start('memory://');
  try {
    await migrate({ url: embedded.url, embedded: true });
    const tarball = Buffer.from(await (await embedded.snapshot()).arrayBuffer());
    mkdirSync(join(FILE, '..'), { recursive: true });
    // Renamed into place, so a run starting meanwhile never reads half a file.
    writeFileSync(`${FILE}.${process.pid}`, tarball);
    renameSync(`${FILE}.${process.pid}`, FILE);
  } finally {
    await embedded.stop();
  }
}

/** The run's migrated database, or undefined when no global setup wrote one (the app then migrates itself). */
export async function migratedSnapshot(): Promise<Blob | undefined> {
  return existsSync(FILE) ? openAsBlob(FILE) : undefined;
}
