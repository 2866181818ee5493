import { createPostgresBackend, createRedisBackend, setDefaultBackendFactory } from 'bullmq';
import type { Runtime } from '../runtime';

export type QueueConnection = Record<string, unknown>;

/**
 * BullMQ runs on Redis when REDIS_URL is set and on its PostgreSQL backend otherwise.
 * The backend is process-wide, chosen once here before any queue or worker exists.
 */
export function queueConnection(queue: Runtime['queue']): QueueConnection {
  if (queue.backend === 'redis') {
    setDefaultBackendFactory(createRedisBackend);
    const url = new URL(queue.url);
    return {
      host: url.hostname,
      port: Number(url.port || 6379),
      username: url.username || undefined,
      password: url.password ? decodeURIComponent(url.password) : undefined,
      db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
      tls: url.protocol === 'rediss:' ? {} : undefined,
      maxRetriesPerRequest: null,
    };
  }
  setDefaultBackendFactory(createPostgresBackend as never);
  return { connectionString: queue.url, schema: queue.schema, migrate: true, max: 4 };
}
