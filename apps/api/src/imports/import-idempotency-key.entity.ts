import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../database/columns';
import { Family } from '../finance/entities/family.entity';

/**
 * An Idempotency-Key sent with POST /imports, per family, for 24 hours: a request repeating the key gets the first
 * answer instead of making a second import. Written in the transaction that stores the import, so two requests with
 * one key cannot both store one (the second waits on the primary key, then replays).
 */
@Entity('import_idempotency_keys')
@Index(['createdAt'])
export class ImportIdempotencyKey {
  @PrimaryColumn({ type: 'uuid' }) familyId: string;
  @ManyToOne(() => Family, { onDelete: 'CASCADE' }) @JoinColumn() family?: Family;
  @PrimaryColumn({ type: 'varchar', length: 255 }) key: string;
  /** SHA-256 (hex) of the request's body: the same key with another body is refused, not replayed. */
  @Column({ type: 'char', length: 64 }) requestFingerprint: string;
  /** The import the first request stored (null for a moment, between the key and the import in one transaction). */
  @Column({ type: 'uuid', nullable: true }) importId: string | null;
  /** The first answer, once sent; null while the first request runs, or when its process died before answering. */
  @Column({ type: 'smallint', nullable: true }) responseStatus: number | null;
  @Column({ type: 'jsonb', nullable: true }) responseBody: Record<string, unknown> | null;
  @CreatedAt() createdAt: Date;
}
