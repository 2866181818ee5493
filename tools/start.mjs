// `npm start`: build what is stale, then run the service: API + SPA on PORT (default 3000) and the job workers, in one
// process. `--role=api` (npm run start:api) serves HTTP and only enqueues; `--role=worker` (npm run start:worker) runs
// the job workers without an HTTP listener. Split roles need DATABASE_URL (and REDIS_URL); see README "Scaling out".
// The role can also come from HEARTH_ROLE; `--no-admin` skips building the SPA. Each build says what it builds and how
// long it took; a current build prints nothing.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildAdmin, buildApi } from './build.mjs';

const root = new URL('..', import.meta.url).pathname;
const roleArg = process.argv.find((arg) => arg.startsWith('--role='));
const env = { ...process.env };
if (roleArg) env.HEARTH_ROLE = roleArg.slice('--role='.length);

await buildApi();
const child = spawn(process.execPath, ['-r', join(root, 'tools/dist.cjs'), join(root, 'dist/api/apps/api/src/main.js')], {
  stdio: 'inherit',
  env,
});
let adminFailed = false;
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(adminFailed ? 1 : (code ?? (signal ? 1 : 0))));
// The configuration check in the service names a bad role; only a worker has no SPA to serve. The SPA builds while the
// service starts (a first start's new embedded database takes longer), and is served once built.
if (env.HEARTH_ROLE !== 'worker' && !process.argv.includes('--no-admin')) {
  buildAdmin().catch((error) => {
    console.error(`${error.message}: stopping`);
    adminFailed = true;
    child.kill('SIGTERM');
  });
}
