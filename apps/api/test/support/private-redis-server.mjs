// A redis-server of a test's own, as a child process on a free loopback port, keeping nothing on disk: stopping it
// loses every queue. Plain JS so the fault harness (tools/harness/faults) starts the same one as the API tests,
// which use it through the typed private-redis.ts.
import { spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A free loopback port, never the machine's shared PostgreSQL (5432) or Redis (6379), nor one in `avoid`. */
export async function freePort(avoid = []) {
  for (;;) {
    const server = createServer();
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address();
    await new Promise((resolve) => server.close(resolve));
    if (![5432, 6379, ...avoid].includes(port)) return port;
  }
}

export async function portOpen(port) {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.connect(port, '127.0.0.1');
  });
}

export async function until(what, check, timeoutMs, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Starts redis-server on `port` (a free one when omitted); `stop()` kills it like `shutdown nosave`, by our child's pid. */
export async function startPrivateRedis(port) {
  port ??= await freePort();
  let child = null;
  const redis = {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      await until(`redis-server on ${port}`, () => portOpen(port), 10_000, 50);
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      await new Promise((resolve) => {
        running.once('exit', resolve);
        running.kill('SIGKILL');
      });
    },
  };
  await redis.start();
  return redis;
}
