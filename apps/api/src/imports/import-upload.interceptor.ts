import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import { IMPORT_FORMAT_FACTS, IMPORT_TYPES } from '@hearth/contracts';

/** The largest upload any accepted content has as its own limit (a PDF statement's); text content has IMPORT_MAX_BYTES. */
const LARGEST_OWN_LIMIT = Math.max(...IMPORT_TYPES.flatMap((type) => IMPORT_FORMAT_FACTS[type].accepts.map((content) => content.maxBytes ?? 0)));

/** Multer's refusals, each as our own error: the client learns what to change, never a library message. */
const MULTER_ERRORS: Partial<Record<MulterError['code'], ApiError>> = {
  LIMIT_FILE_SIZE: new ApiError(422, 'file_too_large', 'File is too large for any import type.'),
  LIMIT_FILE_COUNT: new ApiError(422, 'unexpected_file', "Send exactly one file, in the field 'file'."),
  LIMIT_UNEXPECTED_FILE: new ApiError(422, 'unexpected_file', "Send exactly one file, in the field 'file'."),
  LIMIT_FIELD_COUNT: new ApiError(422, 'too_many_fields', 'The form has too many fields.'),
  LIMIT_FIELD_VALUE: new ApiError(422, 'content_too_large', 'A form field is too large for an import.'),
  LIMIT_PART_COUNT: new ApiError(422, 'too_many_fields', 'The form has too many parts.'),
  LIMIT_FIELD_KEY: new ApiError(422, 'too_many_fields', 'A form field name is too long.'),
};

/** Body types an import is read from: JSON with raw_file_content, or multipart with the file. */
const IMPORT_BODY_TYPES = ['application/json', 'multipart/form-data'];

/**
 * Reads an optional multipart file in the field `file` (JSON bodies pass through untouched). Any other body, like a
 * CSV posted as the body itself (curl --data-binary @file.csv sends it as a form), is 415 saying how to send it.
 */
@Injectable()
export class ImportUploadInterceptor implements NestInterceptor {
  private readonly upload: ReturnType<ReturnType<typeof multer>['single']>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.upload = multer({
      storage: multer.memoryStorage(),
      // Per-type sizes are checked after the upload (readUpload); this cap is the largest any type accepts.
      limits: { fileSize: Math.max(LARGEST_OWN_LIMIT, config.importMaxBytes), files: 1, fields: 40, fieldSize: 2 * config.importMaxBytes, parts: 42 },
    }).single('file');
  }

  async intercept(context: ExecutionContext, next: CallHandler) {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (req.headers['content-type'] && !req.is(IMPORT_BODY_TYPES)) {
      throw new ApiError(415, 'unsupported_media_type', "Send JSON with the file's text in raw_file_content, or multipart/form-data with the file in the field 'file'.");
    }
    await new Promise<void>((resolve, reject) =>
      this.upload(req, http.getResponse<Response>(), (error: unknown) => {
        if (!error) return resolve();
        if (error instanceof MulterError) return reject(MULTER_ERRORS[error.code] ?? new ApiError(400, 'malformed_multipart', 'The multipart body could not be read.'));
        reject(new ApiError(400, 'malformed_multipart', 'The multipart body could not be read.'));
      }),
    );
    return next.handle();
  }
}

/**
 * Routes that read a JSON body only (PATCH): any other body would reach the handler as no change at all (text) or as
 * form fields, and be answered 200; it is 415 instead.
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    const req = context.switchToHttp().getRequest<Request>();
    if (req.headers['content-type'] && !req.is('application/json')) {
      throw new ApiError(415, 'unsupported_media_type', 'Send the changes as JSON (Content-Type: application/json).');
    }
    return next.handle();
  }
}
