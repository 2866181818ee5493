import type { Response } from 'express';

/** A response body, and how many foreign-currency entries its amounts left out for want of an exchange rate on their day. */
export interface WithUnconverted<T> {
  dto: T;
  unconvertedEntries: number;
}

/** The OpenAPI `headers` of a response that reports them in the header `name`. */
export const unconvertedHeaderDoc = (name: string, description: string) => ({ [name]: { description, schema: { type: 'integer' } } });

/** The body, once the header `name` says how many entries it left out (no header when none was): never counted 1:1. */
export function withUnconvertedHeader<T>(res: Response, name: string, { dto, unconvertedEntries }: WithUnconverted<T>): T {
  if (unconvertedEntries) res.setHeader(name, String(unconvertedEntries));
  return dto;
}
