import type { AuditActor } from '@hearth/contracts';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { AuditArchive } from './audit-archive';
import { AuditRetentionRepository } from './audit-retention.repository';
import { AuditRetentionTier, planRetention } from './audit-retention.policy';
import { AuditService } from './audit.service';

export interface RetentionReport {
  tier: AuditRetentionTier;
  /** Rows created before this were removed from the database. */
  database_cutoff: string;
  /** Null for tiers without an archive. */
  archive: null | {
    directory: string;
    /** Files written by this run, with the rows each holds. */
    written: { file: string; rows: number; sha256: string }[];
    archived_rows: number;
    /** The archive now covers every event before this moment. */
    through: string;
    /** Archive files deleted because their period ended at or before `expire_before`. */
    expired_files: string[];
    expire_before: string;
  };
  purged_rows: number;
}

/**
 * Applies the configured retention tier (docs/sign-in.md#retention), from the daily job and from `npm run cli -- audit:retention`.
 * Order matters for crash safety: rows are archived (file synced and renamed) before any row is deleted, and rows are
 * deleted only once the archive covers them; a run that dies part-way is completed by the next one.
 */
@Injectable()
export class AuditRetentionService {
  private readonly archive: AuditArchive;

  constructor(
    private readonly repository: AuditRetentionRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.archive = AuditArchive.fromConfig(config);
  }

  /** `actor`: the daily job (system) or an operator's `audit:retention` (cli), as the audit row records it. */
  async run(now: Date = new Date(), actor: AuditActor = 'system'): Promise<RetentionReport> {
    const tier = this.config.audit.retentionTier;
    // Standard keeps no archive and never touches the directory: files left by an earlier tier stay for the operator.
    const report = planRetention(tier, now, null).archive ? await this.archive.withLock(() => this.archiveAndPurge(tier, now)) : await this.purgeOnly(tier, now);
    await this.audit.record('audit_retention', {
      actor,
      details: {
        tier,
        database_cutoff: report.database_cutoff,
        purged_rows: report.purged_rows,
        archived_rows: report.archive?.archived_rows ?? 0,
        files_written: report.archive?.written.map((f) => ({ file: f.file, rows: f.rows, sha256: f.sha256 })) ?? [],
        files_expired: report.archive?.expired_files ?? [],
      },
    });
    this.logger.info(
      { tier, purged: report.purged_rows, archived: report.archive?.archived_rows ?? 0, expiredFiles: report.archive?.expired_files.length ?? 0 },
      'audit retention applied',
    );
    return report;
  }

  private async purgeOnly(tier: AuditRetentionTier, now: Date): Promise<RetentionReport> {
    const plan = planRetention(tier, now, null);
    const purged = await this.repository.deleteCreatedBefore(plan.databaseCutoff);
    return { tier, database_cutoff: plan.databaseCutoff.toISOString(), archive: null, purged_rows: purged };
  }

  private async archiveAndPurge(tier: AuditRetentionTier, now: Date): Promise<RetentionReport> {
    await this.archive.removeTemporaryFiles();
    const plan = planRetention(tier, now, await this.archive.archivedThrough());
    const archive = plan.archive!;
    const written: { file: string; rows: number; sha256: string }[] = [];
    for (const period of archive.periods) {
      const lines = this.repository.eventLines(period);
      const first = await lines.next();
      if (first.done) continue; // nothing happened in this period: no empty file
      const manifest = await this.archive.write(period, prepend(first.value, lines));
      written.push({ file: manifest.file, rows: manifest.rows, sha256: manifest.sha256 });
    }
    // Everything before `through` is archived now (or older than the archive window), so the purge loses nothing.
    const cutoff = plan.databaseCutoff < archive.through ? plan.databaseCutoff : archive.through;
    const purged = await this.repository.deleteCreatedBefore(cutoff);
    const expired = await this.archive.deleteExpired(archive.expireBefore);
    return {
      tier,
      database_cutoff: cutoff.toISOString(),
      archive: {
        directory: this.archive.directory,
        written,
        archived_rows: written.reduce((sum, f) => sum + f.rows, 0),
        through: archive.through.toISOString(),
        expired_files: expired,
        expire_before: archive.expireBefore.toISOString(),
      },
      purged_rows: purged,
    };
  }
}

async function* prepend(first: string, rest: AsyncIterable<string>): AsyncGenerator<string> {
  yield first;
  yield* rest;
}
