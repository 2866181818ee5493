import type { EntityManager } from 'typeorm';
import type { AccountableType } from '@hearth/contracts';
import type { Import } from '../import.entity';

/** What every chunk of one publish needs: the family's currency and the mapped record ids by row value. */
export interface PublishContext {
  imp: Import;
  familyCurrency: string;
  accounts: Map<string, string>;
  categories: Map<string, string>;
  tags: Map<string, string>;
  accountTypes: Map<string, AccountableType>;
  /** Per account, the span of its transactions from before this import, loaded when a chunk first names it. */
  priorSpans: Map<string, PriorSpan | null>;
}

/** The earliest and latest date (YYYY-MM-DD) of an account's transactions that an import row could duplicate. */
export interface PriorSpan {
  first: string;
  last: string;
}

export interface ImportRowRecord {
  sourceRowNumber: number;
  values: Record<string, unknown>;
}

/** Publishes one chunk of rows inside the chunk's transaction; must be set-based (a few statements per chunk). */
export type ChunkPublisher = (tx: EntityManager, rows: ImportRowRecord[], ctx: PublishContext) => Promise<void>;

export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
export const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim()) : []);
