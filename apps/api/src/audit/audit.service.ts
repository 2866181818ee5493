import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { AuditActor, AuditEvent } from '@hearth/contracts';
import type { Transaction } from '../database/transactions';
import { AuditLogFilter, AuditLogsRepository } from './audit-logs.repository';

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
  constructor(private readonly logs: AuditLogsRepository) {}

  /** Writes one event; pass the transaction so the record commits or rolls back with the change. */
  async record(event: AuditEvent, entry: AuditEntry = {}, tx?: Transaction): Promise<void> {
    await this.logs.insert(
      {
        event,
        actor: entry.actor ?? 'user',
        userId: entry.userId ?? null,
        familyId: entry.familyId ?? null,
        providerId: entry.providerId ?? null,
        providerName: clean(entry.providerName, 100),
        ipAddress: entry.origin?.ip ?? null,
        userAgent: entry.origin?.userAgent ?? null,
        details: entry.details ?? {},
      },
      tx,
    );
  }

  /** A user's sign-in history, newest first. */
  historyForUser(userId: string, limit: number): Promise<AuthHistoryEntry[]> {
    return this.logs.historyForUser(userId, limit);
  }

  /** Failed sign-ins recorded for an account key (a keyed digest of the e-mail) since a moment, oldest first. */
  failuresSince(accountKey: string, since: Date): Promise<Date[]> {
    return this.logs.failuresSince(accountKey, since);
  }

  /** A page of the instance-wide log for super admins, each event with its user's e-mail. */
  list(filter: AuditLogFilter) {
    return this.logs.list(filter);
  }
}
