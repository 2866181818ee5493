import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { INestApplication, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import express, { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { bodyDepthLimit, bodyParserErrors } from './common/body-errors';
import { PinoNestLogger } from './common/logger';
import { accessLog, requestId } from './common/request-context';
import { HASHED_ASSET_CACHE, securityHeaders, setAppPageHeaders } from './common/security-headers';
import { validationPipe } from './common/validation';
import type { AppConfig } from './config/config';
import { buildOpenApiDocument } from './openapi';
import type { Runtime } from './runtime';

export const API_PREFIX = 'api/v1';
/** Browser sign-in lives at /sessions (docs/sign-in.md#paths-outside-apiv1), outside the API prefix. */
export const API_PREFIX_OPTIONS = {
  exclude: [
    { path: 'sessions', method: RequestMethod.ALL },
    // SSO in the browser: /auth/<name>, /auth/<name>/callback, /auth/link, /auth/logout. Matched against
    // declared route paths, so the escaped colon names exactly those routes, not /api/v1/auth/config and the like.
    { path: 'auth/\\:provider', method: RequestMethod.GET },
    { path: 'auth/\\:provider/callback', method: RequestMethod.ALL },
    { path: 'auth/link', method: RequestMethod.ALL },
    { path: 'auth/logout', method: RequestMethod.ALL },
    // SAML SP endpoints: /auth/saml/<id>/metadata, /callback (ACS) and /logout (SLO).
    { path: 'auth/saml/\\:id/metadata', method: RequestMethod.GET },
    { path: 'auth/saml/\\:id/callback', method: RequestMethod.ALL },
    { path: 'auth/saml/\\:id/logout', method: RequestMethod.ALL },
  ],
};

/** Builds the configured HTTP application (not yet listening): API under /api/v1, the SPA at /. */
export async function createApp(config: AppConfig, runtime: Runtime, logger: Logger): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, runtime, logger), {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
  });
  app.use(securityHeaders);
  app.use(requestId);
  app.use(accessLog(logger));
  // Imports carry up to 10 MB of CSV inside JSON, where escaping can double it; every other route stays small.
  app.use(`/${API_PREFIX}/imports`, express.json({ limit: 2 * config.importMaxBytes + 64 * 1024 }));
  app.use(express.json({ limit: config.maxJsonBodyBytes }));
  app.use(express.urlencoded({ extended: false, limit: config.maxJsonBodyBytes }));
  app.use(bodyParserErrors);
  app.use(bodyDepthLimit);
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.setGlobalPrefix(API_PREFIX, API_PREFIX_OPTIONS);
  app.useGlobalPipes(validationPipe());

  const document = buildOpenApiDocument(app);
  app.use(`/${API_PREFIX}/openapi.json`, (req: Request, res: Response, next: NextFunction) =>
    req.method === 'GET' ? res.json(document) : next(),
  );
  serveAdmin(app, config);
  return app;
}

/**
 * Serves the built SPA, falling back to index.html for its client-side routes (never for /api). Looked for on each
 * page load, not once: `npm start` builds the app while the service starts, and no app means 404 as for any path.
 */
function serveAdmin(app: NestExpressApplication, config: AppConfig): void {
  const dir = resolve(config.adminDistDir ?? join(__dirname, '../../../../admin') /* dist/api/apps/api/src -> dist/admin */);
  const index = join(dir, 'index.html');
  app.useStaticAssets(dir, {
    index: false,
    setHeaders: (res: Response, file: string) => {
      if (file.endsWith('.html')) setAppPageHeaders(res);
      else if (file.startsWith(join(dir, 'assets/'))) res.setHeader('Cache-Control', HASHED_ASSET_CACHE);
    },
  });
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || req.path.startsWith('/api/') || req.path.startsWith('/auth/') || !existsSync(index)) return next();
    setAppPageHeaders(res);
    res.sendFile(index);
  });
}
