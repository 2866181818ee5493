import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { realworldDir } from '../../../../tools/test-support/realworld';
import { detectQifDateLayout, normalizeQifDate, parseQif } from './qif';

const options = { maxRows: 1000, defaultCurrency: 'USD', today: new Date('2026-11-22T12:00:00Z') };

/** A checking-account export: a category list, a bank section with a class, a transfer, a split, an opening balance. */
const CHECKING = readFileSync(join(__dirname, '../fixtures/checking.qif'), 'utf8');

describe('parseQif: bank sections', () => {
  it('turns records into outflow-positive rows with categories, classes as tags, transfers, splits and the opening balance', () => {
    const { rows, fileErrors } = parseQif(CHECKING, options);
    expect(fileErrors).toEqual([]);
    const transactions = rows.filter((r) => r.values.row_kind === 'transaction');
    expect(transactions.map((r) => [r.values.date, r.values.amount, r.values.name, r.values.category, r.values.tags, r.values.transfer_account, r.values.notes])).toEqual([
      ['2024-01-02', '1234.56', 'Rent Co', 'Housing:Rent', ['home', 'fixed'], null, 'January rent'],
      ['2024-01-15', '-2500.00', 'Employer', 'Income', [], null, null],
      ['2024-01-20', '300.00', 'Transfer', null, [], 'Savings', null],
      ['2024-01-25', '100.00', 'Costco', null, [], null, null],
      ['2024-01-25', '60.00', 'Costco', 'Food:Groceries', [], null, 'Food part'],
      ['2024-01-25', '40.00', 'Costco', 'Household', [], null, null],
    ]);
    expect(rows[6].values).toMatchObject({ row_kind: 'opening_balance', date: '2023-12-31', amount: '1000.00' });
    expect(rows.every((r) => r.errors.length === 0)).toBe(true);
    expect(rows.map((r) => r.sourceRowNumber)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('turns a split record into a row of its total (split_count) followed by a row per part (split_of: the total\'s row)', () => {
    const { rows } = parseQif(CHECKING, options);
    expect(rows.slice(3, 6).map((r) => [r.sourceRowNumber, r.values.amount, r.values.split_count ?? null, r.values.split_of ?? null])).toEqual([
      [4, '100.00', 2, null],
      [5, '60.00', null, 4],
      [6, '40.00', null, 4],
    ]);
    // A split whose L names a category keeps it on the total's row; rows of records that are not splits have neither key.
    const named = parseQif('!Type:Bank\nD01/25/2024\nT-10\nPShop\nLHome/trip\nSA\n$-4\nSB\n$-6\n^\nD01/26/2024\nT-1\nPCafe\n^\n', options).rows;
    expect(named.map((r) => [r.values.amount, r.values.category, r.values.tags, r.values.split_count ?? null, r.values.split_of ?? null])).toEqual([
      ['10', 'Home', ['trip'], 2, null],
      ['4', 'A', [], null, 1],
      ['6', 'B', [], null, 1],
      ['1', null, [], null, null],
    ]);
    expect(Object.hasOwn(named[3].values, 'split_count') || Object.hasOwn(named[3].values, 'split_of')).toBe(false);
  });

  it("keeps the transaction's memo on each split part, with the part's own memo after it", () => {
    const qif = '!Type:Bank\nD01/25/2024\nT-100.00\nPCostco\nMWeekly shop\nSFood\nEfruit\n$-60.00\nSHousehold\n$-40.00\n^\n';
    expect(parseQif(qif, options).rows.map((r) => r.values.notes)).toEqual(['Weekly shop', 'Weekly shop — fruit', 'Weekly shop']);
  });

  it('reads day-first dates when the file says so, and an opening balance as its own kind', () => {
    const qif = '!Type:CCard\nD31.01.2024\nT-12,50\nPBakery\n^\nD01.01.2024\nT500.00\nPOpening Balance\n^\n';
    const { rows } = parseQif(qif, options);
    expect(rows[0].values).toMatchObject({ date: '2024-01-31', amount: '12.50', row_kind: 'transaction' });
    expect(rows[1].values).toMatchObject({ date: '2024-01-01', amount: '500.00', row_kind: 'opening_balance' });
  });

  it('reports records without a valid date or amount as row errors instead of dropping them', () => {
    const { rows } = parseQif('!Type:Bank\nD13/45/2024\nT5\n^\nD01/02/2024\nTabc\n^\n', options);
    expect(rows.map((r) => r.errors)).toEqual([
      ["Row 1 (line 2): date '13/45/2024' is missing or not a date"],
      ["Row 2 (line 5): amount 'abc' is missing or not a number"],
    ]);
    // The D field that gave no date stays with its row, as written.
    expect(rows.map((r) => [r.values.date, r.values.raw_date])).toEqual([
      [null, '13/45/2024'],
      ['2024-01-02', undefined],
    ]);
  });

  it('refuses text without a !Type header, without transactions, or with too many records', () => {
    expect(parseQif('Date,Amount\n2024-01-01,5', options)).toMatchObject({ errorCode: 'invalid_qif', fileErrors: ['The file is not QIF: it has no !Type: header'] });
    expect(parseQif('!Type:Cat\nNFood\n^\n', options)).toMatchObject({ errorCode: 'invalid_qif', fileErrors: ['The QIF file has no transactions'] });
    expect(parseQif('!Type:Bank\n' + 'D01/02/2024\nT1\n^\n'.repeat(3), { ...options, maxRows: 2 })).toMatchObject({ errorCode: 'too_many_rows' });
  });
});

describe('parseQif: investment sections', () => {
  it('maps securities to tickers, signs sells negative and turns cash actions into transactions', () => {
    const qif = `!Type:Security
NApple Inc
SAAPL
^
!Type:Invst
D03/01/2024
NBuy
YApple Inc
I170.50
Q10
T1705.00
^
D03/05/2024
NSell
YApple Inc
Q4
T720.00
^
D03/10/2024
NDiv
YApple Inc
T2.40
^
`;
    const { rows } = parseQif(qif, options);
    expect(rows.map((r) => r.values)).toEqual([
      expect.objectContaining({ row_kind: 'trade', ticker: 'AAPL', qty: '10', price: '170.50', name: 'Buy 10 AAPL' }),
      expect.objectContaining({ row_kind: 'trade', ticker: 'AAPL', qty: '-4', price: '180', name: 'Sell 4 AAPL' }),
      expect.objectContaining({ row_kind: 'transaction', amount: '-2.40', name: 'Dividend: AAPL' }),
    ]);
  });
});

describe('QIF investment cash actions', () => {
  it('turns income, capital returns and margin interest into transactions, the X forms too, signed by direction', () => {
    const record = (action: string) => `D03/01/2024\nN${action}\nYAAPL\nT5.00\n^\n`;
    const actions = ['CGLong', 'CGMid', 'CGShortX', 'RtrnCap', 'RtrnCapX', 'MargInt', 'MargIntX', 'MiscExpX', 'IntIncX'];
    const { rows } = parseQif(`!Type:Invst\n${actions.map(record).join('')}`, options);
    expect(rows.map((r) => [r.errors, r.values.amount, r.values.name])).toEqual([
      [[], '-5.00', 'Capital Gain (Long): AAPL'],
      [[], '-5.00', 'Capital Gain (Mid): AAPL'],
      [[], '-5.00', 'Capital Gain (Short): AAPL'],
      [[], '-5.00', 'Return of Capital: AAPL'],
      [[], '-5.00', 'Return of Capital: AAPL'],
      [[], '5.00', 'Margin Interest'],
      [[], '5.00', 'Margin Interest'],
      [[], '5.00', 'Miscellaneous Expense'],
      [[], '-5.00', 'Interest'],
    ]);
  });
});

describe('QIF X forms', () => {
  it("become their action and the cash transfer from or to the account L names, which cancel out in the account's cash", () => {
    const qif = [
      '!Type:Invst',
      'D03/01/2024', 'NBuyX', 'YAAPL', 'I150', 'Q2', 'T300.00', 'L[Checking]', '$300.00', '^',
      'D03/02/2024', 'NSellX', 'YAAPL', 'I160', 'Q1', 'T160.00', 'L[Checking]', '$160.00', '^',
      'D03/03/2024', 'NDivX', 'YAAPL', 'T2.40', 'L[Checking]', '$2.40', 'Mquarterly', '^',
      'D03/04/2024', 'NMargIntX', 'T1.10', 'L[Checking]', '$1.10', '^',
      'D03/05/2024', 'NBuyX', 'YVTI', 'I200', 'Q0.5', 'L[Savings]', '^',
      'D03/06/2024', 'NXIn', 'T50.00', 'L[Checking]', '^',
      'D03/07/2024', 'NDivX', 'YAAPL', 'T1.00', '^',
      '',
    ].join('\n');
    const { rows } = parseQif(qif, options);
    expect(rows.map((r) => [r.sourceRowNumber, r.errors, r.values.row_kind, r.values.amount, r.values.name, r.values.transfer_account])).toEqual([
      [1, [], 'trade', '300.00', 'Buy 2 AAPL', undefined],
      [2, [], 'transaction', '-300.00', 'Cash Transfer In', 'Checking'],
      [3, [], 'trade', '-160.00', 'Sell 1 AAPL', undefined],
      [4, [], 'transaction', '160.00', 'Cash Transfer Out', 'Checking'],
      [5, [], 'transaction', '-2.40', 'Dividend: AAPL', null],
      [6, [], 'transaction', '2.40', 'Cash Transfer Out', 'Checking'],
      [7, [], 'transaction', '1.10', 'Margin Interest', null],
      [8, [], 'transaction', '-1.10', 'Cash Transfer In', 'Checking'],
      [9, [], 'trade', null, 'Buy 0.5 VTI', undefined],
      [10, [], 'transaction', '-100', 'Cash Transfer In', 'Savings'],
      [11, [], 'transaction', '-50.00', 'Cash Transfer In', 'Checking'],
      // Without an account named, the dividend stays in the investment account's cash.
      [12, [], 'transaction', '-1.00', 'Dividend: AAPL', null],
    ]);
    expect(rows[5].values.notes).toBe('quarterly');
  });
});

describe('QIF amounts finer than the currency', () => {
  it('are row errors in bank records, splits, cash actions and trades; trailing zeros are not finer', () => {
    const bank = parseQif('!Type:Bank\nD03/01/2024\nT-1.234\nPShop\n^\nD03/02/2024\nT-10.00\nPSplit\nSFood\n$-4.005\nSHome\n$-5.995\n^\nD03/03/2024\nT-2.5000\nPZeros\n^\n', options);
    expect(bank.rows.map((r) => r.errors)).toEqual([
      ["Row 1 (line 2): amount (T) '-1.234' is finer than the USD minor unit: USD amounts have 2 decimals"],
      [],
      ["Row 3 (line 6): split 1 amount '-4.005' is finer than the USD minor unit: USD amounts have 2 decimals"],
      ["Row 4 (line 6): split 2 amount '-5.995' is finer than the USD minor unit: USD amounts have 2 decimals"],
      [],
    ]);
    // A finer total is the total's row's error only.
    expect(parseQif('!Type:Bank\nD03/02/2024\nT-10.001\nPSplit\nSFood\n$-4\nSHome\n$-6.001\n^\n', options).rows.map((r) => r.errors)).toEqual([
      ["Row 1 (line 2): amount (T) '-10.001' is finer than the USD minor unit: USD amounts have 2 decimals"],
      [],
      ["Row 3 (line 2): split 2 amount '-6.001' is finer than the USD minor unit: USD amounts have 2 decimals"],
    ]);
    const invest = parseQif('!Type:Invst\nD03/01/2024\nNDiv\nYAAPL\nT2.405\n^\nD03/02/2024\nNBuy\nYAAPL\nI100.001\nQ10\nT1000.01\n^\n', { ...options, defaultCurrency: 'JPY' });
    expect(invest.rows.map((r) => r.errors)).toEqual([
      ["Row 1 (line 2): amount (T) '2.405' is finer than the JPY minor unit: JPY amounts have 0 decimals"],
      ["Row 2 (line 7): amount (T) '1000.01' is finer than the JPY minor unit: JPY amounts have 0 decimals"],
    ]);
  });
});

describe('QIF reinvested income', () => {
  it('turns ReinvDiv and the like into the buy and the income it was paid with, which cancel out in cash', () => {
    const qif = [
      '!Type:Invst',
      'D03/01/2024', 'NReinvDiv', 'YAAPL', 'I150', 'Q0.5', 'T75.00', 'Mquarterly', '^',
      'D03/02/2024', 'NReinvLg', 'YVTI', 'I200', 'Q0.25', '^',
      'D03/03/2024', 'NReinvInt', 'YBND', 'I70', '^',
      'D03/04/2024', 'NDiv', 'YAAPL', 'T2.40', '^',
      '',
    ].join('\n');
    const { rows } = parseQif(qif, options);
    expect(rows.map((r) => [r.sourceRowNumber, r.values.row_kind, r.values.date, r.values.amount, r.values.name, r.values.notes ?? null, r.errors])).toEqual([
      [1, 'trade', '2024-03-01', '75.00', 'Buy 0.5 AAPL', null, []],
      [2, 'transaction', '2024-03-01', '-75.00', 'Dividend: AAPL', 'quarterly', []],
      [3, 'trade', '2024-03-02', null, 'Buy 0.25 VTI', null, []],
      [4, 'transaction', '2024-03-02', '-50', 'Capital Gain (Long): VTI', null, []],
      [5, 'trade', '2024-03-03', null, 'Buy BND', null, [expect.stringContaining("quantity '' is missing")]],
      [6, 'transaction', '2024-03-03', null, 'Interest', null, ['Row 6 (line 16): the reinvested income is unknown: it needs T, or Q and I']],
      [7, 'transaction', '2024-03-04', '-2.40', 'Dividend: AAPL', null, []],
    ]);
  });
});

describe('QIF share transfers', () => {
  it('turns ShrsIn and ShrsOut into trades of no amount at their cost per share (I, else T / Q, else 0), labelled Transfer', () => {
    const record = (fields: string) => `D03/01/2024\n${fields}^\n`;
    const qif = `!Type:Invst\n${[
      record('NShrsIn\nYAAPL\nI150\nQ10\n'),
      record('NShrsOut\nYAAPL\nQ4\nT600\n'),
      record('NShrsIn\nYVTI\nQ2\n'),
      record('NShrsIn\nQ-3\nI-1\n'),
    ].join('')}`;
    const { rows } = parseQif(qif, options);
    expect(rows.map((r) => [r.values.qty, r.values.price, r.values.amount, r.values.fee, r.values.activity_label, r.values.name])).toEqual([
      ['10', '150', '0', '0', 'Transfer', 'Shares in 10 AAPL'],
      ['-4', '150', '0', '0', 'Transfer', 'Shares out 4 AAPL'],
      ['2', '0', '0', '0', 'Transfer', 'Shares in 2 VTI'],
      ['3', '-1', '0', '0', 'Transfer', 'Shares in 3'],
    ]);
    expect(rows.map((r) => r.errors)).toEqual([[], [], [], [
      'Row 4 (line 19): the transfer names no security (Y)',
      "Row 4 (line 19): price '-1' must not be negative",
    ]]);
  });
});

describe('QIF stock splits', () => {
  it('reads StkSplit as a split row of its ratio: Q is new shares per 10 old', () => {
    const record = (fields: string) => `D03/01/2024\n${fields}^\n`;
    const qif = `!Type:Invst\n${[record('NStkSplit\nYAAPL\nQ20\n'), record('NStkSplit\nYVTI\nQ15\nMthree for two\n'), record('NStkSplit\nYXYZ\nQ1\n'), record('NStkSplit\nQ0\n'), record('NStkSplit\nYXYZ\nQ10001\n')].join('')}`;
    const { rows } = parseQif(qif, options);
    expect(rows.map((r) => [r.values.row_kind, r.values.date, r.values.ticker, r.values.ratio, r.values.name, r.values.notes])).toEqual([
      ['split', '2024-03-01', 'AAPL', '2', 'Split 2 for 1 AAPL', null],
      ['split', '2024-03-01', 'VTI', '1.5', 'Split 1.5 for 1 VTI', 'three for two'],
      ['split', '2024-03-01', 'XYZ', '0.1', 'Split 0.1 for 1 XYZ', null],
      ['split', '2024-03-01', '', null, 'Split ? for 1', null],
      ['split', '2024-03-01', 'XYZ', null, 'Split ? for 1 XYZ', null],
    ]);
    expect(rows.map((r) => r.errors)).toEqual([[], [], [], [
      'Row 4 (line 18): the split names no security (Y)',
      "Row 4 (line 18): split ratio '0' (Q, new shares per 10 old) must be a number from 0.01 to 10000",
    ], ["Row 5 (line 22): split ratio '10001' (Q, new shares per 10 old) must be a number from 0.01 to 10000"]]);
  });
});

describe('QIF dates', () => {
  it('reports investment actions named like inherited object properties as unsupported', () => {
    const qif = ['!Type:Invst', 'D03/01/2024', 'Nconstructor', 'T2.40', '^', 'D03/02/2024', 'NtoString', 'T1.00', '^', ''].join('\n');
    const { rows } = parseQif(qif, options);
    expect(rows.map((r) => r.errors)).toEqual([
      ["Row 1 (line 2): investment action 'constructor' is not supported"],
      ["Row 2 (line 6): investment action 'toString' is not supported"],
    ]);
  });

  it('expands apostrophe and two-digit years without going into the future', () => {
    const today = new Date('2026-11-22T00:00:00Z');
    expect(normalizeQifDate("6/ 4'20", today)).toBe('6/4/2020');
    expect(normalizeQifDate('12/31/99', today)).toBe('12/31/1999');
    expect(normalizeQifDate('1/2/26', today)).toBe('1/2/2026');
    expect(normalizeQifDate("1/ 5' 4", today)).toBe('1/5/2004');
    expect(parseQif("!Type:Bank\nD1/ 5' 4\nT-1\n^\n", options).rows[0]).toMatchObject({ errors: [], values: { date: '2004-01-05' } });
  });

  it('prefers the layout that parses most dates, US on a tie', () => {
    expect(detectQifDateLayout(['01/02/2024', '03/04/2024'])).toBe('%m/%d/%Y');
    expect(detectQifDateLayout(['01/02/2024', '25/04/2024'])).toBe('%d/%m/%Y');
    expect(detectQifDateLayout(['2024-01-31'])).toBe('%Y-%m-%d');
  });
});

describe('parseQif: securities the database cannot hold', () => {
  it('reports a security named by more than a ticker holds (30 characters) as a row error', () => {
    const name = 'Vanguard Total Stock Market Index Fund Admiral Shares';
    const qif = `!Type:Invst\nD03/01/2024\nNBuy\nY${name}\nI100\nQ10\nT1000\n^\nD03/02/2024\nNBuy\nYShort Name Fund\nI10\nQ1\nT10\n^\n`;
    const { rows } = parseQif(qif, options);
    expect(rows.map((r) => r.errors)).toEqual([
      [`Row 1 (line 2): security '${name.toUpperCase().slice(0, 40)}…' is too long: tickers can have at most 30 characters; list it with its ticker in a !Type:Security section`],
      [],
    ]);
    // With the name listed, its ticker is used.
    expect(parseQif(`!Type:Security\nN${name}\nSVTSAX\n^\n${qif}`, options).rows[0]).toMatchObject({ errors: [], values: { ticker: 'VTSAX' } });
  });
});

describe('parseQif: names longer than an entry holds', () => {
  it('reports a payee or security name longer than 500 characters once per row, split rows included', () => {
    const payee = 'p'.repeat(501);
    const qif = `!Type:Bank\nD01/02/2024\nT-5\nP${payee}\n^\nD01/03/2024\nT-5\nP${payee}\nL--Split--\nSA\n$-2\nSB\n$-3\n^\n`;
    const message = (row: number, line: number) => `Row ${row} (line ${line}): name '${'p'.repeat(40)}…' is too long: transaction names can have at most 500 characters`;
    expect(parseQif(qif, options).rows.map((r) => r.errors)).toEqual([[message(1, 2)], [message(2, 6)], [message(3, 6)], [message(4, 6)]]);
    const dividend = parseQif(`!Type:Invst\nD01/02/2024\nNDiv\nY${'y'.repeat(495)}\nT5\n^\n`, options);
    expect(dividend.rows[0].errors).toEqual([expect.stringMatching(/^Row 1 \(line 2\): name 'Dividend: Y+…' is too long: transaction names can have at most 500 characters$/)]);
  });
});

describe('parseQif: trade values the database cannot hold', () => {
  it('reports a price of 10^9 or more, stated or worked out from T / Q, and qty x price of 10^13 or more without T', () => {
    const trade = (fields: string) => `D03/01/2024\nNBuy\nYAAPL\n${fields}^\n`;
    const qif = `!Type:Invst\n${trade('I1000000000\nQ1\nT1000000000\n')}${trade('Q0.0001\nT1000000000\n')}${trade('I999999999\nQ100000\n')}${trade('I999999999\nQ1\n')}`;
    expect(parseQif(qif, options).rows.map((r) => r.errors)).toEqual([
      ['Row 1 (line 2): price 1000000000 is too large (at most 9 digits before the decimal mark)'],
      ['Row 2 (line 9): price 10000000000000 is too large (at most 9 digits before the decimal mark)'],
      ['Row 3 (line 15): qty x price (100000 x 999999999) is too large for an amount'],
      [],
    ]);
  });
});

describe('parseQif: trade prices', () => {
  it('refuses a negative stated price (I) as a row error; a zero price is a trade, and T / Q is worked out from magnitudes', () => {
    const trade = (fields: string) => `D03/01/2024\nNBuy\nYAAPL\n${fields}^\n`;
    const qif = `!Type:Invst\n${trade('I-100\nQ10\nT1000\n')}${trade('I0\nQ5\nT0\n')}${trade('Q5\nT0\n')}${trade('Q10\nT-1000\n')}`;
    expect(parseQif(qif, options).rows.map((r) => [r.values.price, r.values.amount, r.errors])).toEqual([
      ['-100', '1000', ["Row 1 (line 2): price '-100' must not be negative"]],
      ['0', '0', []],
      ['0', '0', []],
      ['100', '1000', []],
    ]);
  });
});

describe('parseQif: trade commission', () => {
  it('reads the commission (O) as the trade fee, 0 without one, and reports one that is not a number or is negative', () => {
    const trade = (action: string, fields: string) => `D03/01/2024\nN${action}\nYAAPL\nI100\nQ10\n${fields}^\n`;
    const qif = `!Type:Invst\n${trade('Buy', 'T1009.95\nO9.95\n')}${trade('Sell', 'T990.05\nO9.95\n')}${trade('Buy', 'T1000\n')}${trade('Buy', 'T2,234.50\nO1,234.50\n')}${trade('Buy', 'T1000\nOfree\n')}${trade('Buy', 'T1000\nO-5\n')}`;
    expect(parseQif(qif, options).rows.map((r) => [r.values.fee, r.errors])).toEqual([
      ['9.95', []],
      ['9.95', []],
      ['0', []],
      ['1234.50', []],
      [null, ["Row 5 (line 33): commission 'free' is not a number"]],
      ['-5', ["Row 6 (line 41): commission '-5' must not be negative"]],
    ]);
  });
});

describe('parseQif: price without I', () => {
  it("works the price out of T before the commission: a buy's T includes O, a sell's T lacks it", () => {
    const trade = (action: string, fields: string) => `D03/01/2024\nN${action}\nYAAPL\n${fields}^\n`;
    const qif = `!Type:Invst\n${[trade('Buy', 'Q10\nT1009.95\nO9.95\n'), trade('Sell', 'Q10\nT990.05\nO9.95\n'), trade('Buy', 'Q3\nT100\n'), trade('Buy', 'Q2\nT5\nO5\n')].join('')}`;
    expect(parseQif(qif, options).rows.map((r) => [r.values.price, r.values.amount, r.values.fee, r.errors])).toEqual([
      ['100', '1009.95', '9.95', []],
      ['100', '-990.05', '9.95', []],
      ['33.33333333', '100', '0', []],
      ['0', '5', '5', []],
    ]);
  });
});

describe('parseQif: commission finer than the currency', () => {
  it("refuses a commission (O) with more decimals than the import's currency has, which its fee would round; trailing zeros are fine", () => {
    const trade = (commission: string) => `D03/01/2024\nNBuy\nYAAPL\nI100\nQ10\nT1010\nO${commission}\n^\n`;
    const qif = `!Type:Invst\n${['1.005', '9.950', '500.5', '500.00'].map(trade).join('')}`;
    expect(parseQif(qif, options).rows.map((r) => [r.values.fee, r.errors])).toEqual([
      ['1.005', ["Row 1 (line 2): commission '1.005' is finer than the USD minor unit: USD amounts have 2 decimals"]],
      ['9.950', []],
      ['500.5', []],
      ['500.00', []],
    ]);
    expect(parseQif(qif, { ...options, defaultCurrency: 'JPY' }).rows.map((r) => r.errors)).toEqual([
      ["Row 1 (line 2): commission '1.005' is finer than the JPY minor unit: JPY amounts have 0 decimals"],
      ["Row 2 (line 10): commission '9.950' is finer than the JPY minor unit: JPY amounts have 0 decimals"],
      ["Row 3 (line 18): commission '500.5' is finer than the JPY minor unit: JPY amounts have 0 decimals"],
      [],
    ]);
  });
});

describe('parseQif: commission larger than the trade', () => {
  it("reports a commission (O) beyond a buy's total (T) or a sell's qty x price, exactly, when both O and T are stated", () => {
    const trade = (action: string, fields: string) => `D03/01/2024\nN${action}\nYAAPL\n${fields}^\n`;
    const qif = `!Type:Invst\n${[
      trade('Buy', 'I100\nQ1\nT15\nO20\n'),
      trade('Buy', 'I0\nQ5\nT10\nO10\n'),
      trade('Buy', 'I100\nQ1\nT-15\nO15.01\n'),
      trade('Buy', 'I100\nQ1\nO200\n'),
      trade('Sell', 'I10\nQ2\nT5\nO25\n'),
      trade('Sell', 'I0.7\nQ3\nT0\nO2.1\n'),
      trade('Sell', 'Q2\nT5\nO25\n'),
    ].join('')}`;
    expect(parseQif(qif, options).rows.map((r) => r.errors)).toEqual([
      ['Row 1 (line 2): commission 20 (O) is more than the total 15 (T), which includes it'],
      [],
      ['Row 3 (line 18): commission 15.01 (O) is more than the total 15 (T), which includes it'],
      [],
      ['Row 5 (line 33): commission 25 (O) is more than qty x price (2 x 10), from which it is taken to give the total 5 (T)'],
      [],
      [],
    ]);
  });
});

describe('parseQif: date range', () => {
  it('accepts dates from 30 years ago up to today, like every import format', () => {
    const qif = '!Type:Bank\nD11/21/1996\nT-1\n^\nD11/22/1996\nT-1\n^\nD11/22/2026\nT-1\n^\nD11/23/2026\nT-1\n^\n';
    expect(parseQif(qif, options).rows.map((r) => r.errors)).toEqual([
      ['Row 1 (line 2): date 1996-11-21 must be between 1996-11-22 and 2026-11-22'],
      [],
      [],
      ['Row 4 (line 11): date 2026-11-23 must be between 1996-11-22 and 2026-11-22'],
    ]);
  });
});

describe('parseQif: files of several accounts', () => {
  const section = (name: string, type: string, payee: string) => `!Account\nN${name}\nT${type}\n^\n!Type:${type}\nD01/05/2024\nT-10\nP${payee}\n^\n`;

  it('refuses a file holding transactions of more than one account, naming them', () => {
    const qif = `!Option:AutoSwitch\n!Account\nNChecking\nTBank\n^\nNVisa\nTCCard\n^\n!Clear:AutoSwitch\n${section('Checking', 'Bank', 'Shop')}${section('Visa', 'CCard', 'Cafe')}`;
    expect(parseQif(qif, options)).toEqual({
      rows: [],
      errorCode: 'invalid_qif',
      fileErrors: ["The QIF file holds transactions of 2 accounts ('Checking', 'Visa'); export each account to its own file and import it into its account"],
    });
  });

  it('refuses a file whose transactions are of several account types though no !Account block names the accounts', () => {
    const qif = '!Type:Bank\nD01/05/2024\nT-10\nPShop\n^\n!Type:Invst\nD01/06/2024\nNBuy\nYAAPL\nI10\nQ1\nT10\n^\n!Type:CCard\nD01/07/2024\nT-5\nPCafe\n^\n';
    expect(parseQif(qif, options)).toEqual({
      rows: [],
      errorCode: 'invalid_qif',
      fileErrors: ['The QIF file holds transactions of 3 account types (Bank, Invst, CCard); export each account to its own file and import it into its account'],
    });
  });

  it('reads a file of one account, with or without its !Account block or the list of accounts before it', () => {
    const listed = `!Option:AutoSwitch\n!Account\nNChecking\nTBank\n^\nNVisa\nTCCard\n^\n!Clear:AutoSwitch\n${section('Checking', 'Bank', 'Shop')}`;
    expect(parseQif(listed, options).rows.map((r) => r.values.name)).toEqual(['Shop']);
    expect(parseQif(section('Checking', 'Bank', 'Shop'), options).rows.map((r) => r.values.name)).toEqual(['Shop']);
  });
});

describe('parseQif: errors of split records', () => {
  it('name each split row by its own row number', () => {
    const qif = '!Type:Bank\nD13/45/2024\nT-5\nPShop\nL--Split--\nSA\n$-2\nSB\n$-x\n^\n';
    expect(parseQif(qif, options).rows.map((r) => [r.sourceRowNumber, r.errors])).toEqual([
      [1, ["Row 1 (line 2): date '13/45/2024' is missing or not a date"]],
      [2, ["Row 2 (line 2): date '13/45/2024' is missing or not a date"]],
      [3, ["Row 3 (line 2): date '13/45/2024' is missing or not a date", "Row 3 (line 2): split 2 amount '-x' is not a number"]],
    ]);
  });
});

describe('parseQif: row limit', () => {
  it('counts a split as the row of its total and a row per part', () => {
    const qif = '!Type:Bank\nD01/02/2024\nT-6\nPShop\nL--Split--\nSA\n$-1\nSB\n$-2\nSC\n$-3\n^\n';
    expect(parseQif(qif, { ...options, maxRows: 3 })).toEqual({ rows: [], fileErrors: ['The file has 4 rows; at most 3 can be stored for one import'], errorCode: 'too_many_rows' });
    expect(parseQif(qif, { ...options, maxRows: 4 }).rows).toHaveLength(4);
  });
});

describe('parseQif: cash transfers of an investment account', () => {
  it('marks XIn/XOut naming the other account ([Checking]) as transfers, like the bank side of them', () => {
    const qif = '!Type:Invst\nD03/01/2024\nNXIn\nT1000\nL[Checking]\n^\nD03/02/2024\nNXOut\nT200\nL[Savings]\n^\nD03/03/2024\nNDiv\nYAAPL\nT5\n^\n';
    expect(parseQif(qif, options).rows.map((r) => [r.values.name, r.values.amount, r.values.transfer_account])).toEqual([
      ['Cash Transfer In', '-1000', 'Checking'],
      ['Cash Transfer Out', '200', 'Savings'],
      ['Dividend: AAPL', '-5', null],
    ]);
  });
});

describe('parseQif: splits that do not add up to the total', () => {
  it("reports on the total's row when the split amounts ($) add up to other than T, instead of losing the difference", () => {
    const qif = '!Type:Bank\nD01/02/2024\nT-100.00\nPShop\nL--Split--\nSA\n$-60.00\nSB\n$-30.00\n^\nD01/03/2024\nT-1,000\nPShop\nSA\n$-999.99\nSB\n$-.01\n^\n';
    expect(parseQif(qif, options).rows.map((r) => [r.values.amount, r.errors])).toEqual([
      ['100.00', ["Row 1 (line 2): the split amounts ($) add up to -90.00, not the total -100.00 (T)"]],
      ['60.00', []],
      ['30.00', []],
      ['1000', []],
      ['999.99', []],
      ['0.01', []],
    ]);
  });
});

describe('parseQif: record ends', () => {
  it('ends a record at any line starting with ^, as Quicken-era files writing ^^ do, so no record is merged into another', () => {
    const qif = '!Type:Invst\r\nD10/16/97\r\nNBuy     \r\nYACME\r\nI35        \r\nQ100      \r\nT3,500.00\r\n^^\r\nD10/17/97\r\nNDiv     \r\nYACME\r\nT120.00\r\n^^\r\n';
    const { rows, fileErrors } = parseQif(qif, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.row_kind, r.values.amount, r.errors])).toEqual([
      ['1997-10-16', 'trade', '3500.00', []],
      ['1997-10-17', 'transaction', '-120.00', []],
    ]);
    const bank = parseQif('!Type:Bank\nD01/02/2024\nT-5\nPShop\n^^\nD01/03/2024\nT-6\nPCafe\n^ \n', options).rows;
    expect(bank.map((r) => [r.values.name, r.values.amount])).toEqual([['Shop', '5'], ['Cafe', '6']]);
  });
});

describe('parseQif: fields a record repeats', () => {
  it('joins repeated memo lines (M, and E of a split part), a memo carried on over lines; address lines (A) are no repeat either', () => {
    const qif = '!Type:Bank\nD01/02/2024\nT-10\nPShop\nA1 High St\nAThe Town\nMfirst line\nMsecond line\nSA\nEpart one\nEpart two\n$-10\n^\n';
    expect(parseQif(qif, options).rows.map((r) => [r.values.notes, r.errors])).toEqual([
      ['first line\nsecond line', []],
      ['first line\nsecond line — part one\npart two', []],
    ]);
  });

  it('reports any other field given twice with different values as a row error naming it, instead of keeping the first', () => {
    const qif = '!Type:Bank\nD01/02/2024\nT-5\nPShop\nD01/03/2024\nT-6\nPShop\n^\nD01/04/2024\nT-7\nT-7\nPCafe\nSA\n$-7\n$-4\n^\n';
    expect(parseQif(qif, options).rows.map((r) => [r.values.amount, r.errors])).toEqual([
      ['5', [
        "Row 1 (line 2): the record gives the date (D) twice, '01/02/2024' and '01/03/2024' (line 5): is the ^ ending a record missing?",
        "Row 1 (line 2): the record gives the amount (T) twice, '-5' and '-6' (line 6): is the ^ ending a record missing?",
      ]],
      // The same value twice loses nothing; a split part's $ twice does.
      ['7', ["Row 2 (line 9): split 1 gives its amount ($) twice, '-7' and '-4' (line 15)"]],
      ['7', ["Row 3 (line 9): split 1 gives its amount ($) twice, '-7' and '-4' (line 15)"]],
    ]);
  });
});

const REALWORLD = realworldDir();

(REALWORLD ? describe : describe.skip)('parseQif: genuine QIF files (shared/realworld)', () => {
  interface Expected {
    file: string;
    expect: { outcome: string; accounts_named?: number; trades?: { count: number }; transactions?: { count: number; sum_milli: number; min_date: string; max_date: string } };
  }
  const files = REALWORLD ? (JSON.parse(readFileSync(join(REALWORLD, 'expected.json'), 'utf8')).files as Expected[]).filter((f) => f.file.endsWith('.qif')) : [];

  it.each(files.map((f) => [f.file, f] as const))('%s gives the figures of expected.json', (file, expected) => {
    const { rows, fileErrors } = parseQif(readFileSync(join(REALWORLD!, file), 'utf8'), options);
    if (expected.expect.outcome === 'refused') {
      expect(rows).toEqual([]);
      expect(fileErrors).toEqual([expect.stringContaining(`transactions of ${expected.expect.accounts_named} accounts`)]);
      return;
    }
    expect(fileErrors).toEqual([]);
    expect(rows.flatMap((r) => r.errors)).toEqual([]);
    // Published transactions: every transaction row but a split's total, signed as the file (income positive).
    const transactions = rows.filter((r) => r.values.row_kind === 'transaction' && r.values.split_count === undefined);
    const sumMilli = transactions.reduce((sum, r) => sum - Math.round(Number(r.values.amount) * 1000), 0);
    const dates = transactions.map((r) => String(r.values.date)).sort();
    const { transactions: want, trades } = expected.expect;
    expect([transactions.length, sumMilli, dates[0], dates.at(-1)]).toEqual([want!.count, want!.sum_milli, want!.min_date, want!.max_date]);
    expect(rows.filter((r) => r.values.row_kind === 'trade')).toHaveLength(trades?.count ?? 0);
  });
});
