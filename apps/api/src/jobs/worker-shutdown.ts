import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { WorkerHost } from '@nestjs/bullmq';
import type { Worker } from 'bullmq';

/** How long a worker's blocking Redis connection may take to come back before the worker is closed. */
const RECONNECT_GRACE_MS = 5_000;

/** The part of an ioredis client this needs; BullMQ does not expose its blocking connection in its types. */
interface RedisClientState {
  status: string;
  once(event: 'ready', listener: () => void): unknown;
  off(event: 'ready', listener: () => void): unknown;
}

/**
 * BullMQ closes a worker by disconnecting its blocking connection and waiting for ioredis's 'end' event, which
 * ioredis never emits when the connection is between reconnect attempts (redis/ioredis#1830). After a Redis
 * restart, shutdown would then wait forever. Before the workers close, each connection still reconnecting gets a
 * few seconds to come back; Redis that stays away is left to the process's shutdown deadline (main.ts).
 */
@Injectable()
export class WorkerShutdown implements BeforeApplicationShutdown {
  constructor(private readonly discovery: DiscoveryService) {}

  async beforeApplicationShutdown(): Promise<void> {
    const workers = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost)
      .flatMap((host) => workerOf(host));
    await Promise.all(workers.map(waitForBlockingConnection));
  }
}

/** The host's worker; none when the application closes before its workers started. */
function workerOf(host: WorkerHost): Worker[] {
  try {
    return [host.worker as Worker];
  } catch {
    return [];
  }
}

async function waitForBlockingConnection(worker: Worker): Promise<void> {
  const backend = (worker as unknown as { backend?: { blockingConnection?: { client: Promise<RedisClientState> } } }).backend;
  const pending = backend?.blockingConnection?.client; // absent on BullMQ's PostgreSQL backend
  if (!pending) return;
  const client = await pending;
  if (client.status !== 'reconnecting') return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, RECONNECT_GRACE_MS);
    client.once('ready', done);
  });
}
