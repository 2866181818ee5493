import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { createApp } from './app';
import { createLogger } from './common/logger';
import { ConfigError, loadConfig } from './config/config';
import { startRuntime } from './runtime';
import { createWorker } from './worker';

/** Time for in-flight requests and jobs to finish after SIGTERM; under the 30 s that Kubernetes and most supervisors allow. */
const SHUTDOWN_DEADLINE_MS = 20_000;

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
  if (config.role === 'api' && !config.redisUrl) {
    logger.warn('HEARTH_ROLE=api without REDIS_URL: rate limits are counted per process; set REDIS_URL to share them');
  }
  const runtime = await startRuntime(config, logger);
  let app: INestApplicationContext;
  if (config.role === 'worker') {
    app = await createWorker(config, runtime, logger);
  } else {
    const http = await createApp(config, runtime, logger);
    await http.listen(config.port, config.host);
    app = http;
  }
  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    // A dependency that never answers (Redis down for good) must not keep the process alive past its orchestrator's patience.
    setTimeout(() => {
      logger.error({ signal, deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    await app.close();
    await runtime.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  if (config.role === 'worker') {
    logger.info({ role: config.role, mode: runtime.mode, queueBackend: runtime.queue.backend }, 'Hearth worker running (no HTTP listener)');
  } else {
    logger.info(
      { port: config.port, host: config.host, mode: runtime.mode, role: config.role },
      `Hearth listening on http://${config.host}:${config.port}`,
    );
  }
}

main().catch((error) => {
  console.error('Hearth failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
