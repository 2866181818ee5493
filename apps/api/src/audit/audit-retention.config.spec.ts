import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config/config';

describe('audit retention configuration', () => {
  it('defaults to the standard tier with the archive under the data directory', () => {
    expect(loadConfig({}).audit).toEqual({ retentionTier: 'standard', archiveDir: join('./data', 'audit-archive') });
    expect(loadConfig({ DATA_DIR: '/var/lib/hearth' }).audit.archiveDir).toBe('/var/lib/hearth/audit-archive');
    expect(loadConfig({ DATA_DIR: 'memory://' }).audit.archiveDir).toBe(join('./data', 'audit-archive'));
  });

  it('reads AUDIT_RETENTION_TIER and AUDIT_ARCHIVE_DIR', () => {
    expect(loadConfig({ AUDIT_RETENTION_TIER: 'compliance', AUDIT_ARCHIVE_DIR: '/srv/audit' }).audit).toEqual({
      retentionTier: 'compliance',
      archiveDir: '/srv/audit',
    });
    expect(loadConfig({ AUDIT_RETENTION_TIER: 'extended' }).audit.retentionTier).toBe('extended');
  });

  it.each([
    [{ AUDIT_RETENTION_TIER: 'forever' }, /AUDIT_RETENTION_TIER must be one of standard, extended, compliance/],
    [{ AUDIT_RETENTION_TIER: 'Standard' }, /AUDIT_RETENTION_TIER must be one of/],
    [{ AUDIT_ARCHIVE_DIR: '   ' }, /AUDIT_ARCHIVE_DIR must be a directory path/],
  ])('rejects %j naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
