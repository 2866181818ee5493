import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { ImportStatus, ImportType } from '@hearth/contracts';
import type { StatedBalances } from '@hearth/domain/import-formats';
import { CreatedAt, PrimaryUuid, UpdatedAt } from '../database/columns';
import { Family } from '../finance/entities/family.entity';

@Entity('imports')
@Check('imports_status_valid', `"status" IN ('pending', 'complete', 'importing', 'reverting', 'revert_failed', 'failed')`)
@Index(['familyId', 'createdAt'])
@Index(['status', 'updatedAt'])
export class Import {
  @PrimaryUuid() id: string;
  @Column({ type: 'uuid' }) familyId: string;
  @ManyToOne(() => Family, { onDelete: 'CASCADE' }) @JoinColumn() family?: Family;
  /** Account the rows go into; no foreign key, so deleting the account keeps the import's history. */
  @Column({ type: 'uuid', nullable: true }) accountId: string | null;
  @Column({ type: 'varchar', length: 30 }) type: ImportType;
  @Column({ type: 'varchar', length: 20, default: 'pending' }) status: ImportStatus;
  /** Not loaded by default: up to 10 MB that only (re)parsing needs. */
  @Column({ type: 'text', nullable: true, select: false }) rawFileContent?: string | null;
  /** Size of the uploaded content in bytes; 0 until content is uploaded. */
  @Column({ type: 'integer', default: 0 }) contentBytes: number;
  @Column({ type: 'varchar', length: 255, nullable: true }) fileName: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) dateColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) amountColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) nameColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) categoryColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) tagsColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) notesColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) accountColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) qtyColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) tickerColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) priceColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) entityTypeColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) outflowColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) inflowColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) currencyColLabel: string | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) exchangeOperatingMicColLabel: string | null;
  @Column({ type: 'varchar', length: 50, nullable: true }) dateFormat: string | null;
  @Column({ type: 'varchar', length: 20, default: '1,234.56' }) numberFormat: string;
  @Column({ type: 'varchar', length: 20, default: 'inflows_positive' }) signageConvention: string;
  @Column({ type: 'varchar', length: 1, default: ',' }) colSep: string;
  @Column({ type: 'varchar', length: 20, default: 'signed_amount' }) amountTypeStrategy: string;
  @Column({ type: 'varchar', length: 255, nullable: true }) amountTypeInflowValue: string | null;
  /** The CSV line (1-based) holding the header; null: detected (headerLine). */
  @Column({ type: 'integer', nullable: true }) headerRow: number | null;
  /** false: the CSV has no header line and its columns are named by number. */
  @Column({ type: 'boolean', default: true }) hasHeader: boolean;
  @Column({ type: 'integer', default: 0 }) rowsCount: number;
  /** The earliest and latest date of its rows (YYYY-MM-DD), kept with rows_count; null when no row has a date. */
  @Column({ type: 'date', nullable: true }) firstRowDate: string | null;
  @Column({ type: 'date', nullable: true }) lastRowDate: string | null;
  /** Rows with validation errors; kept with rows_count whenever the rows are replaced. */
  @Column({ type: 'integer', default: 0 }) invalidRowsCount: number;
  /**
   * Row numbers left out of the import (PATCH skip_rows), ascending: the rows are generated without them, so they are
   * neither counted, checked nor published.
   */
  @Column({ type: 'jsonb', default: () => `'[]'` }) skipRows: number[];
  @Column({ type: 'text', nullable: true }) error: string | null;
  /** Type-specific settings (e.g. the QIF date order). */
  @Column({ type: 'jsonb', default: () => `'{}'` }) columnMappings: Record<string, unknown>;
  @Column({ type: 'jsonb', default: () => `'{}'` }) expectedRecordCounts: Record<string, number>;
  @Column({ type: 'jsonb', default: () => `'{}'` }) readbackVerification: Record<string, unknown>;
  /**
   * The balances a bank statement file (OFX, CAMT, MT940) states, kept when its rows are generated: publishing sets a
   * new account's opening balance from them, or checks the account's balance against the closing one. Null for
   * other types and for a file stating no dated closing balance.
   */
  @Column({ type: 'jsonb', nullable: true }) statementBalances: StatedBalances | null;
  /** What the last publish found worth telling the user that did not stop it (a statement's balance the account disagrees with); [] when nothing. */
  @Column({ type: 'jsonb', default: () => `'[]'` }) warnings: string[];
  /** Resume point of a chunked publish: rows up to this number are committed. */
  @Column({ type: 'integer', default: 0 }) publishedThroughRow: number;
  /** The job delivery that publishes: each delivery takes it over, and only its holder commits chunks or finishes. */
  @Column({ type: 'uuid', nullable: true }) publishToken: string | null;
  @Column({ type: 'timestamptz', nullable: true }) publishStartedAt: Date | null;
  /**
   * The queue job of the latest publish or revert request, named when the request queues it: the reaper asks the
   * queue whether it is still coming, and a delivery of it for an import the reaper failed knows itself.
   */
  @Column({ type: 'varchar', length: 64, nullable: true }) jobId: string | null;
  /**
   * Renewed while a publish or revert runs (and at each committed chunk); null while its job waits in the queue. The
   * reaper fails only work whose runner stopped renewing it.
   */
  @Column({ type: 'timestamptz', nullable: true }) heartbeatAt: Date | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}

/** One parsed source row; values keep the text as read, errors hold the row's validation messages. */
@Entity('import_rows')
@Index('import_rows_duplicate_of', ['importId', 'duplicateOf'], { where: '"duplicate_of" IS NOT NULL' })
@Index('import_rows_with_errors', ['importId', 'sourceRowNumber'], { where: `"errors" <> '[]'::jsonb` })
export class ImportRow {
  @PrimaryColumn({ type: 'uuid' }) importId: string;
  /** Kept by statement-level triggers, not a foreign key: one check per statement, not per row (StatementReferences). */
  @ManyToOne(() => Import, { createForeignKeyConstraints: false }) @JoinColumn() import?: Import;
  @PrimaryColumn({ type: 'integer' }) sourceRowNumber: number;
  @Column({ type: 'jsonb' }) values: Record<string, string | null>;
  @Column({ type: 'jsonb', default: () => `'[]'` }) errors: string[];
  /** The existing entry this row turned out to duplicate at publish; it was claimed instead of inserted. */
  @Column({ type: 'uuid', nullable: true }) duplicateOf: string | null;
  /**
   * What the row changed in that existing record, as { column: [before, after] } (and tag_ids: the tags it added):
   * revert puts back what is still `after`.
   */
  @Column({ type: 'jsonb', nullable: true }) previous: Record<string, unknown> | null;
}

/** Maps a name found in the rows (account, category, tag, account type) to a record of the family. */
@Entity('import_mappings')
@Index(['importId', 'type', 'key'], { unique: true })
export class ImportMapping {
  @PrimaryUuid() id: string;
  @Column({ type: 'uuid' }) importId: string;
  @ManyToOne(() => Import, { onDelete: 'CASCADE' }) @JoinColumn() import?: Import;
  @Column({ type: 'varchar', length: 30 }) type: 'account' | 'category' | 'tag' | 'account_type';
  @Column({ type: 'varchar', length: 500 }) key: string;
  @Column({ type: 'varchar', length: 500, nullable: true }) value: string | null;
  @Column({ type: 'boolean', default: true }) createWhenEmpty: boolean;
  @Column({ type: 'uuid', nullable: true }) mappableId: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
