import { Check, Column, Entity, Index, JoinColumn, ManyToOne, OneToOne, PrimaryColumn } from 'typeorm';
import type { TransactionKind } from '@hearth/contracts';
import { CreatedAt, PrimaryUuid, UpdatedAt, currencyCode, minorUnits } from '../../database/columns';
import { Account } from './account.entity';
import { Family } from './family.entity';
import { Category, Merchant, Tag } from './taxonomy.entity';

export type EntryableType = 'Transaction' | 'Trade' | 'Valuation';

/**
 * The common ledger row. Amount sign: positive = money leaving the account (outflow), negative = inflow.
 * family_id is carried directly (not only through the account) because budgets filter by (family, date). One
 * foreign key covers both columns: the entry's family is its account's family, and a bulk insert pays one
 * check per row instead of two (families cascade to entries through their accounts).
 */
@Entity('entries')
@Check('entries_entryable_type_valid', `"entryable_type" IN ('Transaction', 'Trade', 'Valuation')`)
// Budgets aggregate a family's month from this index alone (index-only scan); INCLUDE is beyond TypeORM's
// index model, so the migration owns it and schema sync leaves it alone.
@Index('entries_family_date_covering', { synchronize: false })
// Import de-duplication probes one (account, date, amount) at a time; account/date ranges use the same index.
@Index('entries_account_date_amount', ['accountId', 'date', 'amountMinor'])
// An account's balance starts from its latest valuation, and its trades' fees and split parts change the sums of its
// entries (ledger/rolled-forward.ts): each found by its own small index, which an ordinary transaction adds nothing to.
@Index('entries_account_valuations', ['accountId', 'date'], { where: `"entryable_type" = 'Valuation'` })
@Index('entries_account_trades', ['accountId'], { where: `"entryable_type" = 'Trade'` })
@Index('entries_account_split_parts', ['accountId'], { where: '"parent_entry_id" IS NOT NULL' })
@Index(['accountId', 'source', 'externalId'], {
  unique: true,
  where: '"source" IS NOT NULL AND "external_id" IS NOT NULL',
})
export class Entry {
  @PrimaryUuid() id: string;
  @Column({ type: 'uuid' }) familyId: string;
  @Column({ type: 'uuid' }) accountId: string;
  // References checked per statement, not per row (migration StatementReferences); deleting the account cascades.
  @ManyToOne(() => Account, { createForeignKeyConstraints: false })
  @JoinColumn([
    { name: 'account_id', referencedColumnName: 'id' },
    { name: 'family_id', referencedColumnName: 'familyId' },
  ])
  account?: Account;
  @Column({ type: 'varchar', length: 20 }) entryableType: EntryableType;
  @Column({ type: 'date' }) date: string;
  @Column({ type: 'varchar', length: 500 }) name: string;
  @Column(minorUnits()) amountMinor: number;
  @Column(currencyCode()) currency: string;
  @Column({ type: 'text', nullable: true }) notes: string | null;
  @Column({ type: 'boolean', default: false }) excluded: boolean;
  @Column({ type: 'varchar', length: 255, nullable: true }) externalId: string | null;
  @Column({ type: 'varchar', length: 50, nullable: true }) source: string | null;
  // Partial indexes: most entries have neither, and every index costs on bulk import.
  @Index('entries_import_id', { where: '"import_id" IS NOT NULL' }) @Column({ type: 'uuid', nullable: true }) importId: string | null;
  @Index('entries_parent_entry_id', { where: '"parent_entry_id" IS NOT NULL' }) @Column({ type: 'uuid', nullable: true }) parentEntryId: string | null;
  @ManyToOne(() => Entry, { createForeignKeyConstraints: false }) @JoinColumn() parentEntry?: Entry;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}

/** Transaction details of an entry (entryable_type = 'Transaction'). */
@Entity('transactions')
// By category and kind, with the entry (INCLUDE, so the migration owns it): budgets find a category's first spending.
@Index('transactions_category_kind', { synchronize: false })
@Check(
  'transactions_kind_valid',
  `"kind" IN ('standard', 'funds_movement', 'cc_payment', 'loan_payment', 'one_time', 'investment_contribution')`,
)
export class EntryTransaction {
  /** The key INCLUDEs category_id, kind, pending and investment_activity_label for budgets (TransactionsCoveringKey). */
  @PrimaryColumn({ type: 'uuid' }) entryId: string;
  // These three references are checked per statement (migration StatementReferences), with the same delete rules.
  @OneToOne(() => Entry, { createForeignKeyConstraints: false }) @JoinColumn() entry?: Entry;
  @Column({ type: 'uuid', nullable: true }) categoryId: string | null;
  @ManyToOne(() => Category, { createForeignKeyConstraints: false }) @JoinColumn() category?: Category;
  @Index('transactions_merchant_id', { where: '"merchant_id" IS NOT NULL' }) @Column({ type: 'uuid', nullable: true }) merchantId: string | null;
  @ManyToOne(() => Merchant, { createForeignKeyConstraints: false }) @JoinColumn() merchant?: Merchant;
  @Column({ type: 'varchar', length: 30, default: 'standard' }) kind: TransactionKind;
  @Column({ type: 'varchar', length: 30, nullable: true }) investmentActivityLabel: string | null;
  /** Pending at the bank; budgets skip pending transactions. */
  @Column({ type: 'boolean', default: false }) pending: boolean;
  @Column({ type: 'jsonb', default: () => `'{}'` }) extra: Record<string, unknown>;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}

