import type { Queue } from 'bullmq';
import { currentRequest } from '../common/request-context';

/**
 * How long, from the request's arrival, a request waits for the queue to take a job. BullMQ waits for an unreachable
 * Redis indefinitely; the request gives up in time to answer, error included, within 3 s of its arrival.
 */
export const ENQUEUE_DEADLINE_MS = 2_500;

/**
 * The least the queue is given, however long the request took before (a large upload parsed and stored): a queue
 * that works takes a job in milliseconds, and one that does not is told apart in this much.
 */
export const ENQUEUE_MIN_WAIT_MS = 500;

/** How long the queue may take: what is left of ENQUEUE_DEADLINE_MS since the request arrived, at least ENQUEUE_MIN_WAIT_MS. */
export function enqueueWaitMs(arrivedAt: number | undefined, now: number): number {
  const spent = arrivedAt === undefined ? 0 : now - arrivedAt;
  return Math.max(ENQUEUE_MIN_WAIT_MS, ENQUEUE_DEADLINE_MS - spent);
}

/** Adds a job, or rejects when the queue has not taken it in time (enqueueWaitMs). */
export async function enqueueWithin<T>(queue: Queue<T>, ...[name, data, options]: Parameters<Queue<T>['add']>): Promise<void> {
  const waitMs = enqueueWaitMs(currentRequest()?.arrivedAt, performance.now());
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      queue.add(name, data, options),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the queue did not take the job within ${waitMs} ms`)), waitMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
