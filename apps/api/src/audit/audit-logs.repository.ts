import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuditEvent } from '@hearth/contracts';
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

  async list(filter: AuditLogFilter): Promise<{ rows: AuditLog[]; total: number }> {
    const query = this.dataSource.getRepository(AuditLog).createQueryBuilder('a');
    if (filter.event) query.andWhere('a.event = :event', { event: filter.event });
    if (filter.from) query.andWhere('a.created_at >= :from', { from: filter.from });
    if (filter.to) query.andWhere('a.created_at < :to', { to: filter.to });
    if (filter.userId) query.andWhere('a.user_id = :userId', { userId: filter.userId });
    if (filter.providerName) query.andWhere('a.provider_name = :providerName', { providerName: filter.providerName });
    const [rows, total] = await query.orderBy('a.created_at', 'DESC').addOrderBy('a.id', 'DESC').take(filter.limit).skip(filter.offset).getManyAndCount();
    return { rows, total };
  }
}
