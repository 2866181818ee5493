import 'reflect-metadata';
import { createApp } from './app';
import { createLogger } from './common/logger';
import { ConfigError, loadConfig } from './config/config';
import { startRuntime } from './runtime';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const runtime = await startRuntime(config, logger);
  const app = await createApp(config, runtime, logger);
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await app.close();
    await runtime.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen(config.port, config.host);
  logger.info({ port: config.port, host: config.host, mode: runtime.mode }, `Hearth listening on http://${config.host}:${config.port}`);
}

main().catch((error) => {
  console.error('Hearth failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
