import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error';

/**
 * Turns body-parser failures into our errors before Nest sees them (Nest would pass the parser's own message on).
 * Registered right after the parsers.
 */
export function bodyParserErrors(error: { type?: string } | undefined, _req: Request, _res: Response, next: NextFunction): void {
  if (error?.type === 'entity.parse.failed') return next(new ApiError(400, 'invalid_json', 'The request body is not valid JSON'));
  if (error?.type === 'entity.too.large') return next(new ApiError(413, 'payload_too_large', 'The request body is too large'));
  if (error?.type === 'encoding.unsupported' || error?.type === 'charset.unsupported') {
    return next(new ApiError(415, 'unsupported_media_type', 'The request body encoding is not supported'));
  }
  next(error);
}

/** Deeper request bodies are refused before anything walks them recursively (validation, class-transformer). */
export const MAX_BODY_DEPTH = 64;

/** True when objects/arrays nest deeper than `limit`; iterative, so a hostile body cannot overflow the stack here. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** Registered after the parsers: a parsed body nested deeper than MAX_BODY_DEPTH is a 400, not a stack overflow. */
export function bodyDepthLimit(req: Request, _res: Response, next: NextFunction): void {
  if (nestsDeeperThan(req.body, MAX_BODY_DEPTH)) {
    return next(new ApiError(400, 'invalid_json', `The request body nests objects or arrays deeper than ${MAX_BODY_DEPTH} levels`));
  }
  next();
}
