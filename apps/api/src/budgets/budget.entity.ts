import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { CreatedAt, PrimaryUuid, UpdatedAt, currencyCode, minorUnits } from '../database/columns';
import { Category } from '../finance/entities/taxonomy.entity';
import { Family } from '../finance/entities/family.entity';
import { User } from '../users/user.entity';

@Entity('budgets')
@Index(['familyId', 'startDate', 'endDate'], { unique: true, where: '"user_id" IS NULL' })
@Index(['familyId', 'startDate', 'endDate', 'userId'], { unique: true, where: '"user_id" IS NOT NULL' })
export class Budget {
  @PrimaryUuid() id: string;
  @Column({ type: 'uuid' }) familyId: string;
  @ManyToOne(() => Family, { onDelete: 'CASCADE' }) @JoinColumn() family?: Family;
  /** Null for the household budget; set for a member's personal budget. */
  @Column({ type: 'uuid', nullable: true }) userId: string | null;
  @ManyToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn() user?: User;
  @Column({ type: 'date' }) startDate: string;
  @Column({ type: 'date' }) endDate: string;
  /** Null until the budget is initialized. */
  @Column(minorUnits({ nullable: true })) budgetedSpendingMinor: number | null;
  @Column(minorUnits({ nullable: true })) expectedIncomeMinor: number | null;
  @Column(currencyCode()) currency: string;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}

@Entity('budget_categories')
@Index(['budgetId', 'categoryId'], { unique: true })
export class BudgetCategory {
  @PrimaryUuid() id: string;
  @Column({ type: 'uuid' }) budgetId: string;
  @ManyToOne(() => Budget, { onDelete: 'CASCADE' }) @JoinColumn() budget?: Budget;
  @Index() @Column({ type: 'uuid' }) categoryId: string;
  @ManyToOne(() => Category, { onDelete: 'CASCADE' }) @JoinColumn() category?: Category;
  /** 0 for a subcategory means it shares its parent's budget. */
  @Column(minorUnits({ default: 0 })) budgetedSpendingMinor: number;
  @Column(currencyCode()) currency: string;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
