// Runtime configuration: read once from the environment, validated, then immutable.
// A bad value stops the process with a message naming the variable.

export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  dataDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  secretKeyBase: string;
  adminDistDir: string | null;
  maxJsonBodyBytes: number;
  /** Namespace of the job queues; lets several test runs share one Redis. */
  queuePrefix: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
  }
  return raw as T;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')})`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
  }
  return raw;
}

const DEVELOPMENT_SECRET = 'development-only-secret-key-base-change-me-in-production';

function secretKeyBase(env: Env, nodeEnv: AppConfig['nodeEnv']): string {
  const raw = env.SECRET_KEY_BASE;
  if (raw === undefined || raw === '') {
    if (nodeEnv === 'production') throw new ConfigError('SECRET_KEY_BASE must be set in production');
    return DEVELOPMENT_SECRET;
  }
  if (raw.length < 32) throw new ConfigError('SECRET_KEY_BASE must be at least 32 characters');
  return raw;
}

function queuePrefix(env: Env): string {
  const raw = env.QUEUE_PREFIX || 'hearth';
  if (!/^[a-z0-9_-]{1,40}$/i.test(raw)) throw new ConfigError('QUEUE_PREFIX must be 1 to 40 letters, digits, _ or -');
  return raw;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const nodeEnv = oneOf(env, 'NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  return Object.freeze({
    nodeEnv,
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    dataDir: env.DATA_DIR || './data',
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    secretKeyBase: secretKeyBase(env, nodeEnv),
    adminDistDir: env.ADMIN_DIST_DIR || null,
    maxJsonBodyBytes: integer(env, 'MAX_JSON_BODY_BYTES', 12 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    queuePrefix: queuePrefix(env),
  });
}

export const APP_CONFIG = Symbol('APP_CONFIG');
