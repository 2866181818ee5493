import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where the genuine export files of other apps and banks are (a `shared/realworld` folder with its expected.json):
 * REALWORLD_DIR, else the first such folder beside this checkout or a folder above it; null when this machine has
 * none, and the suites that read them are skipped. They are test data kept outside the repository.
 */
export function realworldDir(): string | null {
  const named = process.env.REALWORLD_DIR;
  if (named) return existsSync(join(named, 'expected.json')) ? named : null;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared/realworld');
    if (existsSync(join(candidate, 'expected.json'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}
