import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import apiGlobalSetup from '../../../api/test/jest.global-setup';

const root = join(__dirname, '../../../..');

/** Builds the SPA when its sources changed (the API serves dist/admin), then migrates a shared database once. */
export default async function globalSetup(): Promise<void> {
  const build = spawnSync(process.execPath, ['--input-type=module', '-e', "import { buildAdmin } from './tools/build.mjs'; await buildAdmin();"], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' }, // Jest sets NODE_ENV=test, which would bundle React's dev build
  });
  if (build.status !== 0) throw new Error('building the admin SPA failed');
  await apiGlobalSetup();
}
