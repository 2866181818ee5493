import type { DataSource, EntityManager } from 'typeorm';
import { emptyRecordCounts } from '@hearth/domain/import-formats';
import type { Import } from './import.entity';

// ServiceImport verification (docs/api/service-ndjson.md#verification): counts of the family's records read back from
// the database before and after publishing, compared with the counts the NDJSON announced at upload.

type Counts = Record<string, number>;

/**
 * The family's totals per entity key, in one family-scoped statement. Transactions are top-level ones: split lines
 * are part of their NDJSON line, not records of their own. Hearth keeps no balances, holdings, recurring
 * transactions or rejected transfers, so those keys read 0 (a file with such records shows as a mismatch).
 */
export async function familyRecordCounts(manager: EntityManager | DataSource, familyId: string): Promise<Counts> {
  const [row] = await manager.query(
    `SELECT (SELECT count(*) FROM accounts WHERE family_id = $1)::int AS accounts,
            (SELECT count(*) FROM categories WHERE family_id = $1)::int AS categories,
            (SELECT count(*) FROM tags WHERE family_id = $1)::int AS tags,
            (SELECT count(*) FROM merchants WHERE family_id = $1 AND type = 'FamilyMerchant')::int AS merchants,
            (SELECT count(*) FROM entries WHERE family_id = $1 AND entryable_type = 'Transaction' AND parent_entry_id IS NULL)::int AS transactions,
            (SELECT count(*) FROM transfers WHERE family_id = $1)::int AS transfers,
            (SELECT count(*) FROM entries WHERE family_id = $1 AND entryable_type = 'Trade')::int AS trades,
            (SELECT count(*) FROM entries WHERE family_id = $1 AND entryable_type = 'Valuation')::int AS valuations,
            (SELECT count(*) FROM budgets WHERE family_id = $1)::int AS budgets,
            (SELECT count(*) FROM budget_categories bc JOIN budgets b ON b.id = bc.budget_id WHERE b.family_id = $1)::int AS budget_categories,
            (SELECT count(*) FROM rules WHERE family_id = $1)::int AS rules`,
    [familyId],
  );
  return { ...emptyRecordCounts(), ...row };
}

async function readback(manager: EntityManager | DataSource, importId: string): Promise<{ readback: Record<string, unknown>; publishedThroughRow: number }> {
  const [row] = await manager.query(`SELECT readback_verification AS readback, published_through_row AS p FROM imports WHERE id = $1`, [importId]);
  return { readback: row?.readback ?? {}, publishedThroughRow: Number(row?.p ?? 0) };
}

const save = (manager: EntityManager | DataSource, importId: string, value: Record<string, unknown>) =>
  manager.query(`UPDATE imports SET readback_verification = $2 WHERE id = $1`, [importId, JSON.stringify(value)]);

/**
 * Before the first chunk: records the family's counts. A resumed publish (chunks already committed) keeps the
 * counts of its first attempt, so the delta still covers everything this import wrote.
 */
export async function beginServiceImportReadback(dataSource: DataSource, imp: Import): Promise<void> {
  const current = await readback(dataSource, imp.id);
  if (current.publishedThroughRow > 0 && current.readback.before_counts) return;
  await save(dataSource, imp.id, { status: 'not_verified', checked_at: null, before_counts: await familyRecordCounts(dataSource, imp.familyId) });
}

/** Compares expected with after - before for every key; `matched` only when all agree. A mismatch does not fail the import. */
export function compareCounts(expected: Counts, before: Counts, after: Counts) {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(after)])].sort();
  const delta: Counts = {};
  const checked: Counts = {};
  const mismatches: Record<string, { expected: number; actual: number }> = {};
  for (const key of keys) {
    delta[key] = (after[key] ?? 0) - (before[key] ?? 0);
    checked[key] = expected[key] ?? 0;
    if (delta[key] !== checked[key]) mismatches[key] = { expected: checked[key], actual: delta[key] };
  }
  return { actual_delta_counts: delta, checked_counts: checked, mismatches };
}

/** After the last chunk (or a failure): the readback with before/after/delta/checked counts and any mismatches. */
export async function finishServiceImportReadback(dataSource: DataSource, imp: Import, error: string | null = null): Promise<void> {
  const { readback: current } = await readback(dataSource, imp.id);
  const [{ expected }] = await dataSource.query(`SELECT expected_record_counts AS expected FROM imports WHERE id = $1`, [imp.id]);
  const before = (current.before_counts as Counts | undefined) ?? emptyRecordCounts();
  const after = await familyRecordCounts(dataSource, imp.familyId);
  const comparison = compareCounts(expected, before, after);
  const status = error ? 'failed' : Object.keys(comparison.mismatches).length ? 'mismatch' : 'matched';
  await save(dataSource, imp.id, {
    status,
    checked_at: new Date().toISOString(),
    expected_record_counts: expected,
    before_counts: before,
    after_counts: after,
    ...comparison,
    ...(error ? { error } : {}),
  });
}

/** Inside the revert transaction: the readback becomes just `reverted`. */
export async function markServiceImportReverted(tx: EntityManager, importId: string): Promise<void> {
  await save(tx, importId, { status: 'reverted', checked_at: new Date().toISOString() });
}
