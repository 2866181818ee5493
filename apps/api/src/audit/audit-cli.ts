import { createLogger } from '../common/logger';
import type { AppConfig } from '../config/config';
import type { CommandDatabase } from '../database/command-database';
import { AuditArchive } from './audit-archive';
import { AuditLogsRepository } from './audit-logs.repository';
import { archiveExpiredBefore } from './audit-retention.policy';
import { AuditRetentionRepository } from './audit-retention.repository';
import { AuditRetentionService, RetentionReport } from './audit-retention.service';
import { AuditService } from './audit.service';

type Print = (line: string) => void;

/** `audit:retention`: the daily retention job, once, now; prints what it did. */
export async function retentionTask(db: CommandDatabase, config: AppConfig, print: Print, now = new Date()): Promise<RetentionReport> {
  const service = new AuditRetentionService(db.make(AuditRetentionRepository), new AuditService(db.make(AuditLogsRepository)), config, createLogger('warn'));
  const report = await service.run(now, 'cli');
  print(`Tier: ${report.tier}`);
  print(`Database: deleted ${report.purged_rows} audit rows created before ${report.database_cutoff}`);
  if (!report.archive) {
    print('Archive: none for this tier');
    return report;
  }
  print(`Archive: ${report.archive.directory}`);
  for (const file of report.archive.written) print(`  wrote ${file.file} (${file.rows} rows, sha256 ${file.sha256})`);
  print(`  ${report.archive.archived_rows} rows archived; the archive covers events before ${report.archive.through}`);
  for (const file of report.archive.expired_files) print(`  deleted ${file} (ended before ${report.archive.expire_before})`);
  if (!report.archive.expired_files.length) print(`  no archive file ended before ${report.archive.expire_before}`);
  return report;
}

/** `audit:verify-archive`: checks every archive file against its manifest and the chain; 1 when anything is wrong. */
export async function verifyArchiveTask(db: CommandDatabase, config: AppConfig, print: Print, now = new Date()): Promise<number> {
  const archive = AuditArchive.fromConfig(config);
  const result = await archive.verify({
    expiredBefore: archiveExpiredBefore(config.audit.retentionTier, now),
    newest: await db.make(AuditRetentionRepository).newestArchivedFile(),
  });
  print(`Archive: ${archive.directory}`);
  for (const problem of result.problems) print(`FAIL ${problem.file}: ${problem.problem}`);
  print(`${result.files} files, ${result.rows} rows verified; ${result.problems.length} problems`);
  return result.ok ? 0 : 1;
}
