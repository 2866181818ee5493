import { Check, Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { CreatedAt, PrimaryUuid, UpdatedAt } from '../../database/columns';
import { Family } from './family.entity';

// Categories, tags and merchants: the family's own names for where money goes.

@Entity('categories')
@Index(['familyId', 'name'], { unique: true })
@Check('categories_classification_valid', `"classification" IN ('income', 'expense')`)
export class Category {
  @PrimaryUuid() id: string;
  @Column({ type: 'uuid' }) familyId: string;
  @ManyToOne(() => Family, { onDelete: 'CASCADE' }) @JoinColumn() family?: Family;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'varchar', length: 7, default: '#6172F3' }) color: string;
  @Column({ type: 'varchar', length: 50, default: 'shapes' }) lucideIcon: string;
  /** What the household calls the category; budgets still tell income from spending by each amount's sign, as Sure does. */
  @Column({ type: 'varchar', length: 10, default: 'expense' }) classification: 'income' | 'expense';
  @Index() @Column({ type: 'uuid', nullable: true }) parentId: string | null;
  @ManyToOne(() => Category, { onDelete: 'SET NULL' }) @JoinColumn() parent?: Category;
  @Index() @Column({ type: 'uuid', nullable: true }) importId: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}

@Entity('tags')
@Index(['familyId', 'name'], { unique: true })
export class Tag {
  @PrimaryUuid() id: string;
  @Column({ type: 'uuid' }) familyId: string;
  @ManyToOne(() => Family, { onDelete: 'CASCADE' }) @JoinColumn() family?: Family;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'varchar', length: 7, nullable: true, default: '#e99537' }) color: string | null;
  @Index() @Column({ type: 'uuid', nullable: true }) importId: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}

@Entity('merchants')
@Index(['familyId', 'name'], { unique: true, where: `"type" = 'FamilyMerchant'` })
export class Merchant {
  @PrimaryUuid() id: string;
  /** Null for provider merchants, which are shared by every family. */
  @Column({ type: 'uuid', nullable: true }) familyId: string | null;
  @ManyToOne(() => Family, { onDelete: 'CASCADE' }) @JoinColumn() family?: Family;
  @Column({ type: 'varchar', length: 20, default: 'FamilyMerchant' }) type: 'FamilyMerchant' | 'ProviderMerchant';
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ type: 'varchar', length: 7, nullable: true }) color: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) logoUrl: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) websiteUrl: string | null;
  @Column({ type: 'varchar', length: 50, nullable: true }) source: string | null;
  @Index() @Column({ type: 'uuid', nullable: true }) importId: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}

@Entity('rules')
export class Rule {
  @PrimaryUuid() id: string;
  @Index() @Column({ type: 'uuid' }) familyId: string;
  @ManyToOne(() => Family, { onDelete: 'CASCADE' }) @JoinColumn() family?: Family;
  @Column({ type: 'varchar', length: 30, default: 'transaction' }) resourceType: string;
  @Column({ type: 'varchar', length: 200, nullable: true }) name: string | null;
  @Column({ type: 'boolean', default: false }) active: boolean;
  @Column({ type: 'date', nullable: true }) effectiveDate: string | null;
  /** [{condition_type, operator, value, sub_conditions?}] */
  @Column({ type: 'jsonb', default: () => `'[]'` }) conditions: unknown[];
  /** [{action_type, value}] */
  @Column({ type: 'jsonb', default: () => `'[]'` }) actions: unknown[];
  @Index() @Column({ type: 'uuid', nullable: true }) importId: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
