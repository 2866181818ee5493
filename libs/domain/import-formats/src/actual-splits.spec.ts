import { actualSplitMarker } from './actual-splits';
import { CsvImportSettings, parseImportContent, ParseOptions } from './csv-import';

const actual: CsvImportSettings = {
  type: 'ActualImport', colSep: ',', dateColLabel: 'Date', amountColLabel: 'Amount', nameColLabel: 'Payee', categoryColLabel: 'Category',
  tagsColLabel: null, notesColLabel: 'Notes', accountColLabel: 'Account', qtyColLabel: null, tickerColLabel: null, priceColLabel: null,
  entityTypeColLabel: null, currencyColLabel: null, exchangeOperatingMicColLabel: null, dateFormat: '%Y-%m-%d', numberFormat: '1,234.56',
  signageConvention: 'inflows_positive', amountTypeStrategy: 'signed_amount', amountTypeInflowValue: null,
};
const options: ParseOptions = { maxRows: 1000, defaultCurrency: 'USD', hasAccount: false, today: new Date('2026-11-22T12:00:00Z') };
const parse = (...rows: string[]) => parseImportContent(actual, ['Account,Date,Payee,Notes,Category,Amount,Split_Amount,Cleared', ...rows].join('\n'), options).rows;

describe('actualSplitMarker', () => {
  it('reads a parent or part prefix and returns the notes without it', () => {
    expect(actualSplitMarker('(SPLIT INTO 2) weekly shop')).toEqual({ marker: { into: 2 }, notes: 'weekly shop' });
    expect(actualSplitMarker('(SPLIT 2 OF 3) soap')).toEqual({ marker: { part: 2, of: 3 }, notes: 'soap' });
    expect(actualSplitMarker('(SPLIT 1 OF 2)')).toEqual({ marker: { part: 1, of: 2 }, notes: null });
    expect(actualSplitMarker('paid (SPLIT INTO 2)')).toEqual({ marker: null, notes: 'paid (SPLIT INTO 2)' });
    expect(actualSplitMarker('')).toEqual({ marker: null, notes: null });
  });
});

describe('parseImportContent: Actual splits', () => {
  it('gives the parent its signed Split_Amount and split_count, and each part split_of, without markers in the notes', () => {
    const rows = parse(
      'Checking,2024-03-05,Costco,(SPLIT INTO 2) weekly shop,,0,-100.00,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 1 OF 2) food,Food: Groceries,-70.00,0,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 2 OF 2) ,Home: Supplies,-30.00,0,Cleared',
      'Checking,2024-03-06,Cafe,,Food: Coffee,-4.50,0,Cleared',
    );
    expect(rows.map((r) => r.errors)).toEqual([[], [], [], []]);
    expect(rows.map((r) => r.values)).toEqual([
      expect.objectContaining({ amount: '100.00', name: 'Costco', notes: 'weekly shop', category: null, split_count: 2 }),
      expect.objectContaining({ amount: '70.00', notes: 'food', category: 'Food: Groceries', split_of: 1 }),
      expect.objectContaining({ amount: '30.00', notes: null, category: 'Home: Supplies', split_of: 1 }),
      { date: '2024-03-06', amount: '4.50', currency: null, name: 'Cafe', category: 'Food: Coffee', tags: [], notes: null, account: 'Checking' },
    ]);
    expect(rows.map((r) => r.sourceRowNumber)).toEqual([1, 2, 3, 4]);
  });

  it('refuses parts that do not add up to the total, naming the parent row', () => {
    const rows = parse(
      'Checking,2024-03-05,Costco,(SPLIT INTO 2),,0,-100.00,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 1 OF 2),Food,-70.00,0,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 2 OF 2),Home,-20.00,0,Cleared',
    );
    expect(rows.map((r) => r.errors)).toEqual([["Row 1: its split rows add up to 90.00, not to the split's total 100.00"], [], []]);
  });

  it('accepts the same total written with other decimals', () => {
    const rows = parse('Checking,2024-03-05,Costco,(SPLIT INTO 2),,0,-100,Cleared', 'Checking,2024-03-05,Costco,(SPLIT 1 OF 2),Food,-70.5,0,Cleared', 'Checking,2024-03-05,Costco,(SPLIT 2 OF 2),Home,-29.50,0,Cleared');
    expect(rows.flatMap((r) => r.errors)).toEqual([]);
  });

  it('refuses a parent followed by fewer or more parts than it says', () => {
    const rows = parse(
      'Checking,2024-03-05,Costco,(SPLIT INTO 3),,0,-100.00,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 1 OF 3),Food,-70.00,0,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 2 OF 3),Home,-30.00,0,Cleared',
      'Checking,2024-03-06,Cafe,,Food,-4.50,0,Cleared',
      'Checking,2024-03-07,Shop,(SPLIT INTO 1),,0,-10.00,Cleared',
      'Checking,2024-03-07,Shop,(SPLIT 1 OF 1),Food,-10.00,0,Cleared',
      'Checking,2024-03-07,Shop,(SPLIT 2 OF 1),Food,-10.00,0,Cleared',
    );
    expect(rows.map((r) => r.errors)).toEqual([
      ['Row 1: a split into 3 must be followed by its 3 split rows; 2 follow it'], [], [], [], [], [],
      ['Row 7: split row 2 of 1 must follow split row 1 of 1 of the same account and date'],
    ]);
  });

  it('refuses parts without their parent, out of order, or on another account or date', () => {
    const rows = parse(
      'Checking,2024-03-05,Costco,(SPLIT 1 OF 2),Food,-70.00,0,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT INTO 2),,0,-100.00,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT 2 OF 2),Home,-30.00,0,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT INTO 2),,0,-100.00,Cleared',
      'Savings,2024-03-05,Costco,(SPLIT 1 OF 2),Home,-30.00,0,Cleared',
    );
    expect(rows.map((r) => r.errors)).toEqual([
      ['Row 1: split row 1 of 2 must follow a (SPLIT INTO 2) row of the same account and date'],
      ['Row 2: a split into 2 must be followed by its 2 split rows; 0 follow it'],
      ['Row 3: split row 2 of 2 must follow split row 1 of 2 of the same account and date'],
      ['Row 4: a split into 2 must be followed by its 2 split rows; 0 follow it'],
      ['Row 5: split row 1 of 2 must follow a (SPLIT INTO 2) row of the same account and date'],
    ]);
  });

  it('names a split without a payee after its notes without the marker', () => {
    const rows = parse('Checking,2024-03-05,,(SPLIT INTO 1) cash out,,0,-70.00,Cleared', 'Checking,2024-03-05,,(SPLIT 1 OF 1) lunch,Food,-70.00,0,Cleared');
    expect(rows.map((r) => [r.values.name, r.values.notes])).toEqual([['cash out', 'cash out'], ['lunch', 'lunch']]);
  });

  it('requires the parent total in Split_Amount', () => {
    const rows = parse('Checking,2024-03-05,Costco,(SPLIT INTO 1),,0,,Cleared', 'Checking,2024-03-05,Costco,(SPLIT 1 OF 1),Food,-70.00,0,Cleared');
    expect(rows[0].errors).toEqual(['Row 1: Split_Amount is required']);
  });

  it('reads the Category_Group layout', () => {
    const csv = ['Account,Date,Payee,Notes,Category_Group,Category,Amount,Split_Amount,Cleared',
      'Checking,2024-03-05,Costco,(SPLIT INTO 1),,,0,-70.00,Cleared', 'Checking,2024-03-05,Costco,(SPLIT 1 OF 1),Food,Groceries,-70.00,0,Cleared'].join('\n');
    const rows = parseImportContent(actual, csv, options).rows;
    expect(rows.map((r) => [r.errors, r.values.category, r.values.amount])).toEqual([[[], null, '70.00'], [[], 'Food: Groceries', '70.00']]);
  });
});

