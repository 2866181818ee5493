import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies defaults for the embedded single-node mode', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeNull();
    expect(config.redisUrl).toBeNull();
    expect(config.dataDir).toBe('./data');
  });

  it('sizes publish chunks, the publish limit and the stuck-import threshold from IMPORT_CHUNK_ROWS, IMPORT_MAX_ROWS and IMPORT_STUCK_AFTER_SECONDS', () => {
    expect(loadConfig({})).toMatchObject({ importChunkRows: 5000, importStuckAfterSeconds: 900, importMaxRows: 100_000 });
    expect(loadConfig({ IMPORT_CHUNK_ROWS: '100', IMPORT_STUCK_AFTER_SECONDS: '10' })).toMatchObject({ importChunkRows: 100, importStuckAfterSeconds: 10 });
    expect(() => loadConfig({ IMPORT_CHUNK_ROWS: '0' })).toThrow('IMPORT_CHUNK_ROWS must be an integer from 1 to 100000');
    expect(() => loadConfig({ IMPORT_STUCK_AFTER_SECONDS: '5' })).toThrow('IMPORT_STUCK_AFTER_SECONDS must be an integer from 10 to 604800');
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer/],
    [{ PORT: '70000' }, /PORT must be an integer/],
    [{ PORT: '0' }, /PORT must be an integer from 1 to 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use postgres: or postgresql:/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must be a URL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL must use redis: or rediss:/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ NODE_ENV: 'production' }, /SECRET_KEY_BASE must be set in production/],
    [{ NODE_ENV: 'production', SECRET_KEY_BASE: 'development-only-secret-key-base-change-me-in-production' }, /SECRET_KEY_BASE must not be the development value in production/],
    [{ SECRET_KEY_BASE: 'short' }, /SECRET_KEY_BASE must be at least 32 characters/],
    [{ AUTH_LOCAL_LOGIN_ENABLED: 'yes' }, /AUTH_LOCAL_LOGIN_ENABLED must be true or false/],
    [{ AUTH_LOCAL_ADMIN_OVERRIDE_ENABLED: 'flase' }, /AUTH_LOCAL_ADMIN_OVERRIDE_ENABLED must be true or false/],
    [{ SESSION_TTL_HOURS: '0' }, /SESSION_TTL_HOURS must be an integer from 1 to 8760/],
    [{ SESSION_IDLE_MINUTES: '4' }, /SESSION_IDLE_MINUTES must be an integer from 5 to 525600/],
    [{ SESSION_IDLE_MINUTES: '525601' }, /SESSION_IDLE_MINUTES must be an integer from 5 to 525600/],
    [{ SESSION_IDLE_MINUTES: '2h' }, /SESSION_IDLE_MINUTES must be an integer from 5 to 525600/],
    [{ RATE_LIMIT_ADMIN_PER_MINUTE: '-1' }, /RATE_LIMIT_ADMIN_PER_MINUTE must be an integer/],
    [{ RATE_LIMIT_ADMIN_READS_PER_MINUTE: '0' }, /RATE_LIMIT_ADMIN_READS_PER_MINUTE must be an integer/],
    [{ RATE_LIMIT_LOGIN_PER_MINUTE: 'many' }, /RATE_LIMIT_LOGIN_PER_MINUTE must be an integer/],
    [{ LOGIN_MAX_FAILURES_PER_ACCOUNT: '0' }, /LOGIN_MAX_FAILURES_PER_ACCOUNT must be an integer/],
    [{ APP_URL: 'ftp://example.com' }, /APP_URL must use http: or https:/],
    [{ TRUST_PROXY: 'everyone' }, /TRUST_PROXY must be/],
  ])('rejects %j naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('mails through the log by default, and through SMTP_URL from MAIL_FROM (or no-reply@ the APP_URL domain)', () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: null, from: 'Hearth <no-reply@localhost>' });
    const smtp = 'smtps://me%40example.com:p%40ss@mail.example.com:465';
    expect(loadConfig({ SMTP_URL: smtp, MAIL_FROM: ' Hearth Bot <bot@example.com> ' }).mail).toEqual({ smtpUrl: smtp, from: 'Hearth Bot <bot@example.com>' });
    expect(loadConfig({ SMTP_URL: 'smtp://relay.internal', APP_URL: 'https://money.example.com/x' }).mail.from).toBe('Hearth <no-reply@money.example.com>');
    expect(loadConfig({ MAIL_FROM: 'bot@example.com' }).mail.from).toBe('bot@example.com');
  });

  it.each([
    [{ SMTP_URL: 'http://user:hunter2@mail.example.com', MAIL_FROM: 'a@example.com' }, 'SMTP_URL must use smtp: or smtps: (got "http:")'],
    [{ SMTP_URL: 'smtp://user:hunter2@mail.example.com/path', MAIL_FROM: 'a@example.com' }, 'SMTP_URL must be smtp://user:password@host:port or smtps://... (a host, no path or query)'],
    [{ SMTP_URL: 'smtp://user:hunter2@mail.example.com?pool=true', MAIL_FROM: 'a@example.com' }, 'SMTP_URL must be smtp://user:password@host:port or smtps://... (a host, no path or query)'],
    [{ SMTP_URL: 'smtp://:hunter2@mail.example.com', MAIL_FROM: 'a@example.com' }, 'SMTP_URL has a password without a user name'],
    [{ SMTP_URL: 'smtp://user:hunter2@ bad host', MAIL_FROM: 'a@example.com' }, 'SMTP_URL must be a URL (smtp: or smtps:)'],
    [{ SMTP_URL: 'smtp://user:hunter2@mail.example.com' }, 'MAIL_FROM must be set with SMTP_URL (or APP_URL, whose domain then sends as no-reply@)'],
    [{ SMTP_URL: 'smtp://user:hunter2@mail.example.com', APP_URL: 'http://localhost:3000' }, 'MAIL_FROM must be set with SMTP_URL (or APP_URL, whose domain then sends as no-reply@)'],
    [{ MAIL_FROM: 'not an address' }, 'MAIL_FROM must be an e-mail address or Name <address> (got "not an address")'],
    [{ MAIL_FROM: 'Hearth <a@example.com>\r\nBcc: x@example.com' }, 'MAIL_FROM must be an e-mail address or Name <address>'],
  ])('refuses mail settings %j without echoing the SMTP password', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
    expect(() => loadConfig(env)).not.toThrow(/hunter2/);
  });

  it('runs every role in one process by default and refuses split roles without DATABASE_URL', () => {
    expect(loadConfig({}).role).toBe('all');
    expect(loadConfig({ HEARTH_ROLE: 'api', DATABASE_URL: 'postgres://db/hearth' }).role).toBe('api');
    expect(loadConfig({ HEARTH_ROLE: 'worker', DATABASE_URL: 'postgres://db/hearth' }).role).toBe('worker');
    expect(() => loadConfig({ HEARTH_ROLE: 'web' })).toThrow(/HEARTH_ROLE must be one of all, api, worker/);
    for (const role of ['api', 'worker']) {
      expect(() => loadConfig({ HEARTH_ROLE: role })).toThrow(ConfigError);
      expect(() => loadConfig({ HEARTH_ROLE: role })).toThrow(`HEARTH_ROLE=${role} needs DATABASE_URL`);
    }
  });

  it('defaults sign-in to local login on, admin override off, and the documented rate limits', () => {
    const { auth, appUrl, trustProxy } = loadConfig({});
    expect(auth).toEqual({
      localLoginEnabled: true,
      localAdminOverrideEnabled: false,
      sessionTtlHours: 336,
      sessionIdleMinutes: 120,
      adminRateLimitPerMinute: 10,
      adminReadRateLimitPerMinute: 300,
      loginRateLimitPerMinute: 10,
      loginMaxFailuresPerAccount: 10,
      loginFailureWindowMinutes: 15,
    });
    expect(appUrl).toBeNull();
    expect(trustProxy).toBe(false);
  });

  it('reads the sign-in switches case-insensitively and keeps only the origin of APP_URL', () => {
    const config = loadConfig({
      AUTH_LOCAL_LOGIN_ENABLED: 'FALSE',
      AUTH_LOCAL_ADMIN_OVERRIDE_ENABLED: 'True',
      APP_URL: 'https://money.example.com/some/path',
      TRUST_PROXY: '1',
    });
    expect(config.auth.localLoginEnabled).toBe(false);
    expect(config.auth.localAdminOverrideEnabled).toBe(true);
    expect(config.appUrl).toBe('https://money.example.com');
    expect(config.trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback,10.0.0.0/8');
  });
});
