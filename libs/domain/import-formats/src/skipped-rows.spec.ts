import type { ParsedRow } from './csv-import';
import { parseQif } from './qif';
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
    const message = (n: number) => `Row ${n}: it is one of rows 2-4, which publish together (a split, or one record of several rows): skip them all, or include them again`;
    expect(leaveOutRows(file(), new Set([3])).map((r) => [r.sourceRowNumber, r.errors])).toEqual([[1, []], [2, [message(2)]], [4, [message(4)]], [5, []]]);
    expect(leaveOutRows(file(), new Set([2])).map((r) => [r.sourceRowNumber, r.errors])).toEqual([[1, []], [3, [message(3)]], [4, [message(4)]], [5, []]]);
  });

  it('keeps together the rows one QIF investment record becomes: a reinvestment is its buy and the income that paid for it', () => {
    const qif = '!Type:Invst\nD01/02/2024\nNReinvDiv\nYVTI\nI200\nQ0.5\nT100.00\n^\nD01/03/2024\nNBuy\nYVTI\nI200\nQ1\nT200.00\n^\n';
    const { rows } = parseQif(qif, { maxRows: 1000, defaultCurrency: 'USD', today: new Date('2026-11-22T12:00:00Z') });
    expect(rows.map((r) => r.values.row_kind)).toEqual(['trade', 'transaction', 'trade']);
    expect(leaveOutRows(rows, new Set([2])).map((r) => [r.sourceRowNumber, r.errors])).toEqual([
      [1, ['Row 1: it is one of rows 1-2, which publish together (a split, or one record of several rows): skip them all, or include them again']],
      [3, []],
    ]);
    expect(leaveOutRows(rows, new Set([1, 2])).map((r) => [r.sourceRowNumber, r.errors])).toEqual([[3, []]]);
  });
});
