import type { AccountableType } from '@hearth/contracts';
import type { Transaction } from '../../database/transactions';
import type { Ledger } from '../../ledger/ledger';
import type { PublishingRepository } from './publishing.repository';
import type { Import } from '../import.entity';
import type { ImportFormat } from '../formats/import-format';

/**
 * A publish failure the user can act on, such as a row naming no account: its message is shown in the import's
 * `error`. Anything else a publisher throws (SQL, internal) shows only a generic message.
 */
export class PublishError extends Error {}

/** What every chunk of one publish needs: the family's currency and today, and the mapped record ids by row value. */
export interface PublishContext {
  imp: Import;
  /** The import's format: its duplicate policy, split parts and what its rows read. */
  format: ImportFormat;
  familyCurrency: string;
  /** The family's current date (YYYY-MM-DD) in its time zone, as the rows were checked against when parsed. */
  familyToday: string;
  accounts: Map<string, string>;
  /** The currency of each account rows can go to: the import's and the mapped ones. */
  accountCurrencies: Map<string, string>;
  categories: Map<string, string>;
  tags: Map<string, string>;
  accountTypes: Map<string, AccountableType>;
  /** Per account, the span of its transactions from before this import, loaded when a chunk first names it. */
  priorSpans: Map<string, PriorSpan | null>;
  /** Per account, whether it held external ids of the import's type before this import (duplicate policy external_id). */
  identifiedAccounts?: Map<string, boolean>;
  /** Entries this import's rows have claimed as duplicates so far, loaded when a chunk first probes for them. */
  claimed?: Set<string>;
  /** Where the publishers write: the ledger's repositories, called with the chunk's transaction. */
  ledger: Ledger;
  /** Where they read the import's rows. */
  publishing: PublishingRepository;
}

/** The repositories a publish goes through. */
export type PublishRepositories = Pick<PublishContext, 'ledger' | 'publishing'>;

/** The earliest and latest date (YYYY-MM-DD) of an account's transactions that an import row could duplicate. */
export interface PriorSpan {
  first: string;
  last: string;
}

export interface ImportRowRecord {
  sourceRowNumber: number;
  values: Record<string, unknown>;
}

/** Rows (after, through] of an import by source row number, `size` of them: published in one transaction. */
export interface ImportChunk {
  after: number;
  through: number;
  size: number;
  /** The import's last chunk: steps that need every row of the file published (a QIF's opening balance) run in it. */
  last: boolean;
  /**
   * Runs `step` after the previous chunk's ordered step, for work that must follow file order (claiming
   * duplicates) while chunks of one publish run concurrently. Call it at most once per chunk.
   */
  inOrder<T>(step: () => Promise<T>): Promise<T>;
  /**
   * Resolves once the chunks before this one have committed, so that this chunk's next statements see their rows
   * (chunks of one publish may run concurrently); throws, rolling this chunk back, when one did not commit.
   */
  earlierCommitted(): Promise<void>;
}

/**
 * Publishes one chunk inside the chunk's transaction; must be set-based (a few statements per chunk). A publisher
 * reads the chunk's rows where it needs them: in SQL, or in Node through `withRows`.
 */
export type ChunkPublisher = (tx: Transaction, chunk: ImportChunk, ctx: PublishContext) => Promise<void>;

/** Publishes rows already read into Node. */
export type RowsPublisher = (tx: Transaction, rows: ImportRowRecord[], ctx: PublishContext) => Promise<void>;

/** IN_CHUNK's parameters $1-$4 for the chunk's rows; with `rowKind`, only the statement rows of that kind. */
export const chunkBounds = (ctx: PublishContext, chunk: ImportChunk, rowKind: string | null): unknown[] => [ctx.imp.id, chunk.after, chunk.through, rowKind];

/** The chunk's rows in order; with `rowKind`, only the statement rows of that kind. */
export function chunkRows(tx: Transaction, ctx: PublishContext, chunk: ImportChunk, rowKind: string | null = null): Promise<ImportRowRecord[]> {
  return ctx.publishing.chunkRows(chunkBounds(ctx, chunk, rowKind), tx);
}

/** A chunk publisher that reads the chunk's rows into Node and hands them to `publish`. */
export const withRows =
  (publish: RowsPublisher): ChunkPublisher =>
  async (tx, chunk, ctx) =>
    publish(tx, await chunkRows(tx, ctx, chunk), ctx);

export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
export const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim()) : []);

/**
 * The candidates the rows claim, from candidates of rows in file order, each row's entries oldest first: a row claims
 * its first entry not claimed already, by an earlier row or by this import before (loaded once per publish: a
 * resumed publish finds the claims of its committed chunks). The claims stay in memory for the chunks after.
 */
export async function claimDuplicates<C extends { rowNumber: number; entryId: string }>(tx: Transaction, ctx: PublishContext, candidates: C[]): Promise<C[]> {
  if (!ctx.claimed) {
    ctx.claimed = new Set(await ctx.ledger.entries.claimedBy(ctx.imp.id, tx));
  }
  const claims: C[] = [];
  for (const candidate of candidates) {
    if (ctx.claimed.has(candidate.entryId) || claims.at(-1)?.rowNumber === candidate.rowNumber) continue;
    ctx.claimed.add(candidate.entryId);
    claims.push(candidate);
  }
  return claims;
}
