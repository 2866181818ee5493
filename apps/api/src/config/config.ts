// Runtime configuration: read once from the environment, validated, then immutable.
// A bad value stops the process with a message naming the variable.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { AUDIT_RETENTION_TIERS, AuditRetentionTier } from '../audit/audit-retention.policy';

export type ProcessRole = 'all' | 'api' | 'worker';

export interface AppConfig {
  nodeEnv: 'development' | 'production' | 'test';
  /** HEARTH_ROLE: `all` (HTTP + job workers, the default), `api` (HTTP, enqueues only) or `worker` (job workers, no HTTP). */
  role: ProcessRole;
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
  /** Rows one import may publish (AccountImport is capped at 50). */
  importMaxRows: number;
  /** Largest text import (CSV, NDJSON, QIF) in bytes; PDF statements have their own 25 MB limit. */
  importMaxBytes: number;
  /** IMPORT_CHUNK_ROWS: rows published per transaction; the import's resume point moves once per chunk. */
  importChunkRows: number;
  /**
   * IMPORT_STUCK_AFTER_SECONDS: an import left in importing/reverting this long without progress is reaped. At least
   * 10 s, beyond the 3 s deadline for queueing a job, during which an import is importing before its job exists.
   */
  importStuckAfterSeconds: number;
  /** JOB_SCHEDULE_CHECK_SECONDS: how often a worker makes sure every job schedule exists (one lost with Redis comes back). */
  jobScheduleCheckSeconds: number;
  /** WORKER_NAME: names this process in its job log lines; default host name and pid. */
  workerName: string;
  /** Public base URL of the instance (links in e-mails, allowed Origin); null: derived from the request. */
  appUrl: string | null;
  /** Express `trust proxy`: false, a hop count, or addresses/subnets of the proxies in front of Hearth. */
  trustProxy: boolean | number | string;
  auth: AuthConfig;
  sso: SsoConfig;
  audit: AuditConfig;
  mail: MailConfig;
}

/** Outgoing e-mail (password reset links). */
export interface MailConfig {
  /** SMTP_URL: smtp:// (STARTTLS when offered) or smtps:// (TLS), credentials in it; null: the log mailer. */
  smtpUrl: string | null;
  /** MAIL_FROM: the sender, `Name <address>` or an address; with SMTP_URL, required unless APP_URL gives a domain. */
  from: string;
}

/** Audit log retention (docs/sign-in.md#retention). */
export interface AuditConfig {
  /** AUDIT_RETENTION_TIER: standard (90 days in the database), extended (1 year + archive), compliance (7-year archive). */
  retentionTier: AuditRetentionTier;
  /** AUDIT_ARCHIVE_DIR: where extended and compliance keep their archive files. */
  archiveDir: string;
}

/** Single sign-on settings (docs/sso.md). */
export interface SsoConfig {
  /** AUTH_JIT_MODE: create accounts at first SSO sign-in, or only link to existing users. */
  jitMode: 'create_and_link' | 'link_only';
  /** ALLOWED_OIDC_DOMAINS, lower-cased; empty: any verified e-mail domain may get a JIT account. */
  allowedDomains: string[];
  /** SSO_ALLOW_INSECURE_HTTP: identity providers over plain http (development and tests only). */
  allowInsecureHttp: boolean;
  /** ACTIVE_RECORD_ENCRYPTION_*: custom keys for secrets at rest; null derives them from SECRET_KEY_BASE. */
  encryptionKeys: { primaryKey: string; keyDerivationSalt: string } | null;
  /** AUTH_PROVIDERS_SOURCE: `db` (admin API, effective at once) or `yaml` (AUTH_PROVIDERS_FILE, read at start). */
  providersSource: 'db' | 'yaml';
  /** AUTH_PROVIDERS_FILE, default config/auth.yml. */
  providersFile: string;
}

