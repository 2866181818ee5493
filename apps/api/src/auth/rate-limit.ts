import { ExecutionContext, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import {
  ThrottlerGuard,
  ThrottlerLimitDetail,
  ThrottlerModuleOptions,
  ThrottlerStorage,
  ThrottlerStorageService,
} from '@nestjs/throttler';
import type { Request } from 'express';
import Redis from 'ioredis';
import type { Logger } from 'pino';
import { ApiError, NavigationRefused } from '../common/api-error';
import type { AppConfig } from '../config/config';
import { RATE_LIMITS, RateLimitName, SIGN_IN_NAVIGATION } from './auth.decorators';
import { isUnsafeMethod } from './csrf';

const MINUTE_MS = 60_000;
const WARN_INTERVAL_MS = 60_000;
/**
 * Provider return steps (OIDC callback; SAML ACS, the browser's return from it, single logout) allowed per sign-in
 * attempt. They are not attempts themselves (a sign-in is counted once, when it starts), but forged ones cost work, so
 * they have a budget of their own: a multiple of the sign-in budget that a SAML sign-in (two steps) and sign-out (one)
 * never reach.
 */
export const RETURN_STEPS_PER_SIGN_IN = 5;

/** Where a refused SSO navigation sends the browser: the sign-in page, which says how long to wait. */
export const rateLimitedSignInPage = (seconds: number) => `/login?error=rate_limited&retry_after=${seconds}`;

/**
 * Named per-IP budgets; a route opts in with @RateLimit(name). All requests count, whatever their outcome.
 * Administration has two: changes (POST/PUT/PATCH/DELETE) against RATE_LIMIT_ADMIN_PER_MINUTE, and reads against
 * RATE_LIMIT_ADMIN_READS_PER_MINUTE, so that browsing the admin screens never uses up the budget for changes.
 */
export function rateLimitOptions(config: AppConfig, storage: ThrottlerStorage): ThrottlerModuleOptions {
  const named = (context: ExecutionContext): RateLimitName[] =>
    Reflect.getMetadata(RATE_LIMITS, context.getHandler()) ?? Reflect.getMetadata(RATE_LIMITS, context.getClass()) ?? [];
  const change = (context: ExecutionContext) => isUnsafeMethod(context.switchToHttp().getRequest<Request>().method);
  const appliesTo = (name: RateLimitName, when: (context: ExecutionContext) => boolean = () => true) => (context: ExecutionContext) =>
    !(named(context).includes(name) && when(context));
  const { auth } = config;
  return {
    storage,
    throttlers: [
      { name: 'admin', ttl: MINUTE_MS, limit: auth.adminRateLimitPerMinute, skipIf: appliesTo('admin', change) },
      { name: 'admin_reads', ttl: MINUTE_MS, limit: auth.adminReadRateLimitPerMinute, skipIf: appliesTo('admin', (c) => !change(c)) },
      { name: 'login', ttl: MINUTE_MS, limit: auth.loginRateLimitPerMinute, skipIf: appliesTo('login') },
      { name: 'sso_return', ttl: MINUTE_MS, limit: auth.loginRateLimitPerMinute * RETURN_STEPS_PER_SIGN_IN, skipIf: appliesTo('sso_return') },
    ],
    // One bucket per budget and client IP across all its routes, namespaced per instance (QUEUE_PREFIX).
    generateKey: (_context, tracker, name) => `${config.queuePrefix}:rate:${name}:${tracker}`,
  };
}

/**
 * Turns the library's exception into our 429 ErrorResponse with a plain Retry-After header; an SSO navigation is
 * sent to the sign-in page with the wait instead, since a browser, not a script, follows it.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const seconds = Math.max(1, detail.timeToBlockExpire);
    const message = `Rate limit exceeded. Try again in ${seconds} seconds.`;
    const headers = { 'Retry-After': String(seconds) };
    if (this.reflector.get<boolean>(SIGN_IN_NAVIGATION, context.getHandler())) {
      throw new NavigationRefused(rateLimitedSignInPage(seconds), 429, 'rate_limit_exceeded', message, headers);
    }
    throw new ApiError(
      429,
      'rate_limit_exceeded',
      message,
      { details: { limit: detail.limit, period_seconds: Math.round(detail.ttl / 1000), retry_after_seconds: seconds } },
      headers,
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
