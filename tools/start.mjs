// `npm start`: build what is stale, then serve the API and the SPA on PORT (default 3000).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildAdmin, buildApi } from './build.mjs';

const root = new URL('..', import.meta.url).pathname;
buildApi();
if (!process.argv.includes('--api-only')) buildAdmin();

const child = spawn(process.execPath, ['-r', join(root, 'tools/dist.cjs'), join(root, 'dist/api/apps/api/src/main.js')], {
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
