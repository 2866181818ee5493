import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realworldDir } from '../../../../tools/test-support/realworld';
import { decodeBytes, sumOf } from './cells';
import { CsvImportSettings, parseImportContent } from './csv-import';

// Genuine exports of other apps (issue 32), checked against the figures of ../shared/realworld/expected.json. They are
// not part of the repository: the suite is skipped where they are absent (REALWORLD_DIR names another place).
const dir = realworldDir() ?? '';
const present = dir !== '';

interface Expected {
  file: string;
  request: Record<string, unknown>;
  account: { currency: string } | null;
  expect: { rows: number; valid_rows: number; transactions: { count: number; sum_milli: number } };
}

const settingsOf = (request: Record<string, unknown>): CsvImportSettings => ({
  type: request.type as CsvImportSettings['type'],
  colSep: ',',
  dateColLabel: null,
  amountColLabel: null,
  nameColLabel: (request.name_col_label as string) ?? null,
  categoryColLabel: (request.category_col_label as string) ?? null,
  tagsColLabel: null,
  notesColLabel: (request.notes_col_label as string) ?? null,
  accountColLabel: (request.account_col_label as string) ?? null,
  qtyColLabel: null,
  tickerColLabel: null,
  priceColLabel: null,
  entityTypeColLabel: (request.entity_type_col_label as string) ?? null,
  currencyColLabel: null,
  exchangeOperatingMicColLabel: null,
  dateFormat: (request.date_format as string) ?? '%Y-%m-%d',
  numberFormat: '1,234.56',
  signageConvention: 'inflows_positive',
  amountTypeStrategy: (request.amount_type_strategy as string) ?? 'signed_amount',
  amountTypeInflowValue: (request.amount_type_inflow_value as string) ?? null,
});

(present ? describe : describe.skip)('genuine exports with right-to-left amounts, repeated and short columns', () => {
  const expected: Expected[] = present ? JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')).files : [];
  it.each(['ynab/hledger-ynab4-rtl.csv', 'bank-csv/monefy.csv', 'bank-csv/swedbank-lt-statement.xls'])('reads %s as expected.json says', (file) => {
    const entry = expected.find((e) => e.file === file)!;
    const decoded = decodeBytes(readFileSync(join(dir, file)));
    if (!('text' in decoded)) throw new Error(decoded.error.message);
    const { rows, fileErrors } = parseImportContent(settingsOf(entry.request), decoded.text, {
      maxRows: 10_000,
      defaultCurrency: entry.account?.currency ?? 'USD',
      hasAccount: entry.account !== null,
      today: new Date('2026-11-22T12:00:00Z'),
      skipRows: new Set((entry.request.skip_rows as number[] | undefined) ?? []),
    });
    expect(fileErrors).toEqual([]);
    const valid = rows.filter((r) => r.errors.length === 0);
    expect([rows.length, valid.length]).toEqual([entry.expect.rows, entry.expect.valid_rows]);
    // Ours are positive for money out; expected.json's sums are signed the other way, in thousandths.
    const milli = Math.round(Number(sumOf(valid.map((r) => r.values.amount as string))) * 1000);
    expect(-milli).toBe(entry.expect.transactions.sum_milli);
  });
});
