import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import type { AuditActor, AuditEvent } from '@hearth/contracts';
import { AuditLog } from './audit-log.entity';

/** Where a request came from, as the audit log keeps it. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export interface AuditEntry {
  /** Who acted; `user` when left out (a request of the API or the admin app). */
  actor?: AuditActor;
  userId?: string | null;
  familyId?: string | null;
  providerId?: string | null;
  /** `local` for password sign-in, else the provider's unique name. */
  providerName?: string | null;
  origin?: RequestOrigin;
  /** Never secrets: no passwords, tokens, keys or e-mail addresses of unknown accounts. */
  details?: Record<string, unknown>;
}

/** Control characters are dropped so a forged header cannot split or fake a log line. */
const clean = (value: string | undefined | null, max: number): string | null => {
  if (!value) return null;
  const printable = Array.from(value)
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f)
    .join('');
  return printable ? printable.slice(0, max) : null;
};

export function requestOrigin(req: Request): RequestOrigin {
  return { ip: clean(req.ip, 64), userAgent: clean(req.header('user-agent'), 500) };
}

export interface AuthHistoryEntry {
  id: string;
  event: AuditEvent;
  providerName: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
}

/** The append-only record of sign-in and administration events. Nothing here updates or deletes a row. */
@Injectable()
export class AuditService {
  constructor(private readonly dataSource: DataSource) {}

  /** Writes one event; pass the transaction's manager so the record commits or rolls back with the change. */
  async record(event: AuditEvent, entry: AuditEntry = {}, manager: EntityManager = this.dataSource.manager): Promise<void> {
    await manager.getRepository(AuditLog).save(
      manager.getRepository(AuditLog).create({
        event,
        actor: entry.actor ?? 'user',
        userId: entry.userId ?? null,
        familyId: entry.familyId ?? null,
        providerId: entry.providerId ?? null,
        providerName: clean(entry.providerName, 100),
        ipAddress: entry.origin?.ip ?? null,
        userAgent: entry.origin?.userAgent ?? null,
        details: entry.details ?? {},
      }),
    );
  }

  /** A user's sign-in history, newest first. */
  async historyForUser(userId: string, limit: number): Promise<AuthHistoryEntry[]> {
    return this.dataSource.getRepository(AuditLog).find({
      where: { userId },
      order: { createdAt: 'DESC' },
      take: limit,
      select: { id: true, event: true, providerName: true, ipAddress: true, userAgent: true, details: true, createdAt: true },
    });
  }

  /** Failed sign-ins recorded for an account key (a keyed digest of the e-mail) since a moment, oldest first. */
  async failuresSince(accountKey: string, since: Date): Promise<Date[]> {
    const rows: { created_at: Date }[] = await this.dataSource.query(
      `SELECT created_at FROM audit_logs
        WHERE event = 'login_failed' AND created_at > $1 AND details->>'account' = $2
        ORDER BY created_at`,
      [since, accountKey],
    );
    return rows.map((row) => new Date(row.created_at));
  }
}
