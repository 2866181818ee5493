import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import type { ApiKeyScope } from '@hearth/contracts';
import { CreatedAt, PrimaryUuid } from '../database/columns';
import { User } from '../users/user.entity';

/** Only the SHA-256 of the key is stored; the prefix lets people recognise a key without revealing it. */
@Entity('api_keys')
@Check('api_keys_scope_valid', `"scope" IN ('read', 'read_write')`)
export class ApiKey {
  @PrimaryUuid() id: string;
  @Index() @Column({ type: 'uuid' }) userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn() user?: User;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Index({ unique: true }) @Column({ type: 'varchar', length: 16 }) prefix: string;
  @Index({ unique: true }) @Column({ type: 'char', length: 64 }) keyHash: string;
  @Column({ type: 'varchar', length: 20 }) scope: ApiKeyScope;
  @Column({ type: 'timestamptz', nullable: true }) expiresAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) lastUsedAt: Date | null;
  @CreatedAt() createdAt: Date;
}

/** Server-side browser session; the cookie carries a random token whose SHA-256 is stored here. */
@Entity('sessions')
export class Session {
  @PrimaryUuid() id: string;
  @Index() @Column({ type: 'uuid' }) userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn() user?: User;
  @Index({ unique: true }) @Column({ type: 'char', length: 64 }) tokenHash: string;
  @Column({ type: 'varchar', length: 64, nullable: true }) ipAddress: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) userAgent: string | null;
  @Column({ type: 'uuid', nullable: true }) ssoProviderId: string | null;
  @Column({ type: 'timestamptz' }) expiresAt: Date;
  @Column({ type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  /** Last request made with the session, recorded at most once a minute; the idle timeout counts from it. */
  @Column({ type: 'timestamptz', default: () => 'now()' }) lastSeenAt: Date;
  @CreatedAt() createdAt: Date;
}

/** A password-reset link: single use, short-lived; only the SHA-256 of its token is stored. */
@Entity('password_reset_tokens')
export class PasswordResetToken {
  @PrimaryUuid() id: string;
  @Index() @Column({ type: 'uuid' }) userId: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn() user?: User;
  @Index({ unique: true }) @Column({ type: 'char', length: 64 }) tokenHash: string;
  @Column({ type: 'timestamptz' }) expiresAt: Date;
  @Column({ type: 'timestamptz', nullable: true }) usedAt: Date | null;
  @CreatedAt() createdAt: Date;
}
