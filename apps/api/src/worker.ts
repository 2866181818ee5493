import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';
import { AppModule } from './app.module';
import { PinoNestLogger } from './common/logger';
import type { AppConfig } from './config/config';
import type { Runtime } from './runtime';

/**
 * HEARTH_ROLE=worker: the same modules as the API (processors need its services) in an application context, so BullMQ
 * workers and job schedulers run and no HTTP port is opened.
 */
export async function createWorker(config: AppConfig, runtime: Runtime, logger: Logger): Promise<INestApplicationContext> {
  const context = await NestFactory.createApplicationContext(AppModule.forRoot(config, runtime, logger), {
    logger: new PinoNestLogger(logger),
  });
  await context.init();
  return context;
}
