import { Check, Column, Entity, Index, JoinColumn, ManyToOne, Unique } from 'typeorm';
import type { AccountableType } from '@hearth/contracts';
import { CreatedAt, PrimaryUuid, UpdatedAt, currencyCode, minorUnits } from '../../database/columns';
import { User } from '../../users/user.entity';
import { Family } from './family.entity';

export type AccountStatus = 'active' | 'draft' | 'disabled' | 'pending_deletion';

@Entity('accounts')
@Check('accounts_classification_valid', `"classification" IN ('asset', 'liability')`)
@Check('accounts_status_valid', `"status" IN ('active', 'draft', 'disabled', 'pending_deletion')`)
@Index(['familyId', 'name'])
// What entries reference: (id, family_id) together, so an entry cannot sit in another family's account.
@Unique('accounts_id_family', ['id', 'familyId'])
export class Account {
  @PrimaryUuid() id: string;
  @Column({ type: 'uuid' }) familyId: string;
  @ManyToOne(() => Family, { onDelete: 'CASCADE' }) @JoinColumn() family?: Family;
  @Column({ type: 'uuid', nullable: true }) ownerId: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL' }) @JoinColumn() owner?: User;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'varchar', length: 30 }) accountableType: AccountableType;
  @Column({ type: 'varchar', length: 50, nullable: true }) subtype: string | null;
  /** liability for CreditCard, Loan and OtherLiability; asset otherwise. */
  @Column({ type: 'varchar', length: 10 }) classification: 'asset' | 'liability';
  @Column(minorUnits({ default: 0 })) balanceMinor: number;
  @Column(minorUnits({ default: 0 })) cashBalanceMinor: number;
  @Column(currencyCode()) currency: string;
  @Column({ type: 'varchar', length: 20, default: 'active' }) status: AccountStatus;
  @Column({ type: 'boolean', default: false }) excludeFromReports: boolean;
  @Column({ type: 'varchar', length: 200, nullable: true }) institutionName: string | null;
  @Column({ type: 'text', nullable: true }) notes: string | null;
  @Index() @Column({ type: 'uuid', nullable: true }) importId: string | null;
  /** Closed by hand: kept with its history and in balances and reports, but takes no new transactions. */
  @Column({ type: 'timestamptz', nullable: true }) closedAt: Date | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