describe('parseImportContent: Actual splits with rows skipped (skip_rows)', () => {
  const csv = (...rows: string[]) => ['Account,Date,Payee,Notes,Category,Amount,Split_Amount,Cleared', ...rows].join('\n');
  const SPLIT = [
    'Checking,2024-03-05,Costco,(SPLIT INTO 3),,0,-100.00,Cleared',
    'Checking,2024-03-05,Costco,(SPLIT 1 OF 3),Food,-50.00,0,Cleared',
    'Checking,2024-03-05,Costco,(SPLIT 2 OF 3),Home,-30.00,0,Cleared',
    'Checking,2024-03-05,Costco,(SPLIT 3 OF 3),Fun,-20.00,0,Cleared',
    'Checking,2024-03-06,Cafe,,Food,-4.50,0,Cleared',
  ];
  const skipping = (...skip: number[]) => parseImportContent(actual, csv(...SPLIT), { ...options, skipRows: new Set(skip) });

  it('leaves a split without a part invalid, naming the skipped row on the parent and on the part after it', () => {
    const { rows, sourceRows } = skipping(3);
    expect(sourceRows).toBe(5);
    expect(rows.map((r) => [r.sourceRowNumber, r.errors])).toEqual([
      [1, ['Row 1: a split into 3 must be followed by its 3 split rows; 1 follow it (row 3 is skipped: skip the whole split, or include it again)']],
      [2, []],
      [4, ['Row 4: split row 3 of 3 must follow split row 2 of 3 of the same account and date (row 3 is skipped: skip the whole split, or include it again)']],
      [5, []],
    ]);
  });

  it('leaves the parts of a skipped parent invalid, and its last part missing from the parent', () => {
    expect(skipping(1).rows.map((r) => r.errors[0] ?? null)).toEqual([
      'Row 2: split row 1 of 3 must follow a (SPLIT INTO 3) row of the same account and date (row 1 is skipped: skip the whole split, or include it again)',
      'Row 3: split row 2 of 3 must follow split row 1 of 3 of the same account and date',
      'Row 4: split row 3 of 3 must follow split row 2 of 3 of the same account and date',
      null,
    ]);
    expect(skipping(4).rows[0].errors).toEqual([
      'Row 1: a split into 3 must be followed by its 3 split rows; 2 follow it (row 4 is skipped: skip the whole split, or include it again)',
    ]);
  });

  it('skips a whole split, or a row beside it, leaving the rest valid and numbered as in the file', () => {
    expect(skipping(1, 2, 3, 4).rows.map((r) => [r.sourceRowNumber, r.errors])).toEqual([[5, []]]);
    const beside = skipping(5).rows;
    expect(beside.map((r) => [r.sourceRowNumber, r.errors, r.values.split_of ?? r.values.split_count])).toEqual([
      [1, [], 3], [2, [], 1], [3, [], 1], [4, [], 1],
    ]);
  });
});
