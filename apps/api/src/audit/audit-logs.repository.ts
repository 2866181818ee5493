import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuditEvent } from '@hearth/contracts';
import { managerOf, Transaction } from '../database/transactions';
import { User } from '../users/user.entity';
import { AuditLog } from './audit-log.entity';

export interface AuditLogFilter {
  event?: AuditEvent;
  from?: Date;
  to?: Date;
  userId?: string;
  providerName?: string;
  limit: number;
  offset: number;
}

/** The audit log's rows for the service and the admin list: appended and read, never updated or deleted here. */
export type AuditLogValues = Pick<AuditLog, 'event' | 'actor' | 'userId' | 'familyId' | 'providerId' | 'providerName' | 'ipAddress' | 'userAgent' | 'details'>;

/** A user's sign-in history as AuditService returns it. */
export type AuditHistoryRow = Pick<AuditLog, 'id' | 'event' | 'providerName' | 'ipAddress' | 'userAgent' | 'details' | 'createdAt'>;

/** Queries over the audit log: one insert per event, and reads. Only retention's repository deletes rows. */
@Injectable()
export class AuditLogsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Appends one event, in the caller's transaction when given so it commits or rolls back with the change. */
  async insert(values: AuditLogValues, tx?: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    await manager.getRepository(AuditLog).save(manager.getRepository(AuditLog).create(values));
  }

  /** A user's events, newest first. */
  historyForUser(userId: string, limit: number): Promise<AuditHistoryRow[]> {
    return this.dataSource.getRepository(AuditLog).find({
      where: { userId },
      order: { createdAt: 'DESC' },
      take: limit,
      select: { id: true, event: true, providerName: true, ipAddress: true, userAgent: true, details: true, createdAt: true },
    });
  }

  /** When the failed sign-ins recorded for an account key happened since a moment, oldest first. */
  async failuresSince(accountKey: string, since: Date): Promise<Date[]> {
    const rows: { created_at: Date }[] = await this.dataSource.query(
      `SELECT created_at FROM audit_logs
        WHERE event = 'login_failed' AND created_at > $1 AND details->>'account' = $2
        ORDER BY created_at`,
      [since, accountKey],
    );
    return rows.map((row) => new Date(row.created_at));
  }

  /** The page of events, each with its user's e-mail: null when it names no user or one since removed (no foreign key). */
  async list(filter: AuditLogFilter): Promise<{ rows: Array<AuditLog & { userEmail: string | null }>; total: number }> {
    const query = this.dataSource.getRepository(AuditLog).createQueryBuilder('a').leftJoin(User, 'u', 'u.id = a.user_id').addSelect('u.email', 'user_email');
    if (filter.event) query.andWhere('a.event = :event', { event: filter.event });
    if (filter.from) query.andWhere('a.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('a.created_at < :to', { to: filter.to });
    if (filter.userId) query.andWhere('a.user_id = :userId', { userId: filter.userId });
    if (filter.providerName) query.andWhere('a.provider_name = :providerName', { providerName: filter.providerName });
    const total = await query.getCount();
    const { entities, raw } = await query.orderBy('a.created_at', 'DESC').addOrderBy('a.id', 'DESC').limit(filter.limit).offset(filter.offset).getRawAndEntities<{ a_id: string; user_email: string | null }>();
    const emails = new Map(raw.map((r) => [r.a_id, r.user_email]));
    return { rows: entities.map((row) => Object.assign(row, { userEmail: emails.get(row.id) ?? null })), total };
  }
}
