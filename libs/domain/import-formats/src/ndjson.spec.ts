import {
  decimalText,
  ExistingFamilyNames,
  hasValidFirstLine,
  isIsoDate,
  minorUnitsText,
  parseServiceNdjson,
  planServiceImport,
  preflightErrorText,
  preflightServiceNdjson,
  ruleOperandTable,
  serviceRowLines,
  withoutLines,
} from './ndjson';

const line = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data });
const none = (): ExistingFamilyNames => ({ categories: new Set(), tags: new Set(), merchants: new Set(), budgetPeriods: new Set() });
const preflight = (text: string, existing = none()) => preflightServiceNdjson(parseServiceNdjson(text), existing, { familyCurrency: 'USD' });
const codes = (text: string, existing = none()) => preflight(text, existing).errors.map((e) => e.code);

// A small household: an account with its opening balance, one category, tag and merchant, two transactions, a budget.
const SAMPLE = [
  line('Account', { id: 'acc-1', name: 'Everyday Checking', balance: '2500.00', currency: 'EUR', accountable_type: 'Depository', accountable: { subtype: 'checking' } }),
  line('Valuation', { id: 'val-1', account_id: 'acc-1', date: '2024-12-31', amount: '2000.00', currency: 'EUR', kind: 'opening_anchor' }),
  line('Category', { id: 'cat-1', name: 'Utilities', color: '#6471eb', lucide_icon: 'plug' }),
  line('Tag', { id: 'tag-1', name: 'Monthly', color: '#4da568' }),
  line('Merchant', { id: 'mer-1', name: 'City Power' }),
  line('Transaction', { id: 'txn-1', account_id: 'acc-1', date: '2025-01-05', amount: '84.20', currency: 'EUR', name: 'Electricity January', category_id: 'cat-1', merchant_id: 'mer-1', tag_ids: ['tag-1'] }),
  line('Transaction', { id: 'txn-2', account_id: 'acc-1', date: '2025-01-10', amount: '-1500.00', currency: 'EUR', name: 'Salary' }),
  line('Budget', { id: 'bud-1', start_date: '2025-01-01', end_date: '2025-01-31', budgeted_spending: '1200', expected_income: '1500', currency: 'EUR' }),
  line('BudgetCategory', { budget_id: 'bud-1', category_id: 'cat-1', budgeted_spending: '150', currency: 'EUR' }),
].join('\n');

