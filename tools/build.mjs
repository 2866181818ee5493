// Builds what `npm start` serves: the API (incremental tsc) and the SPA (only when its sources changed).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function buildApi() {
  run('node', [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'apps/api/tsconfig.build.json']);
}

export function buildAdmin({ force = false } = {}) {
  const index = join(root, 'dist/admin/index.html');
  // The SPA bundles the libraries it imports (contracts, money, budget-math, import-formats) as well as its own sources.
  const sources = ['apps/admin', 'libs/contracts', 'libs/domain/money', 'libs/domain/budget-math', 'libs/domain/import-formats'].map((dir) => newestMtime(join(root, dir)));
  if (!force && existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources)) return;
  run('node', [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'apps/admin/vite.config.mts', '--logLevel', 'warn']);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildApi();
  buildAdmin({ force: process.argv.includes('--force') });
}
