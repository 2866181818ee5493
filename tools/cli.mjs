// `npm run cli -- <command>`: operator commands against the configured database (see --help).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildApi } from './build.mjs';

const root = new URL('..', import.meta.url).pathname;
buildApi();
const result = spawnSync(
  process.execPath,
  ['-r', join(root, 'tools/dist.cjs'), join(root, 'dist/api/apps/api/src/cli/cli.js'), ...process.argv.slice(2)],
  { stdio: 'inherit', env: process.env },
);
process.exit(result.status ?? 1);
