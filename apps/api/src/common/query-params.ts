import { parseIsoDate } from '@hearth/domain/budget-math';
import type { IsoDate } from '@hearth/domain/budget-math';
import { ApiError } from './api-error';

// Query filters checked by name: a malformed one is 422 naming the parameter, never a database error.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One value of a query parameter; a repeated one (`?a=1&a=2`) arrives as an array and is refused. */
export function singleParam(name: string, value: unknown): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  throw ApiError.validation([`${name} must be given once`]);
}

export function uuidParam(name: string, value: unknown): string | undefined {
  const text = singleParam(name, value);
  if (text !== undefined && !UUID.test(text)) throw ApiError.validation([`${name} must be a valid UUID`]);
  return text;
}

/** A list parameter (`ids[]=a&ids[]=b`, one value or several) of UUIDs. */
export function uuidListParam(name: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((v) => typeof v === 'string' && UUID.test(v))) throw ApiError.validation([`${name} must be valid UUIDs`]);
  return values as string[];
}

/** A calendar date in exactly YYYY-MM-DD form. */
export function strictIsoDateParam(name: string, value: unknown): IsoDate | undefined {
  const text = singleParam(name, value);
  if (text === undefined) return undefined;
  try {
    parseIsoDate(text);
    return text;
  } catch {
    throw ApiError.validation([`${name} must be a date in the form YYYY-MM-DD`]);
  }
}
