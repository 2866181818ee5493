import { Column, Entity, Index } from 'typeorm';
import type { AuditActor, AuditEvent } from '@hearth/contracts';
import { CreatedAt, PrimaryUuid } from '../database/columns';

/** Sign-in and administration events. No foreign keys: the record must outlive the user or provider it names. */
@Entity('audit_logs')
@Index(['createdAt'])
@Index(['event', 'createdAt'])
@Index(['familyId', 'createdAt'])
@Index(['userId', 'createdAt'])
export class AuditLog {
  @PrimaryUuid() id: string;
  @Column({ type: 'uuid', nullable: true }) familyId: string | null;
  @Column({ type: 'uuid', nullable: true }) userId: string | null;
  @Column({ type: 'varchar', length: 40 }) event: AuditEvent;
  @Column({ type: 'varchar', length: 10, default: 'user' }) actor: AuditActor;
  @Column({ type: 'uuid', nullable: true }) providerId: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) providerName: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) ipAddress: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) userAgent: string | null;
  @Column({ type: 'jsonb', default: () => `'{}'` }) details: Record<string, unknown>;
  @CreatedAt() createdAt: Date;
}
