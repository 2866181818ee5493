// Private infrastructure for the fault harness: a PostgreSQL cluster and a redis-server of its own on free ports,
// and the built Hearth server (dist) as child processes. Only these are ever stopped, restarted or killed; the
// machine's shared PostgreSQL (5432) and Redis (6379) are never touched.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const root = new URL('../../../', import.meta.url).pathname;
const require = createRequire(join(root, 'package.json'));
export const pg = require('pg');
export const bullmq = require('bullmq');

// The same private redis-server (and port helpers) as the API tests.
export { freePort, portOpen, sleep, startPrivateRedis, until } from '../../../apps/api/test/support/private-redis-server.mjs';

const isRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL tool, as the postgres OS user when we are root (initdb and postgres refuse to run as root). */
function pgTool(bin, args) {
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const result = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${bin.split('/').pop()} ${args[0]} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

function postgresBin() {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin/initdb'))) : [];
  if (!versions.length) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin');
  return join(base, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/** A throw-away cluster in a temp dir: trust auth on 127.0.0.1 only, fsync off (a crash-restart keeps WAL in the OS). */
export async function startPrivatePostgres(port) {
  const bin = postgresBin();
  // As root the cluster belongs to postgres, which must reach the directory: /tmp, not a TMPDIR under /root.
  const dir = mkdtempSync(join(isRoot ? '/tmp' : tmpdir(), 'hearth-faults-pg-'));
  const data = join(dir, 'data');
  if (isRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  pgTool(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const ctl = (...args) => pgTool(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'postgres.log'), '-w', '-t', '60', ...args]);
  ctl('-o', options, 'start');
  return {
    port,
    dir,
    url: (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`,
    /** Crash-like restart: every backend dies at once, uncommitted work is rolled back by recovery. */
    restartImmediate: () => ctl('-m', 'immediate', '-o', options, 'restart'),
    async destroy() {
      try {
        ctl('-m', 'immediate', 'stop');
      } catch {
        /* already stopped */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether the built server knows process roles (HEARTH_ROLE=api|worker); otherwise one process does both. */
export function distHasRoles() {
  const config = join(root, 'dist/api/apps/api/src/config/config.js');
  return existsSync(config) && readFileSync(config, 'utf8').includes('HEARTH_ROLE') && existsSync(join(root, 'dist/api/apps/api/src/worker.js'));
}

/** One Hearth process from dist: `node -r tools/dist.cjs dist/.../main.js` with the harness's environment. */
export function startHearth(name, env, logDir) {
  mkdirSync(logDir, { recursive: true });
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, ['-r', join(root, 'tools/dist.cjs'), join(root, 'dist/api/apps/api/src/main.js')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return {
    name,
    pid: child.pid,
    child,
    exited,
    /** SIGKILL: no shutdown hook runs, locks and transactions are abandoned mid-flight. */
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      log.end();
    },
  };
}

/** Runs the built CLI (dist) against the private database, `input` on its standard input; returns its stdout. */
export function cli(env, args, input = '') {
  const result = spawnSync(process.execPath, ['-r', join(root, 'tools/dist.cjs'), join(root, 'dist/api/apps/api/src/cli/cli.js'), ...args], {
    cwd: root,
    input,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0) throw new Error(`cli ${args[0]} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}
