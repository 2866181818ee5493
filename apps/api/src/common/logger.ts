import pino, { Logger } from 'pino';
import type { LoggerService } from '@nestjs/common';

/** Keys whose values never reach a log line, wherever they appear. */
const REDACTED_PATHS = [
  '*.password',
  '*.passwordHash',
  '*.apiKey',
  '*.token',
  '*.secret',
  '*.clientSecret',
  '*.rawFileContent',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.headers.authorization',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'hearth' } });
}

/**
 * Nest's start-up narration (a line per module and per route, about a hundred) is debug detail: at info it buried the
 * line saying the service is listening.
 */
const START_UP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/** Routes Nest's own logging through pino so every line is structured JSON. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    if (context && START_UP_CONTEXTS.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

export const LOGGER = Symbol('LOGGER');
