import { ParseUUIDPipe } from '@nestjs/common';
import { ApiError } from './api-error';

/** A record id in the path. Malformed ids answer like unknown ones and other families' ones: 404, never a hint about what exists. */
export const recordIdPipe = new ParseUUIDPipe({ exceptionFactory: () => ApiError.notFound() });

/** The OpenAPI response of such a 404. */
export const RECORD_NOT_FOUND = { status: 404, description: "record_not_found: malformed id, unknown id or another family's" };
