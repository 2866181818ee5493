import { Injectable } from '@nestjs/common';
import { emptyRecordCounts } from '@hearth/domain/import-formats';
import type { Transaction } from '../database/transactions';
import type { Import } from './import.entity';
import { RecordCounts, ServiceImportRepository } from './service-import.repository';

// ServiceImport verification (docs/api/service-ndjson.md#verification): counts of the family's records read back from
// the database before and after publishing, compared with the counts the NDJSON announced at upload.

type Counts = RecordCounts;

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

/** The readback of a ServiceImport's publish and revert, kept in imports.readback_verification. */
@Injectable()
export class ServiceImportVerification {
  constructor(private readonly serviceImports: ServiceImportRepository) {}

  /**
   * Before the first chunk: records the family's counts. A resumed publish (chunks already committed) keeps the
   * counts of its first attempt, so the delta still covers everything this import wrote.
   */
  async begin(imp: Import): Promise<void> {
    const current = await this.serviceImports.readback(imp.familyId, imp.id);
    if (current.publishedThroughRow > 0 && current.readback.before_counts) return;
    await this.serviceImports.saveReadback(imp.familyId, imp.id, {
      status: 'not_verified',
      checked_at: null,
      before_counts: await this.serviceImports.familyRecordCounts(imp.familyId),
    });
  }

  /** After the last chunk (or a failure): the readback with before/after/delta/checked counts and any mismatches. */
  async finish(imp: Import, error: string | null = null): Promise<void> {
    const { readback: current } = await this.serviceImports.readback(imp.familyId, imp.id);
    const expected = await this.serviceImports.expectedRecordCounts(imp.familyId, imp.id);
    const before = (current.before_counts as Counts | undefined) ?? emptyRecordCounts();
    const after = await this.serviceImports.familyRecordCounts(imp.familyId);
    const comparison = compareCounts(expected, before, after);
    const status = error ? 'failed' : Object.keys(comparison.mismatches).length ? 'mismatch' : 'matched';
    await this.serviceImports.saveReadback(imp.familyId, imp.id, {
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
  markReverted(tx: Transaction, importId: string): Promise<void> {
    return this.serviceImports.saveRevertedReadback(importId, { status: 'reverted', checked_at: new Date().toISOString() }, tx);
  }
}
