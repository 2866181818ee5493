import type { ParsedRow } from './csv-import';
import { leaveOutRows } from './skipped-rows';

const row = (n: number, values: Record<string, unknown> = {}): ParsedRow => ({ sourceRowNumber: n, errors: [], values });

describe('leaveOutRows', () => {
  // Row 2 is a split of 100 into rows 3 and 4.
  const file = () => [row(1), row(2, { split_count: 2 }), row(3, { split_of: 2 }), row(4, { split_of: 2 }), row(5)];

  it('drops the skipped rows and keeps the others as they were', () => {
    expect(leaveOutRows(file(), new Set([1, 5]))).toEqual([row(2, { split_count: 2 }), row(3, { split_of: 2 }), row(4, { split_of: 2 })]);
    expect(leaveOutRows(file(), new Set())).toEqual(file());
  });

  it('skips a whole split when its rows are all skipped', () => {
    expect(leaveOutRows(file(), new Set([2, 3, 4])).map((r) => r.sourceRowNumber)).toEqual([1, 5]);
  });

  it("refuses, on each row left of it, a split missing a skipped part or total: it would publish parts that don't add up", () => {
    const message = (n: number) => `Row ${n}: its split (rows 2-4) has skipped rows: skip the whole split, or include them again`;
    expect(leaveOutRows(file(), new Set([3])).map((r) => [r.sourceRowNumber, r.errors])).toEqual([[1, []], [2, [message(2)]], [4, [message(4)]], [5, []]]);
    expect(leaveOutRows(file(), new Set([2])).map((r) => [r.sourceRowNumber, r.errors])).toEqual([[1, []], [3, [message(3)]], [4, [message(4)]], [5, []]]);
  });
});
