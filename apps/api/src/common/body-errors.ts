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
