import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { QueryFailedError } from 'typeorm';
import type { ErrorBody } from '@hearth/contracts';
import { MoneyError } from '@hearth/domain/money';
import { STORED_CURRENCY_REPAIR } from './currency-field';
import { ApiError, NavigationRefused } from './api-error';
import { LOGGER } from './logger';
import { requestIdOf } from './request-context';

/** What Nest's and Express's own HTTP errors mean to a client, as stable codes. */
const HTTP_ERROR_CODES: Record<number, { code: string; message: string }> = {
  400: { code: 'bad_request', message: 'The request is malformed' },
  401: { code: 'unauthorized', message: 'Access token or API key is invalid, expired, or missing' },
  403: { code: 'forbidden', message: 'You are not allowed to do this' },
  404: { code: 'not_found', message: 'No such endpoint' },
  405: { code: 'method_not_allowed', message: 'Method not allowed' },
  413: { code: 'payload_too_large', message: 'The request body is too large' },
  415: { code: 'unsupported_media_type', message: 'Unsupported content type' },
  429: { code: 'rate_limit_exceeded', message: 'Rate limit exceeded. Try again later.' },
};

/**
 * PostgreSQL data exceptions (SQLSTATE class 22) that only client input can cause: the statement was rolled back,
 * so the request changed nothing and the client can correct its input. Validation should catch these first.
 */
const DATA_ERRORS: Record<string, { code: string; message: string }> = {
  '22001': { code: 'value_too_long', message: 'A value is longer than its field allows' },
  '22003': { code: 'value_out_of_range', message: 'A number is out of the range its field allows' },
  '22007': { code: 'invalid_value', message: 'A date or time value is not valid' },
  '22008': { code: 'invalid_value', message: 'A date or time value is out of range' },
  '22021': { code: 'invalid_encoding', message: 'The input contains bytes that are not valid text' },
  '22P02': { code: 'invalid_value', message: 'A value does not have the expected type' },
  '22P05': { code: 'invalid_encoding', message: 'The input contains characters that cannot be stored' },
};

/** Errors thrown by body parsers and multer before any controller runs. */
interface TransportError {
  status?: number;
  type?: string;
  code?: string;
}

/** The one place errors become responses: always an ErrorResponse body, never HTML, stacks, SQL or library text. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const { status, body, headers } = this.toResponse(exception);
    const log = { requestId: requestIdOf(req), method: req.method, path: req.path, status, error: body.error };
    if (status >= 500) this.logger.error({ ...log, err: exception }, 'request failed');
    else this.logger.info(log, 'request rejected');
    if (res.headersSent) return;
    if (exception instanceof NavigationRefused) return res.set(headers).redirect(302, exception.location);
    res.status(status).set(headers).json(body);
  }

  private toResponse(exception: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
    if (exception instanceof ApiError) {
      return { status: exception.status, body: exception.body(), headers: exception.headers };
    }
    if (exception instanceof MoneyError && exception.code === 'invalid_currency') {
      // Input is checked where it enters, so this is a stored code that is not ISO 4217 (written before that check).
      return { status: 409, body: { error: 'invalid_stored_currency', message: `Stored data holds a currency that is not valid: ${exception.message}. ${STORED_CURRENCY_REPAIR}` }, headers: {} };
    }
    if (exception instanceof HttpException) {
      return { status: exception.getStatus(), body: this.genericBody(exception.getStatus()), headers: {} };
    }
    const dataError = exception instanceof QueryFailedError ? DATA_ERRORS[(exception.driverError as { code?: string }).code ?? ''] : undefined;
    if (dataError) return { status: 422, body: { error: dataError.code, message: dataError.message }, headers: {} };
    const transport = exception as TransportError;
    if (typeof transport?.status === 'number' && transport.status >= 400 && transport.status < 500) {
      return { status: transport.status, body: this.genericBody(transport.status), headers: {} };
    }
    return {
      status: 500,
      body: { error: 'internal_server_error', message: 'Something went wrong on our side' },
      headers: {},
    };
  }

  /** Library messages never reach clients; each status has our own code and wording. */
  private genericBody(status: number): ErrorBody {
    const known = HTTP_ERROR_CODES[status] ?? {
      code: status >= 500 ? 'internal_server_error' : 'bad_request',
      message: 'The request could not be processed',
    };
    return { error: known.code, message: known.message };
  }
}
