import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importEsm } from '../../src/common/esm';

/**
 * A redis-server of the test's own on a free port, so a test can stop and restart it without touching others.
 * Types for private-redis-server.mjs (plain JS, so the fault harness starts the same one).
 */
export interface PrivateRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface RedisServerModule {
  startPrivateRedis(port?: number): Promise<PrivateRedis>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const { startPrivateRedis: start } = await importEsm<RedisServerModule>(pathToFileURL(join(__dirname, 'private-redis-server.mjs')).href);
  return start();
}
