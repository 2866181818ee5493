import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuditEvent } from '@hearth/contracts';
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

/** Read-only queries over the audit log (nothing here writes). */
@Injectable()
export class AuditLogsRepository {
  constructor(private readonly dataSource: DataSource) {}

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