describe('parseServiceNdjson', () => {
  it('counts the reference sample per entity key, all 15 keys present', () => {
    const parsed = parseServiceNdjson(SAMPLE);
    expect(parsed.rowsCount).toBe(9);
    expect(parsed.issues).toEqual([]);
    expect(parsed.expectedRecordCounts).toEqual({
      accounts: 1, balances: 0, categories: 1, tags: 1, merchants: 1, recurring_transactions: 0, transactions: 2, transfers: 0,
      rejected_transfers: 0, trades: 0, holdings: 0, valuations: 1, budgets: 1, budget_categories: 1, rules: 0,
    });
  });

  it('ignores blank lines, CRLF endings and a trailing newline; numbers lines as in the file', () => {
    const parsed = parseServiceNdjson(`\r\n${line('Tag', { id: 't', name: 'x' })}\r\n\r\n${line('Tag', { id: 'u', name: 'y' })}\r\n`);
    expect(parsed.lines.map((l) => l.line)).toEqual([2, 4]);
    expect(parsed.issues).toEqual([]);
  });

  it('reports invalid JSON, non-objects and records without type or data with their line numbers', () => {
    const text = ['[]', '42', '"x"', 'null', '{"type":"Account"}', '{"type":"","data":{}}', '{"type":"Account",', '{"type":"Tag","data":[]}'].join('\n');
    const { issues } = parseServiceNdjson(text);
    expect(issues.map((i) => [i.line, i.code])).toEqual([
      [1, 'invalid_ndjson_record'],
      [2, 'invalid_ndjson_record'],
      [3, 'invalid_ndjson_record'],
      [4, 'invalid_ndjson_record'],
      [5, 'invalid_ndjson_record'],
      [6, 'invalid_ndjson_record'],
      [7, 'invalid_json'],
      [8, 'invalid_ndjson_record'],
    ]);
    expect(issues[6].message).toMatch(/^Line 7 is not valid JSON/);
  });

  it('refuses unknown and wrongly cased types but still counts them as raw types', () => {
    const parsed = parseServiceNdjson([line('Kernel', {}), line('account', {})].join('\n'));
    expect(parsed.issues.map((i) => i.code)).toEqual(['unsupported_record_type', 'unsupported_record_type']);
    expect(parsed.recordTypeCounts).toEqual({ Kernel: 1, account: 1 });
    expect(parsed.expectedRecordCounts.accounts).toBe(0);
  });

  it('drops __proto__, constructor and prototype keys at every depth without touching Object.prototype', () => {
    const text = '{"type":"Account","data":{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"id":"a","accountable":{"__proto__":{"y":2}}}}';
    const [record] = parseServiceNdjson(text).lines;
    expect(Object.keys(record.data!)).toEqual(['id', 'accountable']);
    expect(Object.getPrototypeOf(record.data)).toBe(Object.prototype);
    expect(Object.keys(record.data!.accountable as object)).toEqual([]);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('refuses 100,000 levels of nesting without a RangeError, and a line over 1 MB', () => {
    const deep = `{"type":"Tag","data":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    const long = line('Tag', { id: 't', name: 'x', notes: 'y'.repeat(1024 * 1024) });
    const parsed = parseServiceNdjson([deep, long].join('\n'));
    expect(parsed.issues.map((i) => [i.line, i.code])).toEqual([[1, 'invalid_ndjson_record'], [2, 'line_too_large']]);
  });

  it('refuses NUL characters, which PostgreSQL text cannot hold', () => {
    expect(parseServiceNdjson(line('Tag', { id: 't', name: 'a\u0000b' })).issues[0].code).toBe('invalid_ndjson_record');
  });
});

describe('hasValidFirstLine', () => {
  it('needs an object with type and data on the first non-blank line', () => {
    expect(hasValidFirstLine(SAMPLE)).toBe(true);
    expect(hasValidFirstLine(`\n\n${SAMPLE}`)).toBe(true);
    expect(hasValidFirstLine('[]')).toBe(false);
    expect(hasValidFirstLine('{"type":"Account"}')).toBe(false);
    expect(hasValidFirstLine('{"type":"","data":{}}')).toBe(false);
    expect(hasValidFirstLine('not json')).toBe(false);
    expect(hasValidFirstLine('')).toBe(false);
  });
});

describe('preflightServiceNdjson', () => {
  it('passes the reference sample', () => {
    expect(preflight(SAMPLE)).toEqual({ valid: true, errors: [], warnings: [] });
  });

  it('reports no_data_rows for a blank file', () => {
    expect(codes('\n \n')).toEqual(['no_data_rows']);
  });

  it('requires fields and types them: ISO dates, plain decimals, ISO currencies', () => {
    const text = [
      line('Transaction', { id: 't1', account_id: 'a1' }),
      line('Account', { id: 'a1', name: 'A', balance: '1e3', accountable_type: 'Depository', currency: 'usd' }),
      line('Valuation', { account_id: 'a1', date: '2024-02-30', amount: 5 }),
    ].join('\n');
    const { errors } = preflight(text);
    expect(errors.map((e) => e.message)).toEqual([
      'Line 1 Transaction is missing required field(s): date, amount.',
      'Line 2 Account balance must be a decimal number, got "1e3".',
      'Line 2 Account currency must be an ISO 4217 currency code, got "usd".',
      'Line 3 Valuation date must be a date written YYYY-MM-DD, got "2024-02-30".',
    ]);
  });

  it('accepts "100", 100 and "-0" as amounts, refuses 1e400 (Infinity) and null where required', () => {
    const account = (balance: unknown) => line('Account', { id: `${typeof balance}${String(balance)}`, name: `A${typeof balance}${String(balance)}`, balance, accountable_type: 'Depository' });
    expect(codes([account('100'), account(100), account('-0')].join('\n'))).toEqual([]);
    const parsed = parseServiceNdjson('{"type":"Account","data":{"id":"x","name":"X","balance":1e400,"accountable_type":"Depository"}}');
    expect(preflightServiceNdjson(parsed, none(), { familyCurrency: 'USD' }).errors.map((e) => e.code)).toEqual(['invalid_amount']);
    expect(codes(account(null))).toEqual(['missing_required_fields']);
  });

  it('resolves references inside the file only, split lines and tag ids included', () => {
    const text = [
      line('Account', { id: 'a1', name: 'A', balance: '0', accountable_type: 'Depository' }),
      line('Transaction', { id: 't1', account_id: 'nope', date: '2024-01-01', amount: '1', tag_ids: ['ghost'] }),
      line('Transaction', { id: 't2', account_id: 'a1', date: '2024-01-01', amount: '3', split_lines: [{ id: 's1', amount: '1', category_id: 'c9' }, { id: 's2', amount: '2' }] }),
      line('Transfer', { inflow_transaction_id: 's1', outflow_transaction_id: 'missing' }),
      line('RejectedTransfer', { inflow_transaction_id: 't1', outflow_transaction_id: 'gone' }),
    ].join('\n');
    const result = preflight(text);
    expect(result.errors.map((e) => e.message)).toEqual([
      'Line 2 Transaction references missing account_id "nope".',
      'Line 2 Transaction references missing tag_ids "ghost".',
      'Line 3 Transaction split line 1 references missing category_id "c9".',
      'Line 4 Transfer references missing outflow_transaction_id "missing".',
    ]);
    expect(result.warnings.map((w) => w.code)).toEqual(['skipped_missing_reference']);
  });

  it('checks split sums exactly, in decimals', () => {
    const tx = (splits: unknown[]) =>
      [line('Account', { id: 'a', name: 'A', balance: '0', accountable_type: 'Depository' }), line('Transaction', { id: 't', account_id: 'a', date: '2024-01-01', amount: '100', split_lines: splits })].join('\n');
    expect(codes(tx([{ amount: '0.1' }, { amount: '99.9' }]))).toEqual([]);
    expect(preflight(tx([{ amount: '40' }, { amount: 50 }])).errors[0].message).toBe(
      'Line 2 Transaction split line amounts must sum to transaction amount 100 but sum to 90.',
    );
    expect(codes(tx([{ name: 'x' }]))).toEqual(['missing_required_fields']);
    expect(codes(tx(['x'] as unknown[]))).toEqual(['invalid_split_line']);
  });

  it('finds duplicate source ids, duplicate names and collisions with the family', () => {
    const text = [
      line('Tag', { id: 't1', name: 'Monthly' }),
      line('Tag', { id: 't1', name: 'Monthly' }),
      line('Category', { id: 'c1', name: 'Food' }),
      line('Budget', { id: 'b1', start_date: '2025-01-01', end_date: '2025-01-31' }),
    ].join('\n');
    const existing = { ...none(), categories: new Set(['Food']), budgetPeriods: new Set(['2025-01-01..2025-01-31']) };
    expect(preflight(text, existing).errors.map((e) => e.message)).toEqual([
      'tag source id "t1" appears more than once (Line 1 Tag, Line 2 Tag).',
      'Line 3 Category name "Food" already exists in this family.',
      'Tag name "Monthly" appears more than once in the NDJSON on lines 1, 2.',
      'Line 4 Budget for 2025-01-01..2025-01-31 already exists in this family.',
    ]);
  });

  it('refuses category cycles, bad accountable types and subtypes', () => {
    const text = [
      line('Category', { id: 'c1', name: 'A', parent_id: 'c2' }),
      line('Category', { id: 'c2', name: 'B', parent_id: 'c1' }),
      line('Account', { id: 'a', name: 'A', balance: '0', accountable_type: 'Kernel' }),
      line('Account', { id: 'b', name: 'B', balance: '0', accountable_type: 'Depository', accountable: { subtype: 'x' } }),
    ].join('\n');
    expect(codes(text)).toEqual(['invalid_accountable_type', 'invalid_accountable_subtype', 'invalid_category_parent', 'invalid_category_parent']);
  });

  it('refuses accountable types named like inherited object properties', () => {
    const text = ['constructor', 'toString', '__proto__']
      .map((type, i) => line('Account', { id: `a${i}`, name: `A${i}`, balance: '0', accountable_type: type, accountable: { subtype: 'checking' } }))
      .join('\n');
    expect(codes(text)).toEqual(['invalid_accountable_type', 'invalid_accountable_type', 'invalid_accountable_type']);
  });

  it("reads a trade's optional fee in the trade's currency: not negative, not finer than its minor unit", () => {
    const trade = (fee: unknown, extra: Record<string, unknown> = {}) =>
      line('Trade', { account_id: 'a', date: '2025-01-15', amount: '1000', qty: '1', price: '990', ticker: 'X', ...(fee === undefined ? {} : { fee }), ...extra });
    const file = (...trades: string[]) => [line('Account', { id: 'a', name: 'A', balance: '0', accountable_type: 'Investment', currency: 'JPY' }), ...trades].join('\n');
    // Without a fee (files of older exports, Sure's) or with one in the account's, the family's or its own currency.
    expect(codes(file(trade(undefined), trade('0'), trade(500), trade('500.00'), trade('9.95', { currency: 'USD' }), trade('-0')))).toEqual([]);
    expect(codes([line('Trade', { account_id: 'b', date: '2025-01-15', amount: '1', qty: '1', price: '1', ticker: 'X', fee: '0.01' }), line('Account', { id: 'b', name: 'B', balance: '0', accountable_type: 'Investment' })].join('\n'))).toEqual([]);
    expect(preflight(file(trade('-5'), trade('1.5'), trade('9.955', { currency: 'USD' }), trade('ten'))).errors.map((e) => e.message)).toEqual([
      "Line 2 Trade fee '-5' must not be negative.",
      "Line 3 Trade fee '1.5' is finer than the JPY minor unit: JPY amounts have 0 decimals.",
      "Line 4 Trade fee '9.955' is finer than the USD minor unit: USD amounts have 2 decimals.",
      'Line 5 Trade fee must be a decimal number, got "ten".',
    ]);
    expect(preflightServiceNdjson(parseServiceNdjson(line('Trade', { account_id: 'a', date: '2025-01-15', amount: '1', qty: '1', price: '1', ticker: 'X', fee: '0.5' })), none(), { familyCurrency: 'JPY' }).errors.map((e) => e.message)).toEqual([
      'Line 1 Trade references missing account_id "a".',
      "Line 1 Trade fee '0.5' is finer than the JPY minor unit: JPY amounts have 0 decimals.",
    ]);
  });

  it("reads a trade's optional activity label from Sure's list and refuses any other", () => {
    const trade = (label: unknown) => line('Trade', { account_id: 'a', date: '2025-01-15', amount: '0', qty: '10', price: '0', ticker: 'X', investment_activity_label: label });
    const file = (...trades: string[]) => [line('Account', { id: 'a', name: 'A', balance: '0', accountable_type: 'Investment' }), ...trades].join('\n');
    expect(codes(file(trade('Transfer'), trade('Other'), trade(' Sweep In '), trade('')))).toEqual([]);
    expect(preflight(file(trade('transfer'), trade(7))).errors.map((e) => e.message)).toEqual([
      'Line 2 Trade investment_activity_label must be one of Buy, Sell, Sweep In, Sweep Out, Dividend, Reinvestment, Interest, Fee, Transfer, Contribution, Withdrawal, Exchange, Other, got "transfer".',
      'Line 3 Trade investment_activity_label must be a string.',
    ]);
  });

  it('refuses every amount finer than the currency it is stored in: balances, transactions, split lines, valuations, budgets', () => {
    const text = [
      line('Account', { id: 'y', name: 'Yen', balance: '1000.5', accountable_type: 'Depository', currency: 'JPY' }),
      line('Account', { id: 'u', name: 'Dollars', balance: '10.10', cash_balance: '10.100', accountable_type: 'Depository' }),
      line('Transaction', { id: 't1', account_id: 'y', date: '2025-01-02', amount: '12.5', name: 'Ramen' }),
      line('Transaction', { id: 't2', account_id: 'u', date: '2025-01-02', amount: '10.005', name: 'Split', split_lines: [{ amount: '5.0025' }, { amount: '5.0025' }] }),
      line('Valuation', { account_id: 'u', date: '2025-01-03', amount: '99.999' }),
      line('Budget', { id: 'b', start_date: '2025-01-01', end_date: '2025-01-31', budgeted_spending: '100.001', currency: 'USD' }),
    ].join('\n');
    expect(preflight(text).errors.map((e) => e.message)).toEqual([
      "Line 1 Account balance '1000.5' is finer than the JPY minor unit: JPY amounts have 0 decimals.",
      "Line 3 Transaction amount '12.5' is finer than the JPY minor unit: JPY amounts have 0 decimals.",
      "Line 4 Transaction amount '10.005' is finer than the USD minor unit: USD amounts have 2 decimals.",
      "Line 4 Transaction split line 1 amount '5.0025' is finer than the USD minor unit: USD amounts have 2 decimals.",
      "Line 4 Transaction split line 2 amount '5.0025' is finer than the USD minor unit: USD amounts have 2 decimals.",
      "Line 5 Valuation amount '99.999' is finer than the USD minor unit: USD amounts have 2 decimals.",
      "Line 6 Budget budgeted_spending '100.001' is finer than the USD minor unit: USD amounts have 2 decimals.",
    ]);
  });

  it("refuses a fee more than the trade allows: a buy's amount includes it, a sell's qty x price gives it", () => {
    const trade = (fields: Record<string, unknown>) => line('Trade', { account_id: 'a', date: '2025-01-15', ticker: 'X', ...fields });
    const file = (...trades: string[]) => [line('Account', { id: 'a', name: 'A', balance: '0', accountable_type: 'Investment' }), ...trades].join('\n');
    // At the bound, and a sell whose fee takes more than its amount but not more than qty x price (0.7 x 3 is 2.1 exactly).
    const fine = [
      trade({ amount: '10.00', qty: '1', price: '9', fee: '10' }),
      trade({ amount: '-0.10', qty: '-3', price: '0.7', fee: '2.1' }),
      trade({ amount: '-5', qty: '-1', price: '5', fee: '0' }),
    ];
    expect(codes(file(...fine))).toEqual([]);
    expect(preflight(file(trade({ amount: '10.00', qty: '1', price: '9', fee: '10.01' }), trade({ amount: '-1', qty: '-3', price: '0.7', fee: '2.11' }))).errors.map((e) => e.message)).toEqual([
      'Line 2 Trade fee 10.01 is more than the amount 10.00, which includes it.',
      'Line 3 Trade fee 2.11 is more than qty x price (3 x 0.7), from which it is taken.',
    ]);
  });

  it('formats the stored error text like Sure', () => {
    expect(preflightErrorText([{ code: 'x', message: 'Line 1 bad.' }])).toBe('Sure import preflight failed:\nLine 1 bad.');
  });
});

describe('planServiceImport', () => {
  it('orders by dependency, parents before children, and resolves currencies from accounts and budgets', () => {
    const text = [
      line('BudgetCategory', { budget_id: 'b', category_id: 'child' }),
      line('Transaction', { id: 't', account_id: 'a', date: '2024-03-01', amount: '1' }),
      line('Category', { id: 'child', name: 'Child', parent_id: 'parent' }),
      line('Category', { id: 'parent', name: 'Parent' }),
      line('Budget', { id: 'b', start_date: '2024-01-01', end_date: '2024-01-31', currency: 'JPY' }),
      line('Account', { id: 'a', name: 'A', balance: '10', accountable_type: 'Depository', currency: 'EUR' }),
    ].join('\n');
    const plan = planServiceImport(parseServiceNdjson(text), { familyCurrency: 'USD', today: '2026-01-01' });
    expect(plan.map((p) => [p.type, p.line, p.currency])).toEqual([
      ['Account', 6, 'EUR'],
      ['Category', 4, 'USD'],
      ['Category', 3, 'USD'],
      ['Transaction', 2, 'EUR'],
      ['Budget', 5, 'JPY'],
      ['BudgetCategory', 1, 'JPY'],
    ]);
    expect(plan[0].anchorDate).toBe('2024-02-29'); // the day before the account's oldest record
  });

  it('adds no opening anchor when the file has one, and dates it two years back without any dated record', () => {
    const today = '2026-05-10';
    expect(planServiceImport(parseServiceNdjson(SAMPLE), { familyCurrency: 'USD', today })[0].anchorDate).toBeNull();
    const lone = line('Account', { id: 'a', name: 'A', balance: '5', accountable_type: 'Depository' });
    expect(planServiceImport(parseServiceNdjson(lone), { familyCurrency: 'USD', today })[0].anchorDate).toBe('2024-05-10');
    expect(planServiceImport(parseServiceNdjson(lone), { familyCurrency: 'USD', today: '2028-02-29' })[0].anchorDate).toBe('2026-02-28');
  });
});

describe('cells', () => {
  it('reads decimals exactly and converts to minor units', () => {
    expect([decimalText('12.50'), decimalText(12.5), decimalText('+3'), decimalText('1,000'), decimalText(Infinity)]).toEqual(['12.50', '12.5', '3', null, null]);
    expect([minorUnitsText('84.20', 'EUR'), minorUnitsText('-0', 'USD'), minorUnitsText('1500', 'JPY'), minorUnitsText('0.125', 'USD')]).toEqual(['8420', '0', '1500', '13']);
    expect([isIsoDate('2024-02-29'), isIsoDate('2023-02-29'), isIsoDate('2024-1-1')]).toEqual([true, false, false]);
  });
});

describe('ruleOperandTable', () => {
  it('names the table a condition or action value refers to', () => {
    expect(ruleOperandTable({ condition_type: 'transaction_category' })).toBe('categories');
    expect(ruleOperandTable({ action_type: 'set_transaction_merchant' })).toBe('merchants');
    expect(ruleOperandTable({ action_type: 'set_transaction_tags' })).toBe('tags');
  });

  it('names none for plain values and for names an object inherits', () => {
    for (const type of ['transaction_amount', 'transaction_name', 'constructor', '__proto__', 'toString', '']) {
      expect(ruleOperandTable({ condition_type: type })).toBeUndefined();
    }
    expect(ruleOperandTable({})).toBeUndefined();
  });
});

describe('serviceRowLines and withoutLines (skip_rows)', () => {
  const FILE = [
    line('Transaction', { id: 'txn-1', account_id: 'acc-1', date: '2025-01-05', amount: '10', name: 'Shop' }),
    'not json',
    line('Account', { id: 'acc-1', name: 'Checking', balance: '100', accountable_type: 'Depository' }),
    '',
    line('Category', { id: 'child', name: 'Child', parent_id: 'parent' }),
    line('Category', { id: 'parent', name: 'Parent' }),
    line('Tag', { id: 'tag-1', name: 'Monthly' }),
  ].join('\n');

  it('numbers rows in publish order, then the lines with problems, each by its file line', () => {
    const parsed = parseServiceNdjson(FILE);
    expect(serviceRowLines(parsed)).toEqual([3, 6, 5, 7, 1, 2]);
    expect(planServiceImport(parsed, { familyCurrency: 'USD', today: '2026-01-01' }).map((r) => r.line)).toEqual([3, 6, 5, 7, 1]);
  });

  it('reads the file as if the lines were blank: no record, problem or count of them', () => {
    const parsed = parseServiceNdjson(FILE);
    const kept = withoutLines(parsed, new Set([2, 7]));
    expect(kept.lines.map((l) => l.line)).toEqual([1, 3, 5, 6]);
    expect(kept.issues).toEqual([]);
    expect(kept.rowsCount).toBe(4);
    expect(kept.expectedRecordCounts).toMatchObject({ accounts: 1, categories: 2, tags: 0, transactions: 1 });
    expect(kept.recordTypeCounts).toEqual({ Account: 1, Category: 2, Transaction: 1 });
    expect(preflightServiceNdjson(kept, none(), { familyCurrency: 'USD' }).valid).toBe(true);
    // Without the account its transaction names, preflight says so.
    expect(preflightServiceNdjson(withoutLines(kept, new Set([3])), none(), { familyCurrency: 'USD' }).errors.map((e) => e.code)).toEqual(['missing_reference']);
    expect(withoutLines(parsed, new Set())).toBe(parsed);
  });
});
