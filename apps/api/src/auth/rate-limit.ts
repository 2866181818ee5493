import { ExecutionContext, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import {
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerStorage,
  ThrottlerStorageService,
} from '@nestjs/throttler';
import Redis from 'ioredis';
import type { Logger } from 'pino';
import { ApiError } from '../common/api-error';
import type { AppConfig } from '../config/config';
import { RATE_LIMITS, RateLimitName } from './auth.decorators';

const MINUTE_MS = 60_000;
const WARN_INTERVAL_MS = 60_000;

/** Named per-IP budgets; a route opts in with @RateLimit(name). All requests count, whatever their outcome. */
export function rateLimitOptions(config: AppConfig, storage: ThrottlerStorage): ThrottlerModuleOptions {
  const appliesTo = (name: RateLimitName) => (context: ExecutionContext) => {
    const names: RateLimitName[] | undefined =
      Reflect.getMetadata(RATE_LIMITS, context.getHandler()) ?? Reflect.getMetadata(RATE_LIMITS, context.getClass());
    return !names?.includes(name);
  };
  return {
    storage,
    throttlers: [
      { name: 'admin', ttl: MINUTE_MS, limit: config.auth.adminRateLimitPerMinute, skipIf: appliesTo('admin') },
      { name: 'login', ttl: MINUTE_MS, limit: config.auth.loginRateLimitPerMinute, skipIf: appliesTo('login') },
    ],
    // One bucket per budget and client IP across all its routes, namespaced per instance (QUEUE_PREFIX).
    generateKey: (_context, tracker, name) => `${config.queuePrefix}:rate:${name}:${tracker}`,
  };
}

/** Turns the library's exception into our 429 ErrorResponse with a plain Retry-After header. */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const seconds = Math.max(1, detail.timeToBlockExpire);
    throw new ApiError(
      429,
      'rate_limit_exceeded',
      `Rate limit exceeded. Try again in ${seconds} seconds.`,
      { details: { limit: detail.limit, period_seconds: Math.round(detail.ttl / 1000), retry_after_seconds: seconds } },
      { 'Retry-After': String(seconds) },
    );
  }

  /** The library also sets Retry-After-<name>; ours is the one plain header. */
  protected override setResponseHeader(res: Record<string, unknown>, name: string, value: string | number): void {
    if (name.startsWith('Retry-After')) return;
    super.setResponseHeader(res, name, value);
  }
}

/**
 * Counters in Redis when REDIS_URL is set (shared by every instance), in memory otherwise. When Redis fails, the
 * limiter fails open to per-process memory counters with a warning, so sign-in never hangs on Redis.
 */
export class RateLimitStorage implements ThrottlerStorage, OnModuleInit, OnModuleDestroy {
  private readonly memory = new ThrottlerStorageService();
  private readonly redis: Redis | null;
  private readonly redisStorage: ThrottlerStorageRedisService | null;
  private lastWarning = 0;

  constructor(
    redisUrl: string | null,
    private readonly logger: Logger,
  ) {
    this.redis = redisUrl
      ? new Redis(redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 })
      : null;
    this.redis?.on('error', () => undefined); // reported through failed increments below
    this.redisStorage = this.redis ? new ThrottlerStorageRedisService(this.redis) : null;
  }

  async onModuleInit(): Promise<void> {
    if (this.redis?.status === 'wait') await this.redis.connect().catch((error: Error) => this.warn(error));
  }

  onModuleDestroy(): void {
    this.redis?.disconnect(false);
    this.memory.onApplicationShutdown();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, name: string): ReturnType<ThrottlerStorage['increment']> {
    if (this.redisStorage) {
      try {
        return await this.redisStorage.increment(key, ttl, limit, blockDuration, name);
      } catch (error) {
        this.warn(error as Error);
      }
    }
    return this.memory.increment(key, ttl, limit, blockDuration, name);
  }

  private warn(error: Error): void {
    if (Date.now() - this.lastWarning < WARN_INTERVAL_MS) return;
    this.lastWarning = Date.now();
    this.logger.warn({ err: { message: error.message } }, 'Rate limiter cannot reach Redis; counting in process memory');
  }
}