/** Links a tag to a transaction entry; family scoping comes through the tag. */
@Entity('taggings')
export class Tagging {
  @PrimaryColumn({ type: 'uuid' }) tagId: string;
  // Both references are checked per statement (migration StatementReferences); deleting either side cascades.
  @ManyToOne(() => Tag, { createForeignKeyConstraints: false }) @JoinColumn() tag?: Tag;
  @Index() @PrimaryColumn({ type: 'uuid' }) entryId: string;
  @ManyToOne(() => Entry, { createForeignKeyConstraints: false }) @JoinColumn() entry?: Entry;
  @CreatedAt() createdAt: Date;
}

@Entity('securities')
@Index(['ticker', 'exchangeOperatingMic'], { unique: true })
@Check('securities_ticker_uppercase', '"ticker" = upper("ticker")')
export class Security {
  @PrimaryUuid() id: string;
  @Column({ type: 'varchar', length: 30 }) ticker: string;
  @Column({ type: 'varchar', length: 200, nullable: true }) name: string | null;
  @Column({ type: 'varchar', length: 2, nullable: true }) countryCode: string | null;
  /** '' when unknown, so (ticker, mic) stays unique without NULL gaps. */
  @Column({ type: 'varchar', length: 10, default: '' }) exchangeOperatingMic: string;
  @Column({ type: 'varchar', length: 10, default: 'standard' }) kind: 'standard' | 'cash';
  @Column({ type: 'boolean', default: false }) offline: boolean;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}

/** Trade details of an entry: amount = qty x price + fee, in the entry's currency. */
@Entity('trades')
export class Trade {
  @PrimaryColumn({ type: 'uuid' }) entryId: string;
  // Checked per statement (migration StatementReferences); deleting the entry cascades.
  @OneToOne(() => Entry, { createForeignKeyConstraints: false }) @JoinColumn() entry?: Entry;
  @Index() @Column({ type: 'uuid' }) securityId: string;
  @ManyToOne(() => Security, { onDelete: 'RESTRICT' }) @JoinColumn() security?: Security;
  /** Signed: buy positive, sell negative. Decimal strings keep full precision. */
  @Column({ type: 'numeric', precision: 24, scale: 8 }) qty: string;
  @Column({ type: 'numeric', precision: 19, scale: 10 }) price: string;
  @Column(minorUnits({ default: 0 })) feeMinor: number;
  @Column(currencyCode()) currency: string;
  @Column({ type: 'varchar', length: 30, nullable: true }) investmentActivityLabel: string | null;
}

@Entity('valuations')
export class Valuation {
  @PrimaryColumn({ type: 'uuid' }) entryId: string;
  // Checked per statement (migration StatementReferences); deleting the entry cascades.
  @OneToOne(() => Entry, { createForeignKeyConstraints: false }) @JoinColumn() entry?: Entry;
  @Column({ type: 'varchar', length: 20, default: 'reconciliation' }) kind: string;
}

@Entity('transfers')
export class Transfer {
  @PrimaryUuid() id: string;
  @Index() @Column({ type: 'uuid' }) familyId: string;
  @ManyToOne(() => Family, { onDelete: 'CASCADE' }) @JoinColumn() family?: Family;
  // Both entries are checked per statement (migration StatementReferences); deleting either deletes the transfer.
  @Index({ unique: true }) @Column({ type: 'uuid' }) inflowEntryId: string;
  @ManyToOne(() => Entry, { createForeignKeyConstraints: false }) @JoinColumn() inflowEntry?: Entry;
  @Index({ unique: true }) @Column({ type: 'uuid' }) outflowEntryId: string;
  @ManyToOne(() => Entry, { createForeignKeyConstraints: false }) @JoinColumn() outflowEntry?: Entry;
  @Column({ type: 'varchar', length: 20, default: 'pending' }) status: 'pending' | 'confirmed';
  @Column({ type: 'text', nullable: true }) notes: string | null;
  @Index() @Column({ type: 'uuid', nullable: true }) importId: string | null;
  @CreatedAt() createdAt: Date;
}

@Entity('exchange_rates')
@Index(['fromCurrency', 'toCurrency', 'date'], { unique: true })
export class ExchangeRate {
  @PrimaryUuid() id: string;
  @Column(currencyCode()) fromCurrency: string;
  @Column(currencyCode()) toCurrency: string;
  @Column({ type: 'date' }) date: string;
  @Column({ type: 'numeric', precision: 24, scale: 12 }) rate: string;
  @CreatedAt() createdAt: Date;
}
