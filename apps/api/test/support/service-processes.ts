import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * The BUILT service (dist/api, as `npm run start:api` / `start:worker` run it) as child processes, for the
 * multi-process tests (scale-out*.e2e-spec.ts).
 */
const root = join(__dirname, '../../../..');
const MAIN = join(root, 'dist/api/apps/api/src/main.js');
const DIST_LOADER = join(root, 'tools/dist.cjs');

/** The same incremental build `npm test` and `npm start` run first; a no-op when dist is current. */
export function buildApi(): void {
  // The same incremental build `npm test` and `npm start` run first; a no-op when dist is current.
  execFileSync(process.execPath, [join(root, 'tools/build.mjs'), '--api'], { cwd: root, stdio: 'inherit' });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Proc {
  name: string;
  child: ChildProcess;
  /** The last 20,000 characters of stdout and stderr, for failure messages. */
  output: () => string;
  /** Every JSON log line the process wrote to stdout, parsed. */
  logLines: () => Array<Record<string, unknown>>;
  exited: Promise<number | null>;
}

export function startProcess(name: string, env: Record<string, string | undefined>): Proc {
  const child = spawn(process.execPath, ['-r', DIST_LOADER, MAIN], { cwd: root, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let partial = '';
  const lines: Array<Record<string, unknown>> = [];
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    keep(chunk);
    const text = partial + chunk.toString();
    const complete = text.split('\n');
    partial = complete.pop() ?? '';
    for (const line of complete) {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { name, child, output: () => output, logLines: () => lines, exited };
}

export async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs: number, proc?: Proc): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (proc && proc.child.exitCode !== null) throw new Error(`${proc.name} exited (${proc.child.exitCode}) before ${what}:\n${proc.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${proc ? `:\n${proc.output()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function stop(proc: Proc): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
  await proc.exited;
  clearTimeout(timer);
}

/** Waits until an API process answers its health check, or a worker process says it runs. */
export function started(proc: Proc, base?: string): Promise<boolean> {
  return base
    ? until(`${proc.name} health`, async () => (await fetch(`${base}/api/v1/health`)).status === 200, 120_000, proc)
    : until(`${proc.name} start`, async () => proc.output().includes('Hearth worker running'), 120_000, proc);
}

/** A fresh database on the server of `adminUrl` (DATABASE_URL), its URL, and how to drop it. */
export async function scratchDatabase(adminUrl: string, name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminSql = async (sql: string) => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await adminSql(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