/** Sign-in settings (docs/sign-in.md#local-login-control, docs/api/rate-limits.md). */
export interface AuthConfig {
  /** AUTH_LOCAL_LOGIN_ENABLED: e-mail/password sign-in and password reset. */
  localLoginEnabled: boolean;
  /** AUTH_LOCAL_ADMIN_OVERRIDE_ENABLED: with local login off, super admins may still sign in locally. */
  localAdminOverrideEnabled: boolean;
  /** SESSION_TTL_HOURS: absolute lifetime of a browser session. */
  sessionTtlHours: number;
  /** SESSION_IDLE_MINUTES: a session unused this long ends as if it had expired. */
  sessionIdleMinutes: number;
  /** Changes (POST/PUT/PATCH/DELETE) per minute per IP to provider and user administration (default 10). */
  adminRateLimitPerMinute: number;
  /** Reads per minute per IP of the administration lists: a budget of its own, which no person browsing reaches. */
  adminReadRateLimitPerMinute: number;
  /** Sign-in attempts (password, SSO, link, setup, password reset) per minute per IP. */
  loginRateLimitPerMinute: number;
  /** Failed sign-ins for one e-mail address within loginFailureWindowMinutes before it is refused with 429. */
  loginMaxFailuresPerAccount: number;
  loginFailureWindowMinutes: number;
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
  // The development value is public (it is in this file): in production it would key every secret for anyone.
  if (raw === DEVELOPMENT_SECRET && nodeEnv === 'production') throw new ConfigError('SECRET_KEY_BASE must not be the development value in production');
  return raw;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

function trustProxy(env: Env): boolean | number | string {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return integer(env, 'TRUST_PROXY', 0, 0, 10);
  const parts = raw.split(',').map((part) => part.trim());
  const address = /^(loopback|linklocal|uniquelocal|[0-9a-f.:]+(\/\d{1,3})?)$/i;
  if (parts.some((part) => !address.test(part))) {
    throw new ConfigError('TRUST_PROXY must be true, false, a hop count, or comma-separated proxy addresses/subnets');
  }
  return parts.join(',');
}

function appUrl(env: Env): string | null {
  const raw = url(env, 'APP_URL', ['http:', 'https:']);
  return raw === null ? null : new URL(raw).origin;
}

function authConfig(env: Env): AuthConfig {
  return Object.freeze({
    localLoginEnabled: boolean(env, 'AUTH_LOCAL_LOGIN_ENABLED', true),
    localAdminOverrideEnabled: boolean(env, 'AUTH_LOCAL_ADMIN_OVERRIDE_ENABLED', false),
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 336, 1, 8760),
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 120, 5, 525_600),
    adminRateLimitPerMinute: integer(env, 'RATE_LIMIT_ADMIN_PER_MINUTE', 10, 1, 100_000),
    adminReadRateLimitPerMinute: integer(env, 'RATE_LIMIT_ADMIN_READS_PER_MINUTE', 300, 1, 100_000),
    loginRateLimitPerMinute: integer(env, 'RATE_LIMIT_LOGIN_PER_MINUTE', 10, 1, 100_000),
    loginMaxFailuresPerAccount: integer(env, 'LOGIN_MAX_FAILURES_PER_ACCOUNT', 10, 1, 100_000),
    loginFailureWindowMinutes: integer(env, 'LOGIN_FAILURE_WINDOW_MINUTES', 15, 1, 1440),
  });
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function allowedDomains(env: Env): string[] {
  const domains = (env.ALLOWED_OIDC_DOMAINS ?? '')
    .split(',')
    .map((domain) => domain.trim().toLowerCase())
    .filter(Boolean);
  const bad = domains.find((domain) => !DOMAIN.test(domain));
  if (bad !== undefined) throw new ConfigError(`ALLOWED_OIDC_DOMAINS must be comma-separated domain names (got "${bad}")`);
  return domains;
}

function encryptionKeys(env: Env): SsoConfig['encryptionKeys'] {
  const names = ['ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY', 'ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY', 'ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT'];
  const missing = names.filter((name) => !env[name]);
  if (missing.length === names.length) return null;
  if (missing.length) throw new ConfigError(`Active Record encryption environment variables are partially configured. Missing: ${missing.join(', ')}`);
  return { primaryKey: env.ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY!, keyDerivationSalt: env.ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT! };
}

function ssoConfig(env: Env, nodeEnv: AppConfig['nodeEnv']): SsoConfig {
  const allowInsecureHttp = boolean(env, 'SSO_ALLOW_INSECURE_HTTP', false);
  if (allowInsecureHttp && nodeEnv === 'production') throw new ConfigError('SSO_ALLOW_INSECURE_HTTP must not be true in production');
  return Object.freeze({
    jitMode: oneOf(env, 'AUTH_JIT_MODE', ['create_and_link', 'link_only'] as const, 'create_and_link'),
    allowedDomains: allowedDomains(env),
    allowInsecureHttp,
    encryptionKeys: encryptionKeys(env),
    providersSource: oneOf(env, 'AUTH_PROVIDERS_SOURCE', ['db', 'yaml'] as const, 'db'),
    providersFile: env.AUTH_PROVIDERS_FILE || 'config/auth.yml',
  });
}

function auditConfig(env: Env, dataDir: string): AuditConfig {
  const raw = env.AUDIT_ARCHIVE_DIR || undefined;
  if (raw !== undefined && (raw.trim() === '' || raw.includes('\0'))) throw new ConfigError('AUDIT_ARCHIVE_DIR must be a directory path');
  // An in-memory database has no directory of its own; its archive (if any) goes to the default data directory.
  const base = dataDir.startsWith('memory://') ? './data' : dataDir;
  return Object.freeze({
    retentionTier: oneOf(env, 'AUDIT_RETENTION_TIER', AUDIT_RETENTION_TIERS, 'standard'),
    archiveDir: raw ?? join(base, 'audit-archive'),
  });
}

