import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

const VALID_REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** The request being served, for code far from its handler: the job it queues names it in the worker's logs. */
interface RequestContext {
  id: string;
  /** performance.now() when the request arrived. */
  arrivedAt: number;
}

const current = new AsyncLocalStorage<RequestContext>();

/** The id and arrival of the request being served; undefined outside a request (a job, the CLI). */
export const currentRequest = (): RequestContext | undefined => current.getStore();

/** Gives every request an id (the caller's X-Request-Id when it is sane), echoed in the response and the logs. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const arrivedAt = performance.now();
  const incoming = req.header('x-request-id');
  const id = incoming && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  (req as Request & { id: string }).id = id;
  res.setHeader('X-Request-Id', id);
  current.run({ id, arrivedAt }, next);
}

export const requestIdOf = (req: Request): string => (req as Request & { id?: string }).id ?? 'unknown';

/** One log line per request, carrying its id; the query string is left out because it may hold secrets. */
export function accessLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ requestId: requestIdOf(req), method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}
