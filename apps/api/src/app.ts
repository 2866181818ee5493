import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { INestApplication, ValidationError, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import express, { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { ApiError } from './common/api-error';
import { bodyParserErrors } from './common/body-errors';
import { PinoNestLogger } from './common/logger';
import { accessLog, requestId } from './common/request-context';
import type { AppConfig } from './config/config';
import { buildOpenApiDocument } from './openapi';
import type { Runtime } from './runtime';

export const API_PREFIX = 'api/v1';

function flattenValidationErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {});
    return [...own, ...flattenValidationErrors(error.children ?? [], path)];
  });
}

export const validationPipe = () =>
  new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    exceptionFactory: (errors) => ApiError.validation(flattenValidationErrors(errors)),
  });

/** Builds the configured HTTP application (not yet listening): API under /api/v1, the SPA at /. */
export async function createApp(config: AppConfig, runtime: Runtime, logger: Logger): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, runtime, logger), {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
  });
  app.use(requestId);
  app.use(accessLog(logger));
  app.use(express.json({ limit: config.maxJsonBodyBytes }));
  app.use(express.urlencoded({ extended: false, limit: config.maxJsonBodyBytes }));
  app.use(bodyParserErrors);
  app.disable('x-powered-by');
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(validationPipe());

  const document = buildOpenApiDocument(app);
  app.use(`/${API_PREFIX}/openapi.json`, (req: Request, res: Response, next: NextFunction) =>
    req.method === 'GET' ? res.json(document) : next(),
  );
  serveAdmin(app, config);
  return app;
}

/** Serves the built SPA, falling back to index.html for its client-side routes (never for /api). */
function serveAdmin(app: NestExpressApplication, config: AppConfig): void {
  const dir = resolve(config.adminDistDir ?? join(__dirname, '../../../../admin') /* dist/api/apps/api/src -> dist/admin */);
  if (!existsSync(join(dir, 'index.html'))) return;
  app.useStaticAssets(dir, { index: false });
  app.use((req: Request, res: Response, next: NextFunction) =>
    req.method === 'GET' && !req.path.startsWith('/api/') ? res.sendFile(join(dir, 'index.html')) : next(),
  );
}
