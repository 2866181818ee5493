import { InjectQueue } from '@nestjs/bullmq';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Queue } from 'bullmq';
import type { Response } from 'express';
import { Public } from '../auth/auth.decorators';
import { RUNTIME } from '../database/database.module';
import { HEALTH_QUEUE } from '../jobs/health.processor';
import { HealthService } from './health.service';
import type { Runtime } from '../runtime';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';

class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'] }) status: 'ok' | 'degraded';
  @ApiProperty({ enum: ['embedded', 'external'] }) mode: 'embedded' | 'external';
  @ApiProperty({ enum: ['ok', 'down'] }) database: 'ok' | 'down';
  @ApiProperty({ enum: ['ok', 'down'] }) queue: 'ok' | 'down';
  @ApiProperty({ enum: ['redis', 'postgres'] }) queue_backend: 'redis' | 'postgres';
}

const CHECK_TIMEOUT_MS = 2000;

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly checks: HealthService,
    @InjectQueue(HEALTH_QUEUE) private readonly queue: Queue,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    @Inject(LOGGER) logger: Logger,
  ) {
    // An outage is reported by this endpoint; the connection's own retries are only logged.
    queue.on('error', (err) => logger.debug({ err }, 'health queue connection error'));
  }

  @Public()
  @Get()
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({ type: HealthDto, description: 'The database or the queue does not answer' })
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthDto> {
    const [database, queue] = await Promise.all([
      probe(() => this.checks.pingDatabase()),
      probe(() => this.queue.getJobCounts('waiting')),
    ]);
    const status = database === 'ok' && queue === 'ok' ? 'ok' : 'degraded';
    // Load balancers and orchestrators read the code, not the body: a degraded instance must leave their rotation.
    if (status === 'degraded') res.status(503);
    return {
      status,
      mode: this.runtime.mode,
      database,
      queue,
      queue_backend: this.runtime.queue.backend,
    };
  }
}
