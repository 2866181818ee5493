import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { CreatedAt, PrimaryUuid, UpdatedAt } from '../database/columns';
import { Family } from '../finance/entities/family.entity';

export type FamilyExportStatus = 'pending' | 'processing' | 'completed' | 'failed';

/** One export of a family's data as the service's NDJSON, produced by a job. */
@Entity('family_exports')
@Check('family_exports_status_valid', `"status" IN ('pending', 'processing', 'completed', 'failed')`)
@Index(['familyId', 'createdAt'])
export class FamilyExport {
  @PrimaryUuid() id: string;
  @Column({ type: 'uuid' }) familyId: string;
  @ManyToOne(() => Family, { onDelete: 'CASCADE' }) @JoinColumn() family?: Family;
  @Column({ type: 'varchar', length: 20, default: 'pending' }) status: FamilyExportStatus;
  @Column({ type: 'varchar', length: 255 }) fileName: string;
  /** The NDJSON; not loaded by default, only the download reads it. */
  @Column({ type: 'text', nullable: true, select: false }) content?: string | null;
  /** Lines per entity key (the same keys as an import's expected_record_counts). */
  @Column({ type: 'jsonb', default: () => `'{}'` }) recordCounts: Record<string, number>;
  @Column({ type: 'text', nullable: true }) error: string | null;
  @Column({ type: 'timestamptz', nullable: true }) completedAt: Date | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
