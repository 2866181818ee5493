import type { Job } from 'bullmq';
import type { Logger } from 'pino';

/** How a job ended, as its last log line says: `complete`, `failed`, `skipped`, ...; rows it wrote or read, if any. */
export interface JobOutcome {
  outcome: string;
  rows?: number;
}

/** What every queued job carries besides its own data: the id of the request that queued it, for the log lines. */
export interface QueuedBy {
  requestId?: string;
}

/**
 * Runs a job between two log lines (`summary` says how its result ended), `job started` and `job finished`: the queue, the job and what it is about (import,
 * export, family), this worker, the request that queued it, and at the end its duration, rows and outcome. A job
 * that throws ends `error` (the queue retries or fails it) and its error is logged with the line.
 */
export async function logged<T>(
  logger: Logger,
  worker: string,
  job: Job,
  about: Record<string, string | undefined>,
  run: () => Promise<T>,
  summary: (result: T) => JobOutcome = (result) => result as JobOutcome,
): Promise<T> {
  const line = { queue: job.queueName, jobId: job.id, job: job.name, ...about, requestId: (job.data as QueuedBy | undefined)?.requestId, worker, attempt: job.attemptsMade + 1 };
  logger.info(line, 'job started');
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  try {
    const result = await run();
    const { outcome, rows } = summary(result);
    logger.info({ ...line, durationMs: durationMs(), rows, outcome }, 'job finished');
    return result;
  } catch (err) {
    logger.warn({ ...line, durationMs: durationMs(), outcome: 'error', err }, 'job finished');
    throw err;
  }
}
