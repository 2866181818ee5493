import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { FamilyScope } from '../common/family-scope';
import type { PageWindow } from '../common/paging';
import { ADVISORY_LOCKS } from '../database/advisory-locks';
import { managerOf, Transaction } from '../database/transactions';

/** Tags and family merchants: the household's free-form labels on transactions, edited alike. */
export type LabelKind = 'tag' | 'merchant';

/** A tag or merchant as the API shows it. */
export interface LabelRecord {
  id: string;
  name: string;
  color: string | null;
  /** Up to LABEL_USES_CAP + 1: more than the cap means "more than the cap". */
  transactionsCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Transactions are counted up to this many per label, as categories count theirs, so a list costs the same at any ledger size. */
export const LABEL_USES_CAP = 1000;

/**
 * Each kind's table, which of its rows are the family's ($1), and its transactions as a subquery over the label `l`.
 * Merchants of type ProviderMerchant are shared by every family and are not the household's to rename or merge.
 */
const KINDS: Record<LabelKind, { table: string; own: (alias: string) => string; uses: (label: string) => string }> = {
  tag: { table: 'tags', own: (l) => `${l}.family_id = $1`, uses: (label) => `SELECT 1 FROM taggings g WHERE g.tag_id = ${label}` },
  merchant: { table: 'merchants', own: (l) => `${l}.family_id = $1 AND ${l}.type = 'FamilyMerchant'`, uses: (label) => `SELECT 1 FROM transactions t WHERE t.merchant_id = ${label}` },
};

const DETAILS = (kind: LabelKind, condition: string, tail = '') => `
  SELECT l.id, l.name, l.color, used.n AS "transactionsCount", l.created_at AS "createdAt", l.updated_at AS "updatedAt"
    FROM (SELECT l.* FROM ${KINDS[kind].table} l WHERE ${KINDS[kind].own('l')} ${condition} ORDER BY l.name, l.id ${tail}) l
    CROSS JOIN LATERAL (SELECT count(*)::int AS n FROM (${KINDS[kind].uses('l.id')} LIMIT ${LABEL_USES_CAP + 1}) x) used
   ORDER BY l.name, l.id`;

/** The statements on a family's tags and merchants as the household edits them (imports write them through TaxonomyRepository). */
@Injectable()
export class LabelsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Serialises the change with imports creating the family's tags and merchants, so that a name checked free stays free. */
  async lock(scope: FamilyScope, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [ADVISORY_LOCKS.familyMappings, scope.familyId]);
  }

  async count(kind: LabelKind, scope: FamilyScope): Promise<number> {
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM ${KINDS[kind].table} l WHERE ${KINDS[kind].own('l')}`, [scope.familyId]);
    return row.n;
  }

  /** By name, one page. */
  list(kind: LabelKind, scope: FamilyScope, page: PageWindow): Promise<LabelRecord[]> {
    return this.dataSource.query(DETAILS(kind, '', 'LIMIT $2 OFFSET $3'), [scope.familyId, page.limit, page.offset]);
  }

  async find(kind: LabelKind, scope: FamilyScope, id: string, tx?: Transaction): Promise<LabelRecord | undefined> {
    const rows: LabelRecord[] = await managerOf(tx, this.dataSource).query(DETAILS(kind, 'AND l.id = $2'), [scope.familyId, id]);
    return rows[0];
  }

  /** Another label of the family (not `exceptId`) with this name, if any. */
  async named(kind: LabelKind, scope: FamilyScope, name: string, exceptId: string, tx: Transaction): Promise<{ id: string } | undefined> {
    const rows = await managerOf(tx, this.dataSource).query(
      `SELECT l.id FROM ${KINDS[kind].table} l WHERE ${KINDS[kind].own('l')} AND l.name = $2 AND l.id <> $3 LIMIT 1`,
      [scope.familyId, name, exceptId],
    );
    return rows[0];
  }

  async rename(kind: LabelKind, scope: FamilyScope, id: string, name: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`UPDATE ${KINDS[kind].table} l SET name = $3, updated_at = now() WHERE ${KINDS[kind].own('l')} AND l.id = $2`, [scope.familyId, id, name]);
  }

  /**
   * Moves the family's transactions labelled `from` onto `to` and returns how many: a transaction tagged with both
   * keeps one tagging of `to`, not two.
   */
  async moveTransactions(kind: LabelKind, scope: FamilyScope, from: string, to: string, tx: Transaction): Promise<number> {
    const statement =
      kind === 'tag'
        ? `WITH moved AS (
             INSERT INTO taggings (tag_id, entry_id, created_at)
             SELECT $3, g.entry_id, g.created_at FROM taggings g JOIN entries e ON e.id = g.entry_id AND e.family_id = $1 WHERE g.tag_id = $2
             ON CONFLICT DO NOTHING RETURNING 1)
           SELECT (SELECT count(*)::int FROM taggings g WHERE g.tag_id = $2) AS n, (SELECT count(*) FROM moved) AS inserted`
        : `WITH moved AS (
             UPDATE transactions t SET merchant_id = $3, updated_at = now() FROM entries e
              WHERE t.merchant_id = $2 AND e.id = t.entry_id AND e.family_id = $1
             RETURNING 1)
           SELECT count(*)::int AS n FROM moved`;
    const [{ n }] = await managerOf(tx, this.dataSource).query(statement, [scope.familyId, from, to]);
    return n;
  }

  /** Deletes the label: its taggings go with it (ON DELETE CASCADE), and transactions lose the merchant (SET NULL). Returns how many transactions carried it. */
  async remove(kind: LabelKind, scope: FamilyScope, id: string, tx: Transaction): Promise<number> {
    const manager = managerOf(tx, this.dataSource);
    const [{ n }] = await manager.query(`SELECT count(*)::int AS n FROM (${KINDS[kind].uses('$1::uuid')}) x`, [id]);
    await manager.query(`DELETE FROM ${KINDS[kind].table} l WHERE ${KINDS[kind].own('l')} AND l.id = $2`, [scope.familyId, id]);
    return n;
  }
}
