// Writes apps/api/openapi.json from the controllers without starting the server or a database.
//   node tools/openapi.mjs           regenerate
//   node tools/openapi.mjs --check   fail when the committed document is stale
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildApi } from './build.mjs';

const require = createRequire(import.meta.url);
await buildApi();
const { root, requireDist } = require('./dist.cjs');
const { NestFactory } = require('@nestjs/core');
const { AppModule } = requireDist('apps/api/src/app.module');
const { API_PREFIX, API_PREFIX_OPTIONS } = requireDist('apps/api/src/app');
const { buildOpenApiDocument } = requireDist('apps/api/src/openapi');
const { loadConfig } = requireDist('apps/api/src/config/config');
const { createLogger } = requireDist('apps/api/src/common/logger');

// Preview mode reads controller metadata only: no provider (database, queue) is created.
const runtime = { mode: 'embedded', database: { url: 'postgres://unused', embedded: true }, queue: { backend: 'redis', url: 'redis://unused' } };
const app = await NestFactory.create(AppModule.forRoot(loadConfig({}), runtime, createLogger('silent')), { preview: true, logger: false });
app.setGlobalPrefix(API_PREFIX, API_PREFIX_OPTIONS);
const text = JSON.stringify(buildOpenApiDocument(app), null, 2) + '\n';
const file = join(root, 'apps/api/openapi.json');

if (process.argv.includes('--check')) {
  const committed = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (committed !== text) {
    console.error('apps/api/openapi.json is stale: run `npm run openapi` and commit it.');
    process.exit(1);
  }
  console.log('openapi: apps/api/openapi.json is up to date');
} else {
  writeFileSync(file, text);
  console.log('Wrote apps/api/openapi.json');
}
process.exit(0);