/** Never echoes the value: it carries the SMTP password. */
function smtpUrl(env: Env): string | null {
  const raw = url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  if (raw === null) return null;
  const parsed = new URL(raw);
  if (!parsed.hostname || (parsed.pathname !== '' && parsed.pathname !== '/') || parsed.search || parsed.hash) {
    throw new ConfigError('SMTP_URL must be smtp://user:password@host:port or smtps://... (a host, no path or query)');
  }
  if (parsed.password && !parsed.username) throw new ConfigError('SMTP_URL has a password without a user name');
  return raw;
}

const MAIL_ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

function mailConfig(env: Env, appUrl: string | null): MailConfig {
  const from = env.MAIL_FROM?.trim();
  if (from) {
    // One line (no header injection): an address, or a display name then the address in angle brackets.
    const named = /^([^<>\r\n"]*[^\s<>"])\s*<([^<>]+)>$/.exec(from);
    if (!MAIL_ADDRESS.test(named ? named[2] : from)) throw new ConfigError(`MAIL_FROM must be an e-mail address or Name <address> (got "${from}")`);
  }
  const smtp = smtpUrl(env);
  if (from) return Object.freeze({ smtpUrl: smtp, from });
  const host = appUrl === null ? null : new URL(appUrl).hostname;
  if (smtp !== null && (host === null || !host.includes('.'))) {
    throw new ConfigError('MAIL_FROM must be set with SMTP_URL (or APP_URL, whose domain then sends as no-reply@)');
  }
  return Object.freeze({ smtpUrl: smtp, from: `Hearth <no-reply@${host ?? 'localhost'}>` });
}

function queuePrefix(env: Env): string {
  const raw = env.QUEUE_PREFIX || 'hearth';
  if (!/^[a-z0-9_-]{1,40}$/i.test(raw)) throw new ConfigError('QUEUE_PREFIX must be 1 to 40 letters, digits, _ or -');
  return raw;
}

function workerName(env: Env): string {
  const raw = env.WORKER_NAME?.trim();
  if (!raw) return `${hostname()}:${process.pid}`;
  if (!/^[A-Za-z0-9._:@-]{1,100}$/.test(raw)) throw new ConfigError('WORKER_NAME must be 1 to 100 letters, digits or . _ : @ -');
  return raw;
}

/** Split roles share one PostgreSQL between processes; the embedded PGlite belongs to one process. */
function processRole(env: Env, databaseUrl: string | null): ProcessRole {
  const role = oneOf(env, 'HEARTH_ROLE', ['all', 'api', 'worker'] as const, 'all');
  if (role !== 'all' && databaseUrl === null) {
    throw new ConfigError(
      `HEARTH_ROLE=${role} needs DATABASE_URL: API and worker processes must share one PostgreSQL (and REDIS_URL for the queue and rate limits); the embedded database is single-node, so without DATABASE_URL use HEARTH_ROLE=all (npm start)`,
    );
  }
  return role;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const nodeEnv = oneOf(env, 'NODE_ENV', ['development', 'production', 'test'] as const, 'development');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const publicUrl = appUrl(env);
  return Object.freeze({
    nodeEnv,
    role: processRole(env, databaseUrl),
    port: integer(env, 'PORT', 3000, 1, 65535),
    host: env.HOST || '0.0.0.0',
    databaseUrl,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    dataDir: env.DATA_DIR || './data',
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    secretKeyBase: secretKeyBase(env, nodeEnv),
    adminDistDir: env.ADMIN_DIST_DIR || null,
    maxJsonBodyBytes: integer(env, 'MAX_JSON_BODY_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    queuePrefix: queuePrefix(env),
    importMaxRows: integer(env, 'IMPORT_MAX_ROWS', 100_000, 1, 1_000_000),
    importMaxBytes: integer(env, 'IMPORT_MAX_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    importChunkRows: integer(env, 'IMPORT_CHUNK_ROWS', 5_000, 1, 100_000),
    importStuckAfterSeconds: integer(env, 'IMPORT_STUCK_AFTER_SECONDS', 15 * 60, 10, 7 * 24 * 3600),
    appUrl: publicUrl,
    jobScheduleCheckSeconds: integer(env, 'JOB_SCHEDULE_CHECK_SECONDS', 60, 1, 3600),
    workerName: workerName(env),
    trustProxy: trustProxy(env),
    auth: authConfig(env),
    sso: ssoConfig(env, nodeEnv),
    audit: auditConfig(env, env.DATA_DIR || './data'),
    mail: mailConfig(env, publicUrl),
  });
}

export const APP_CONFIG = Symbol('APP_CONFIG');
