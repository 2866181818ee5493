import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Period } from './audit-retention.policy';

/** Rows per statement: big enough to be set-based, small enough to keep locks and memory short. */
export const RETENTION_BATCH = 5000;

/**
 * The only SQL that removes audit rows (retention). Each batch is one statement of its own, so a long purge never holds
 * one huge transaction, and a crash leaves every row either in the table or already archived.
 */
@Injectable()
export class AuditRetentionRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The events of a period as NDJSON lines, oldest first, read in keyset batches. Times are UTC with microseconds
   * (formatted by PostgreSQL: a JS Date would lose them and the keyset would skip rows).
   */
  async *eventLines(period: Period, batch = RETENTION_BATCH): AsyncGenerator<string> {
    let after = { createdAt: '-infinity', id: '00000000-0000-0000-0000-000000000000' };
    for (;;) {
      const rows: { id: string; created: string; line: string }[] = await this.dataSource.query(
        `SELECT a.id, c.created,
                json_build_object('id', a.id, 'event', a.event, 'actor', a.actor, 'created_at', c.created, 'user_id', a.user_id,
                  'family_id', a.family_id, 'provider_id', a.provider_id, 'provider_name', a.provider_name,
                  'ip_address', a.ip_address, 'user_agent', a.user_agent, 'details', a.details)::text AS line
           FROM audit_logs a
           CROSS JOIN LATERAL (SELECT to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created) c
          WHERE a.created_at >= $1 AND a.created_at < $2
            -- the plain bound lets the created_at index skip what earlier batches read; the row comparison breaks ties
            AND a.created_at >= $3::timestamptz AND (a.created_at, a.id) > ($3::timestamptz, $4::uuid)
          ORDER BY a.created_at, a.id
          LIMIT $5`,
        [period.from, period.to, after.createdAt, after.id, batch],
      );
      for (const row of rows) yield row.line;
      if (rows.length < batch) return;
      const last = rows[rows.length - 1];
      after = { createdAt: last.created, id: last.id };
    }
  }

  /** The newest archive file a retention run recorded writing (its audit event's `files_written`), or null. */
  async newestArchivedFile(): Promise<{ file: string; sha256: string; recorded_at: string } | null> {
    const [row]: { written: { file: string; sha256: string }[]; created_at: Date }[] = await this.dataSource.query(
      `SELECT details->'files_written' AS written, created_at FROM audit_logs
        WHERE event = 'audit_retention' AND jsonb_typeof(details->'files_written') = 'array' AND details->'files_written' <> '[]'::jsonb
        ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    const newest = row?.written.at(-1);
    return newest ? { file: newest.file, sha256: newest.sha256, recorded_at: new Date(row.created_at).toISOString() } : null;
  }

  /** Deletes every row created before `cutoff`, a bounded batch per statement; returns how many went. */
  async deleteCreatedBefore(cutoff: Date, batch = RETENTION_BATCH): Promise<number> {
    let total = 0;
    for (;;) {
      const [{ deleted }]: { deleted: number }[] = await this.dataSource.query(
        `WITH doomed AS (SELECT id FROM audit_logs WHERE created_at < $1 ORDER BY created_at LIMIT $2),
              gone AS (DELETE FROM audit_logs a USING doomed WHERE a.id = doomed.id RETURNING 1)
         SELECT count(*)::int AS deleted FROM gone`,
        [cutoff, batch],
      );
      total += deleted;
      if (deleted < batch) return total;
    }
  }
}
