import type { Queue } from 'bullmq';

/**
 * How long a request waits for the queue to take a job. BullMQ waits for an unreachable Redis indefinitely; the
 * request gives up in time to answer, error included, within 3 s.
 */
export const ENQUEUE_DEADLINE_MS = 2_500;

/** Adds a job, or rejects when the queue has not taken it by the deadline. */
export async function enqueueWithin<T>(queue: Queue<T>, ...[name, data, options]: Parameters<Queue<T>['add']>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      queue.add(name, data, options),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the queue did not take the job within ${ENQUEUE_DEADLINE_MS} ms`)), ENQUEUE_DEADLINE_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
