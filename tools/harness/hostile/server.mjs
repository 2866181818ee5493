// The server under test: the built API (dist/api) as a child process, its stdout/stderr captured for the secret scan.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

// HOSTILE_ROOT: another checkout whose dist to run (the harness's own checkout by default).
export const root = process.env.HOSTILE_ROOT ?? new URL('../../../', import.meta.url).pathname;
const MAIN = join(root, 'dist/api/apps/api/src/main.js');
const CLI = join(root, 'dist/api/apps/api/src/cli/cli.js');
const PRELOAD = join(root, 'tools/dist.cjs');

export async function freePort() {
  const srv = createServer();
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address();
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** Starts `node dist/.../main.js`; resolves once /api/v1/health answers. Every line it prints is kept in `log`. */
export async function startServer(env, { onExit } = {}) {
  const child = spawn(process.execPath, ['-r', PRELOAD, MAIN], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const server = { child, log: [], exited: null, url: `http://127.0.0.1:${env.PORT}` };
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => server.log.push(chunk));
  }
  child.on('exit', (code, signal) => {
    server.exited = { code, signal };
    if (!server.stopping) onExit?.(server.exited);
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exited) throw new Error(`server exited during start (${JSON.stringify(server.exited)}):\n${server.log.join('').slice(-3000)}`);
    try {
      const res = await fetch(`${server.url}/api/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer within 120 s:\n${server.log.join('').slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  server.stop = async () => {
    if (server.exited) return;
    server.stopping = true;
    const done = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await done;
    clearTimeout(timer);
  };
  return server;
}

/**
 * Runs the operator CLI (`npm run cli -- ...` without the rebuild) and returns its stdout; throws on failure.
 * `input` is its standard input (a password for --password-stdin).
 */
export function cli(env, args, input = '') {
  const result = spawnSync(process.execPath, ['-r', PRELOAD, CLI, ...args], { cwd: root, env, encoding: 'utf8', input });
  if (result.status !== 0) throw new Error(`cli ${args[0]} failed (${result.status}): ${result.stderr || result.stdout}`);
  return result.stdout;
}
