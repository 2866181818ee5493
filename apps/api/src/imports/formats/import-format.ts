import type { AccountableType, ImportFormatFacts, ImportType } from '@hearth/contracts';
import type { ParseOptions, ReadImport } from '@hearth/domain/import-formats';
import type { Transaction } from '../../database/transactions';
import type { ImportContent } from '../import-content';
import type { ImportDetailDto } from '../import.dto';
import type { Import, ImportMapping } from '../import.entity';
import type { ChunkPublisher } from '../publishing/publish-context';
import type { FormatServices } from './format-services';

/** The values rows name that become mappings to the family's records (or, for account_type, to an accountable type). */
export type MappingKind = ImportMapping['type'];

/**
 * How a row that repeats what the ledger holds is published. content: a transaction or trade with the same account,
 * date, amount, currency and name (no external id) is claimed instead of added, so re-imported bank and app exports
 * do not double the history; external_id: rows carry the bank's own transaction id (external_id), stored on the entry
 * with the import type as its source, and a row whose id the account has from an import of the same type claims that
 * entry; rows without one (and trades) fall back to content; none: every row is added.
 */
export type DuplicatePolicy = 'content' | 'external_id' | 'none';

/** What a format does beyond parsing and publishing rows; each is optional and runs only for its format. */
export interface ImportFormatHooks {
  /** Checks, before the import is queued, what only a publish could otherwise find; throws an ApiError to refuse. */
  preflight?(tx: Transaction, imp: Import, services: FormatServices): Promise<void>;
  /** Counts before a publish and reads back after it (error: why it failed), as the import's verification. */
  verify?: {
    begin(imp: Import, services: FormatServices): Promise<void>;
    finish(imp: Import, error: string | null, services: FormatServices): Promise<void>;
    /** What to tell the user of a failed publish instead of the generic message; null: the generic one. */
    explainFailure(imp: Import, error: unknown, services: FormatServices): Promise<string | null>;
  };
  /** Removes, in the revert's transaction and before the records carrying the import's id, what carries none. */
  beforeRevert?(tx: Transaction, imp: Import, services: FormatServices): Promise<void>;
  /** Fields the import's detail adds. */
  detail?(imp: Import): Partial<ImportDetailDto>;
}

/**
 * One import type: what it accepts, how its content becomes rows, and how the rows are published and reverted.
 * Entries live in this folder (one file or folder per type or family of types) and are listed in registry.ts.
 */
export interface ImportFormat {
  type: ImportType;
  /** What the admin app knows too: accepted content, account, configuration fields. */
  facts: ImportFormatFacts;
  /**
   * For content read as bytes: `store` turns an upload into the text the import stores (so that PATCH can read its
   * rows again) and sets what the parser reads in content.decoded; `read` gives that content back from the text.
   */
  bytes?: {
    store(content: ImportContent): Promise<string>;
    read(stored: string, fileName: string | null): ImportContent;
  };
  /** Column labels and options the exporting app fixes: applied over what create and PATCH give. */
  fixedLayout?: Partial<Import>;
  /** Whether PATCH parses the stored content again on any change; false: only to apply a new skip_rows. */
  reparsedOnChange: boolean;
  /**
   * How the content becomes the import's rows: `parse` reads them (without the import's skipped rows, file-level
   * problems in fileErrors), and they are stored and mapped; or `store` stores them itself and returns how many rows
   * the content has.
   */
  rows: { parse(imp: Import, content: ImportContent, options: ParseOptions): ReadImport } | { store(tx: Transaction, imp: Import, content: ImportContent, services: FormatServices): Promise<number> };
  /** Rows one import may publish, from the configured IMPORT_MAX_ROWS; `reason` names the limit when it is the type's own. */
  rowLimit: { max(configured: number): number; reason?: string };
  mappings: readonly MappingKind[];
  duplicates: DuplicatePolicy;
  /** Whether rows can be a split's parts (split_of), published in their total's chunk. */
  splitParts: boolean;
  /** Whether rows can be stock splits: an import with any is published as one chunk. */
  stockSplits: boolean;
  /** The type of the accounts publishing creates for account names that are not the family's. */
  createdAccounts: AccountableType;
  publish: ChunkPublisher;
  /**
   * Whether two chunks may run at once: each inserts only rows of its own (no shared records made per chunk);
   * 'transaction rows': while every row of the import is a transaction (trades make securities, shared).
   */
  concurrentChunks: boolean | 'transaction rows';
  hooks?: ImportFormatHooks;
}

const DEFAULTS = {
  reparsedOnChange: true,
  rowLimit: { max: (configured: number) => configured },
  mappings: [],
  duplicates: 'none',
  splitParts: false,
  stockSplits: false,
  createdAccounts: 'Depository',
  concurrentChunks: false,
} as const satisfies Partial<ImportFormat>;

/** An entry with the defaults: parsed again on PATCH, IMPORT_MAX_ROWS, no mappings, no duplicates, one chunk at a time. */
export const defineFormat = (format: Omit<ImportFormat, keyof typeof DEFAULTS> & Partial<ImportFormat>): ImportFormat => ({ ...DEFAULTS, ...format });
