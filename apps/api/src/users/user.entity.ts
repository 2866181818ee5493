import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { Role, UserStatus } from '@hearth/contracts';
import { CreatedAt, PrimaryUuid, UpdatedAt } from '../database/columns';
import { Family } from '../finance/entities/family.entity';

@Entity('users')
@Check('users_email_lowercase', '"email" = lower("email")')
@Check('users_role_valid', `"role" IN ('member', 'admin', 'super_admin')`)
@Check('users_status_valid', `"status" IN ('active', 'suspended')`)
@Check('users_suspended_by_role_valid', `"suspended_by_role" IS NULL OR ("status" = 'suspended' AND "suspended_by_role" IN ('admin', 'super_admin'))`)
export class User {
  @PrimaryUuid() id: string;
  @Index() @Column({ type: 'uuid' }) familyId: string;
  @ManyToOne(() => Family, { onDelete: 'CASCADE' }) @JoinColumn() family?: Family;
  /** Stored trimmed and lower-cased, so the unique index makes e-mail unique case-insensitively. */
  @Index({ unique: true }) @Column({ type: 'varchar', length: 320 }) email: string;
  @Column({ type: 'varchar', length: 100, nullable: true }) firstName: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) lastName: string | null;
  @Column({ type: 'varchar', length: 20, default: 'member' }) role: Role;
  @Column({ type: 'varchar', length: 20, default: 'active' }) status: UserStatus;
  /** While suspended, the role of who suspended them: only that rank or above reactivates (a super admin's stays theirs). */
  @Column({ type: 'varchar', length: 20, nullable: true }) suspendedByRole: Role | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) passwordHash: string | null;
  @Column({ type: 'varchar', length: 20, nullable: true }) locale: string | null;
  @Column({ type: 'timestamptz', nullable: true }) lastLoginAt: Date | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
