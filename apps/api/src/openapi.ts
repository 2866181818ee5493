import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Hearth API')
    .setDescription('Household finance: imports, budgets and sign-in administration')
    .setVersion('v1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }, 'ApiKey')
    .addCookieAuth('hearth_session', { type: 'apiKey', in: 'cookie', name: 'hearth_session' }, 'Session')
    .build();
  return SwaggerModule.createDocument(app, config);
}
