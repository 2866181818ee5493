import { parsePdfStatement, PositionedText } from './pdf-statement';

const options = { maxRows: 100, defaultCurrency: 'EUR', today: new Date('2026-11-22T12:00:00Z') };

/** Lays out rows of cells at the given column x positions, top to bottom, `pitch` units apart, like a statement page. */
function page(rows: string[][], xs: number[], pageNumber = 1, top = 700, pitch = 14): PositionedText[] {
  return rows.flatMap((cells, r) =>
    cells.map((text, c) => ({ text, page: pageNumber, x: xs[c], y: top - r * pitch, width: text.length * 4.5 })).filter((i) => i.text),
  );
}

describe('parsePdfStatement', () => {
  it('reads debit and credit columns, checks the balance and joins wrapped descriptions', () => {
    const items = [
      ...page([['Acme Bank'], ['Statement for account 12345678']], [40]),
      ...page(
        [
          ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
          ['', 'Opening balance', '', '', '1,000.00'],
          ['03/01/2024', 'Grocer', '45.99', '', '954.01'],
          ['04/01/2024', 'Salary ACME', '', '2,500.00', '3,454.01'],
          ['', 'Ltd payroll', '', '', ''],
          ['25/01/2024', 'Rent', '1,200.00', '', '2,254.01'],
        ],
        [40, 110, 330, 400, 480],
        1,
        600,
      ),
    ];
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-01-03', 'Grocer', '45.99', []],
      ['2024-01-04', 'Salary ACME Ltd payroll', '-2500.00', []],
      ['2024-01-25', 'Rent', '1200.00', []],
    ]);
  });

  it('joins items drawn one per word, with the spaces as items of their own, by the space width of their font', () => {
    // A monospaced font at 6 units: each glyph, the space too, is 3.6 wide, so words stand 3.6 apart (more than the
    // 3 units that separate cells at 9 points); columns stand several spaces apart.
    const glyph = 0.6 * 6;
    const wordItems = (text: string, x: number, y: number): PositionedText[] => {
      let left = x;
      return text.split(/( )/).flatMap((word) => {
        const item = { text: word, page: 1, x: left, y, width: word.length * glyph, fontSize: 6 };
        left += item.width;
        return word ? [item] : [];
      });
    };
    const row = (y: number, cells: Array<[string, number]>) => cells.flatMap(([text, x]) => wordItems(text, x, y));
    const items = [
      ...row(440, [['Account transactions from May 30, 2024 to June 30, 2024', 36]]),
      ...row(413, [['Date', 40], ['Description', 115], ['Money out', 310], ['Money in', 386], ['Balance', 487]]),
      ...row(392, [['Jun 9, 2024', 40], ['Top-Up by *8888', 115], ['€', 386], ['19.99', 389.6], ['€', 491], ['20.00', 494.6]]),
      ...row(370, [['Jun 14, 2024', 40], ['Restaurant Awesome, Paris', 115], ['€', 310], ['9.99', 313.6], ['€', 491], ['10.01', 494.6]]),
    ];
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-06-09', 'Top-Up by *8888', '-19.99', []],
      ['2024-06-14', 'Restaurant Awesome, Paris', '9.99', []],
    ]);
  });

  it('keeps wrapped lines that label what they hold (From:, To:, Card:) as notes, out of the name', () => {
    const items = page(
      [
        ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
        ['09/06/2024', 'Top-Up by *8888', '', '19.99', '20.00'],
        ['', 'From: *8888', '', '', ''],
        ['14/06/2024', 'Cash at PSG stadium', '10.01', '', '9.99'],
        ['', 'To: PSG stadium, Paris', '', '', ''],
        ['', 'Card: 888888******888', '', '', ''],
        ['15/06/2024', 'Salary ACME', '', '100.00', '109.99'],
        ['', 'Ltd payroll', '', '', ''],
      ],
      [40, 110, 330, 400, 480],
    );
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.name, r.values.notes, r.values.amount, r.errors])).toEqual([
      ['Top-Up by *8888', 'From: *8888', '-19.99', []],
      ['Cash at PSG stadium', 'To: PSG stadium, Paris; Card: 888888******888', '10.01', []],
      ['Salary ACME Ltd payroll', null, '-100.00', []],
    ]);
  });

  it('joins a description wrapped over three or more lines, however far the last line is from the first', () => {
    const items = page(
      [
        ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
        ['03/01/2024', 'Card payment', '45.99', '', '954.01'],
        ['', 'ACME SUPERSTORE', '', '', ''],
        ['', 'LONDON GB', '', '', ''],
        ['', 'REF 0042', '', '', ''],
        ['04/01/2024', 'Rent', '1,200.00', '', '-245.99'],
        ['', 'March', '', '', ''],
      ],
      [40, 110, 330, 400, 480],
    );
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.name, r.values.amount, r.errors])).toEqual([
      ['Card payment ACME SUPERSTORE LONDON GB REF 0042', '45.99', []],
      ['Rent March', '1200.00', []],
    ]);
  });

  it('reports a description wrapped into more than an entry name holds instead of cutting it', () => {
    const lines = Array.from({ length: 12 }, (_, i) => [i ? '' : '03/01/2024', `${String(i).padStart(2, '0')} ${'x'.repeat(42)}`, i ? '' : '45.99', '', '']);
    const items = page([['Date', 'Description', 'Debit', 'Credit', 'Balance'], ...lines], [40, 110, 330, 400, 480]);
    const [row] = parsePdfStatement(items, options).rows;
    expect(row.values.name).toBe(lines.map((l) => l[1]).join(' '));
    expect(row.errors).toEqual([expect.stringMatching(/^Row 1 \(page 1\): description '00 x+…' is too long: transaction names can have at most 500 characters$/)]);
  });

  it('signs a single amount column as printed on bank statements and as charges on credit card statements', () => {
    const table = (title: string) => [
      ...page([[title]], [40], 1, 760),
      ...page(
        [
          ['Date', 'Description', 'Amount'],
          ['2024-02-01', 'Coffee', '-4.50'],
          ['2024-02-02', 'Refund', '12.00'],
          ['2024-02-03', 'Payment received', '100.00 CR'],
        ],
        [40, 120, 400],
      ),
    ];
    expect(parsePdfStatement(table('Checking statement'), options).rows.map((r) => r.values.amount)).toEqual(['4.50', '-12.00', '-100.00']);
    expect(parsePdfStatement(table('Credit Card statement'), options).rows.map((r) => r.values.amount)).toEqual(['-4.50', '12.00', '-100.00']);
  });

  it('signs an amount by a CR or DR printed as its own item after it, and keeps the marker out of the name', () => {
    const table = (title: string) => [
      ...page([[title]], [40], 1, 760),
      ...page(
        [
          ['Date', 'Description', 'Amount', '', 'Balance'],
          ['2024-02-01', 'Coffee', '4.50', 'DR', '95.50'],
          ['2024-02-02', 'Payment received', '100.00', 'CR', '4.50', 'CR'],
        ],
        [40, 120, 400, 432, 480, 512],
      ),
    ];
    const read = (title: string) => parsePdfStatement(table(title), options).rows.map((r) => [r.values.name, r.values.amount, r.errors]);
    const expected = [
      ['Coffee', '4.50', []],
      ['Payment received', '-100.00', []],
    ];
    expect(read('Checking statement')).toEqual(expected);
    expect(read('Credit Card statement')).toEqual(expected);
  });

  it('does not take a bank statement for a credit card statement because a transaction is a credit card payment', () => {
    const items = [
      ...page([['Checking statement']], [40], 1, 760),
      ...page(
        [
          ['Date', 'Description', 'Amount'],
          ['2024-02-01', 'Coffee', '-4.50'],
          ['2024-02-02', 'Credit card payment', '-100.00'],
          ['2024-02-03', 'Salary', '2,000.00'],
        ],
        [40, 120, 400],
      ),
    ];
    expect(parsePdfStatement(items, options).rows.map((r) => r.values.amount)).toEqual(['4.50', '100.00', '-2000.00']);
  });

  it('does not take a bank statement for a credit card statement because its footer advertises a credit card', () => {
    const items = [
      ...page([['Checking statement']], [40], 1, 760),
      ...page(
        [
          ['Date', 'Description', 'Amount'],
          ['2024-02-01', 'Coffee', '-4.50'],
          ['2024-02-03', 'Salary', '2,000.00'],
        ],
        [40, 120, 400],
      ),
      ...page([['Apply for our Rewards Credit Card today']], [40], 1, 80),
      ...page([['Page 2 of 2'], ['Ask us about our credit card offers']], [40], 2, 760),
    ];
    expect(parsePdfStatement(items, options).rows.map((r) => r.values.amount)).toEqual(['4.50', '-2000.00']);
  });

  it('reads tables that continue on later pages under a repeated header, and month-name dates', () => {
    const header = ['Date', 'Details', 'Money out', 'Money in'];
    const items = [
      ...page([header, ['01 Mar 2024', 'Bakery', '3.20', '']], [40, 130, 350, 430], 1),
      ...page([header, ['02 Mar 2024', 'Refund shop', '', '7.00']], [40, 130, 350, 430], 2),
    ];
    expect(parsePdfStatement(items, options).rows.map((r) => [r.values.date, r.values.amount])).toEqual([
      ['2024-03-01', '3.20'],
      ['2024-03-02', '-7.00'],
    ]);
  });

  it('joins a description that continues at the top of the next page, under the repeated header', () => {
    const header = ['Date', 'Description', 'Debit', 'Credit', 'Balance'];
    const xs = [40, 110, 330, 400, 480];
    const items = [
      ...page([['Acme Bank statement']], [40], 1, 760),
      ...page([header, ['23/01/2024', 'Grocer', '45.99', '', '954.01'], ['24/01/2024', 'Card payment', '12.00', '', '942.01']], xs, 1),
      ...page([['Page 1 of 2']], [40], 1, 60),
      ...page([['Acme Bank statement'], ['Account 12345678']], [40], 2, 760),
      ...page([header, ['', 'ACME SUPERSTORE', '', '', ''], ['', 'LONDON GB', '', '', ''], ['25/01/2024', 'Rent', '1,200.00', '', '-257.99']], xs, 2),
    ];
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-01-23', 'Grocer', '45.99', []],
      ['2024-01-24', 'Card payment ACME SUPERSTORE LONDON GB', '12.00', []],
      ['2024-01-25', 'Rent', '1200.00', []],
    ]);
  });

  it('keeps description text that runs into the first money column, or is a number before it, in the name', () => {
    const description = 'Salary ACME Holdings Ltd payroll January 2024 REF42'; // ends 10 units into the Debit column
    const items = [
      ...page([['Date', 'Description', 'Debit', 'Credit', 'Balance'], ['24/01/2024', description, '', '2,500.00', '3,454.01']], [40, 110, 330, 400, 480]),
      ...page([['25/01/2024', 'Transfer to savings', '12345678', '100.00', '3,354.01']], [40, 110, 210, 330, 480], 1, 672),
    ];
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-01-24', description, '-2500.00', []],
      ['2024-01-25', 'Transfer to savings 12345678', '100.00', []],
    ]);
  });

  it('dates a row printed without a date with the dated row above it in the same table, across pages', () => {
    const header = ['Date', 'Description', 'Debit', 'Credit', 'Balance'];
    const xs = [40, 110, 330, 400, 480];
    const items = [
      ...page(
        [
          header,
          ['', 'Opening balance', '', '', '1,000.00'],
          ['23/01/2024', 'Grocer', '45.99', '', ''],
          ['', 'Bakery', '3.20', '', ''],
          ['', 'High Street', '', '', ''],
          ['', '', '', '7.00', '957.81'],
        ],
        xs,
      ),
      ...page(
        [
          header,
          ['', 'Cafe', '2.50', '', ''],
          ['24/01/2024', 'Rent', '1,200.00', '', ''],
          ['', 'Totals', '1,251.69', '7.00', '-244.69'],
          ['', 'Money out', '1,251.69', '', ''],
          ['', 'Payments in', '', '7.00', ''],
        ],
        xs,
        2,
      ),
    ];
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-01-23', 'Grocer', '45.99', []],
      ['2024-01-23', 'Bakery High Street', '3.20', []],
      ['2024-01-23', 'Imported item', '-7.00', []],
      ['2024-01-23', 'Cafe', '2.50', []],
      ['2024-01-24', 'Rent', '1200.00', []],
    ]);
  });

  it('reads a dated line whose amount is printed on its wrapped line below as one row, whose date the next rows take', () => {
    const items = page(
      [
        ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
        ['03/01/2024', 'Card payment ACME', '', '', ''],
        ['', 'SUPERSTORE LONDON', '45.99', '', '954.01'],
        ['', 'REF 0042', '', '', ''],
        ['', 'Bakery', '3.20', '', '950.81'],
        ['04/01/2024', 'Salary', '', '', ''],
        ['', 'ACME Ltd', '', '2,500.00', '3,450.81'],
        // A dated line without an amount on it or under it is a note, not a transaction.
        ['24/01/2024', 'Your overdraft limit is now 500.00', '', '', ''],
        ['25/01/2024', 'Rent', '1,200.00', '', '2,250.81'],
      ],
      [40, 110, 330, 400, 480],
    );
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-01-03', 'Card payment ACME SUPERSTORE LONDON REF 0042', '45.99', []],
      ['2024-01-03', 'Bakery', '3.20', []],
      ['2024-01-04', 'Salary ACME Ltd', '-2500.00', []],
      ['2024-01-25', 'Rent', '1200.00', []],
    ]);
  });

  it("dates the rows under a date printed on a line of its own with that date", () => {
    const items = page([['Date', 'Description', 'Amount'], ['23/01/2024'], ['', 'Grocer', '-45.99'], ['24/01/2024'], ['', 'Bakery', '-3.20'], ['', 'Cafe', '-2.50']], [40, 110, 400]);
    expect(parsePdfStatement(items, options).rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-01-23', 'Grocer', '45.99', []],
      ['2024-01-24', 'Bakery', '3.20', []],
      ['2024-01-24', 'Cafe', '2.50', []],
    ]);
  });

  it('skips a dated balance brought forward or opening balance line, whose date the undated rows under it take', () => {
    const items = page(
      [
        ['Date', 'Description', 'Paid out', 'Paid in', 'Balance'],
        ['01 Jan 2024', 'Balance brought forward', '', '', '1,000.00'],
        ['', 'Grocer', '45.99', '', '954.01'],
        ['02 Jan 2024', 'Opening balance', '', '', '954.01'],
        // With an amount, a dated line is a transaction whatever it says; with only a balance, a transaction we cannot read.
        ['03 Jan 2024', 'Opening balance', '', '500.00', '1,454.01'],
        ['04 Jan 2024', 'Cafe', '', '', '1,451.51'],
      ],
      [40, 110, 330, 400, 480],
    );
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-01-01', 'Grocer', '45.99', []],
      ['2024-01-03', 'Opening balance', '-500.00', []],
      ['2024-01-04', 'Cafe', null, ['Row 3 (page 1): no amount was found in the debit, credit or amount columns']],
    ]);
  });

  it('skips a dated beginning balance or balance forward line, as US statements label the balance the period starts with', () => {
    const items = page(
      [
        ['Date', 'Description', 'Amount', 'Balance'],
        ['01/02/2024', 'Beginning balance', '', '1,000.00'],
        ['01/03/2024', 'Grocer', '-45.99', '954.01'],
        ['01/31/2024', 'Balance forward', '', '954.01'],
        ['02/01/2024', 'Bakery', '-3.20', '950.81'],
      ],
      [40, 110, 400, 480],
    );
    expect(parsePdfStatement(items, options).rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-01-03', 'Grocer', '45.99', []],
      ['2024-02-01', 'Bakery', '3.20', []],
    ]);
  });

  it('reads B/F, C/F (brought, carried forward) and b/d, carried down as balance lines, dated or not, and dates the rows under a dated one', () => {
    const items = page(
      [
        ['Date', 'Description', 'Paid out', 'Paid in', 'Balance'],
        ['01 Jan 2024', 'B/F', '', '', '1,000.00'],
        ['', 'Grocer', '45.99', '', '954.01'],
        ['02 Jan 2024', 'Balance b/d', '', '', '954.01'],
        ['', 'Bakery', '3.20', '', '950.81'],
        ['', 'Balance carried down', '', '', '950.81'],
        ['', 'C/F', '', '', '950.81'],
        ['03 Jan 2024', 'B/Fwd Cafe', '2.50', '', '948.31'],
      ],
      [40, 110, 330, 400, 480],
    );
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-01-01', 'Grocer', '45.99', []],
      ['2024-01-02', 'Bakery', '3.20', []],
      ['2024-01-03', 'B/Fwd Cafe', '2.50', []],
    ]);
  });

  it('reads amounts grouped in thousands by spaces or apostrophes, as it reads them grouped by commas or points', () => {
    const items = page(
      [
        ['Date', 'Description', 'Amount'],
        ['23/01/2024', 'Rent', '-1 234.56'],
        ['24/01/2024', 'Salary', '2\u00a0500,00'],
        ['25/01/2024', 'Car', '-12 345 678,90'],
        ['26/01/2024', 'Bonus', "3'250.00"],
      ],
      [40, 110, 400],
    );
    expect(parsePdfStatement(items, options).rows.map((r) => [r.values.amount, r.errors])).toEqual([
      ['1234.56', []],
      ['-2500.00', []],
      ['12345678.90', []],
      ['-3250.00', []],
    ]);
  });

  it('reports an amount finer than the currency as a row error', () => {
    const items = page([['Date', 'Description', 'Amount'], ['23/01/2024', 'Fuel', '-45.999'], ['24/01/2024', 'Bakery', '-3.20']], [40, 110, 400]);
    expect(parsePdfStatement(items, options).rows.map((r) => r.errors)).toEqual([
      ["Row 1 (page 1): amount '45.999' is finer than the EUR minor unit: EUR amounts have 2 decimals"],
      [],
    ]);
  });

  it('takes no date from the rows above for an amount under the end of the table: skips a summary, reports the rest', () => {
    const items = page(
      [
        ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
        ['24/01/2024', 'Grocer', '45.99', '', '954.01'],
        ['', 'Bakery', '3.20', '', '950.81'],
        [],
        // After a gap, a dated line starts the table again.
        ['25/01/2024', 'Rent', '1,200.00', '', '-249.19'],
        ['', 'Cafe', '2.50', '', '-251.69'],
        ['', 'Total debits', '1,251.69', '', ''],
        ['', 'Fees charged this period', '12.00', '', ''],
        [],
        ['', 'Interest paid', '', '3.21', ''],
      ],
      [40, 110, 330, 400, 480],
    );
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-01-24', 'Grocer', '45.99', []],
      ['2024-01-24', 'Bakery', '3.20', []],
      ['2024-01-25', 'Rent', '1200.00', []],
      ['2024-01-25', 'Cafe', '2.50', []],
      [
        null,
        'Interest paid',
        '-3.21',
        ['Row 5 (page 1): the row has an amount but no date, and stands under the end of the table (after a gap or a total line), so it takes no date from the rows above it'],
      ],
    ]);
  });

  it.each([14, 30])('reads wrapped lines, undated rows and the gap under the table alike at a line pitch of %i units', (pitch) => {
    const items = page(
      [
        ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
        ['24/01/2024', 'Grocer', '45.99', '', '954.01'],
        ['', 'ACME STORES', '', '', ''],
        ['', 'Bakery', '3.20', '', '950.81'],
        ['25/01/2024', 'Rent', '1,200.00', '', '-249.19'],
        [],
        ['', 'Interest paid', '', '3.21', ''],
      ],
      [40, 110, 330, 400, 480],
      1,
      750,
      pitch,
    );
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors.length])).toEqual([
      ['2024-01-24', 'Grocer ACME STORES', '45.99', 0],
      ['2024-01-24', 'Bakery', '3.20', 0],
      ['2024-01-25', 'Rent', '1200.00', 0],
      [null, 'Interest paid', '-3.21', 1],
    ]);
  });

  it('reports a row with an amount but no date when no dated row is above it in its table', () => {
    const items = [
      ...page([['Date', 'Description', 'Debit', 'Credit'], ['', 'Card fee', '2.00', ''], ['23/01/2024', 'Grocer', '45.99', '']], [40, 110, 330, 400]),
      // Another table (other columns) does not take the first one's dates.
      ...page([['Date', 'Description', 'Amount'], ['', 'Interest', '0.50']], [40, 110, 400], 1, 600),
    ];
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      [null, 'Card fee', '2.00', ['Row 1 (page 1): the row has an amount but no date, and no row above it in its table has one']],
      ['2024-01-23', 'Grocer', '45.99', []],
      [null, 'Interest', '-0.50', ['Row 3 (page 1): the row has an amount but no date, and no row above it in its table has one']],
    ]);
  });

  it('reads an M-Pesa statement (Completion Time, Paid In, Withdrawn), printed newest first, and checks it that way round', () => {
    const xs = [30, 90, 180, 340, 440, 500, 560];
    const items = [
      ...page([['M-PESA STATEMENT'], ['Customer Name: Jane Wanjiku'], ['Statement Period: 15 Jan 2023 - 17 Jan 2023']], [30], 1, 760),
      ...page(
        [
          ['Receipt No.', 'Completion Time', 'Details', 'Transaction Status', 'Paid In', 'Withdrawn', 'Balance'],
          ['RKH7TQ2L9P', '2023-01-17 18:05:11', 'Pay Bill to 888880 - KPLC PREPAID', 'Completed', '', '-1,500.00', '3,463.00'],
          ['', '', 'Acc. 37191234567', '', '', '', ''],
          ['RKG4MN8K2D', '2023-01-16 09:12:46', 'Customer Transfer of Funds Charge', 'Completed', '', '-7.00', '4,963.00'],
          ['RKG4MN8K2C', '2023-01-16 09:12:45', 'Customer Transfer to 0712***678', 'Completed', '', '-30.00', '4,970.00'],
          ['RKF1AB3CD4', '2023-01-15 10:22:33', 'Funds received from 0722***111', 'Completed', '2,000.00', '', '5,000.00'],
        ],
        xs,
      ),
    ];
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.values.notes, r.errors])).toEqual([
      ['2023-01-17', 'Pay Bill to 888880 - KPLC PREPAID Acc. 37191234567', '1500.00', 'Receipt No.: RKH7TQ2L9P; Transaction Status: Completed', []],
      ['2023-01-16', 'Customer Transfer of Funds Charge', '7.00', 'Receipt No.: RKG4MN8K2D; Transaction Status: Completed', []],
      ['2023-01-16', 'Customer Transfer to 0712***678', '30.00', 'Receipt No.: RKG4MN8K2C; Transaction Status: Completed', []],
      ['2023-01-15', 'Funds received from 0722***111', '-2000.00', 'Receipt No.: RKF1AB3CD4; Transaction Status: Completed', []],
    ]);
    // The same statement with a balance misprinted: the row newer than the balance it follows from is the one reported.
    const wrong = items.map((i) => (i.text === '4,963.00' ? { ...i, text: '4,936.00' } : i));
    expect(parsePdfStatement(wrong, options).rows.map((r) => r.errors)).toEqual([
      ['Row 1 (page 1): the balance printed on it, 3463.00, does not reconcile: the balance before it, 4936.00, minus 1500.00 (the row\'s amount) is 3436.00'],
      ['Row 2 (page 1): the balance printed on it, 4936.00, does not reconcile: the balance before it, 4970.00, minus 7.00 (the row\'s amount) is 4963.00'],
      [],
      [],
    ]);
  });

  it('reads a German statement (Buchungstag, Verwendungszweck, Soll, Haben, Saldo) with its value dates as notes', () => {
    const items = [
      ...page([['Kontoauszug Nr. 1/2024'], ['Girokonto DE02 1203 0000 0000 2020 51']], [40], 1, 760),
      ...page(
        [
          ['Buchungstag', 'Valuta', 'Verwendungszweck', 'Soll', 'Haben', 'Saldo'],
          ['', '', 'Alter Kontostand', '', '', '1.000,00'],
          ['02.01.2024', '02.01.2024', 'REWE Markt Berlin', '45,99', '', '954,01'],
          ['03.01.2024', '04.01.2024', 'Gehalt ACME GmbH', '', '2.500,00', '3.454,01'],
          ['', '', 'Januar 2024', '', '', ''],
          ['15.01.2024', '15.01.2024', 'Miete Januar', '1.200,00', '', '2.254,01'],
          ['', '', 'Neuer Kontostand', '', '', '2.254,01'],
        ],
        [40, 110, 180, 360, 420, 480],
      ),
    ];
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.values.notes, r.errors])).toEqual([
      ['2024-01-02', 'REWE Markt Berlin', '45.99', 'Valuta: 02.01.2024', []],
      ['2024-01-03', 'Gehalt ACME GmbH Januar 2024', '-2500.00', 'Valuta: 04.01.2024', []],
      ['2024-01-15', 'Miete Januar', '1200.00', 'Valuta: 15.01.2024', []],
    ]);
  });

  it('finds a table whose column names it does not know by its shape, and tells money out from in by the balance', () => {
    const rowsOf = (lines: string[][]) => page([['Taarifa ya akaunti'], ['Tarehe', 'Maelezo', 'Kutoa', 'Kuweka', 'Salio'], ...lines], [40, 110, 330, 400, 480]);
    const items = rowsOf([
      ['14/03/2024', 'Duka la Mama', '250.00', '', '4,750.00'],
      ['15/03/2024', 'Mshahara', '', '3,000.00', '7,750.00'],
      ['18/03/2024', 'Kodi ya nyumba', '2,500.00', '', '5,250.00'],
      ['20/03/2024', 'Umeme', '120.50', '', '5,129.50'],
    ]);
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-03-14', 'Duka la Mama', '250.00', []],
      ['2024-03-15', 'Mshahara', '-3000.00', []],
      ['2024-03-18', 'Kodi ya nyumba', '2500.00', []],
      ['2024-03-20', 'Umeme', '120.50', []],
    ]);
    // The columns the other way round: the balance says which one is money out.
    const swapped = rowsOf([
      ['14/03/2024', 'Duka la Mama', '', '250.00', '4,750.00'],
      ['15/03/2024', 'Mshahara', '3,000.00', '', '7,750.00'],
      ['18/03/2024', 'Kodi ya nyumba', '', '2,500.00', '5,250.00'],
    ]);
    expect(parsePdfStatement(swapped, options).rows.map((r) => r.values.amount)).toEqual(['250.00', '-3000.00', '2500.00']);
    // A single money column is an amount, signed as printed; a time printed under the date is no part of the name.
    const single = page([['Tarehe', 'Maelezo', 'Kiasi'], ['14/03/2024', 'Duka la Mama', '-250.00'], ['10:22:33'], ['15/03/2024 09:12', 'Mshahara', '3,000.00']], [40, 130, 400]);
    expect(parsePdfStatement(single, options).rows.map((r) => [r.values.date, r.values.name, r.values.amount, r.errors])).toEqual([
      ['2024-03-14', 'Duka la Mama', '250.00', []],
      ['2024-03-15', 'Mshahara', '-3000.00', []],
    ]);
  });

  it('reports a row whose printed balance does not reconcile, and rows without one checked together at the next', () => {
    const items = page(
      [
        ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
        ['', 'Opening balance', '', '', '1,000.00'],
        ['13/01/2024', 'Grocer', '45.99', '', '954.01'],
        ['14/01/2024', 'Bakery', '3.20', '', '960.81'],
        ['15/01/2024', 'Cafe', '2.50', '', ''],
        ['15/01/2024', 'Salary', '', '100.00', '1,058.31'],
        ['16/01/2024', 'Rent', '500.00', '', ''],
        ['16/01/2024', 'Card fee', '1.00', '', '556.31'],
        ['', 'Closing balance', '', '', '556.31'],
      ],
      [40, 110, 330, 400, 480],
    );
    const { rows, fileErrors } = parsePdfStatement(items, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => r.errors)).toEqual([
      [],
      ["Row 2 (page 1): the balance printed on it, 960.81, does not reconcile: the balance before it, 954.01, minus 3.20 (the row's amount) is 950.81"],
      [],
      [],
      [],
      ['Row 6 (page 1): the balance printed on it, 556.31, does not reconcile: the balance before it, 1058.31, minus 501.00 (the amounts of rows 5 to 6) is 557.31'],
    ]);
    // A total line's balance checks the rows above it that print none.
    const totals = page(
      [
        ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
        ['', 'Balance brought forward', '', '', '1,000.00'],
        ['13/01/2024', 'Grocer', '45.99', '', ''],
        ['14/01/2024', 'Bakery', '3.20', '', ''],
        ['', 'Totals', '49.19', '', '950.00'],
      ],
      [40, 110, 330, 400, 480],
    );
    expect(parsePdfStatement(totals, options).rows.map((r) => r.errors)).toEqual([
      [],
      ["Row 2 (page 1): the balance printed on the line 'Totals' after it, 950.00, does not reconcile: the balance before it, 1000.00, minus 49.19 (the amounts of rows 1 to 2) is 950.81"],
    ]);
  });

  it('refuses a table whose money columns neither their names nor a reconciling balance tell apart', () => {
    const noBalance = page(
      [
        ['Tarehe', 'Maelezo', 'Kutoa', 'Kuweka'],
        ['14/03/2024', 'Duka la Mama', '250.00', ''],
        ['15/03/2024', 'Mshahara', '', '3,000.00'],
      ],
      [40, 110, 330, 400],
    );
    expect(parsePdfStatement(noBalance, options)).toMatchObject({
      rows: [],
      errorCode: 'unsupported_pdf',
      fileErrors: [expect.stringMatching(/^The statement's columns 'Kutoa', 'Kuweka' could not be told apart: .* no reading of them makes a balance column reconcile/)],
    });
    const noReconcile = page(
      [
        ['Tarehe', 'Maelezo', 'Kutoa', 'Kuweka', 'Salio'],
        ['14/03/2024', 'Duka la Mama', '250.00', '', '4,750.00'],
        ['15/03/2024', 'Mshahara', '', '3,000.00', '9,999.00'],
        ['18/03/2024', 'Kodi ya nyumba', '2,500.00', '', '1,234.00'],
      ],
      [40, 110, 330, 400, 480],
    );
    expect(parsePdfStatement(noReconcile, options)).toMatchObject({ rows: [], fileErrors: [expect.stringContaining("'Kutoa', 'Kuweka', 'Salio' could not be told apart")] });
    // Money out named, the other column not: it is money in only if it does not reconcile as the balance, which is a guess.
    const half = page(
      [
        ['Date', 'Description', 'Withdrawn', 'Lodged'],
        ['14/03/2024', 'Grocer', '250.00', ''],
        ['15/03/2024', 'Salary', '', '3,000.00'],
      ],
      [40, 110, 330, 400],
    );
    expect(parsePdfStatement(half, options)).toMatchObject({ rows: [], fileErrors: [expect.stringContaining("'Lodged' could not be told apart")] });
  });

  it('refuses a PDF without text and one without a transaction table', () => {
    expect(parsePdfStatement([], options)).toMatchObject({ errorCode: 'unsupported_pdf', fileErrors: [expect.stringContaining('no text layer')] });
    const letter = page([['Dear customer,'], ['Your card ending 1234 was renewed on 01/02/2024.']], [40]);
    expect(parsePdfStatement(letter, options)).toMatchObject({ errorCode: 'unsupported_pdf', fileErrors: [expect.stringContaining('No transaction table')] });
  });
});

describe('parsePdfStatement: descriptions longer than an entry name holds', () => {
  it('reports them as row errors', () => {
    const header = page([['Date', 'Description', 'Amount']], [40, 110, 400]);
    const text = 'd'.repeat(501);
    const row: PositionedText[] = [
      { text: '03/01/2024', page: 1, x: 40, y: 686, width: 40 },
      { text, page: 1, x: 110, y: 686, width: 200 }, // a long text in a small font
      { text: '-45.99', page: 1, x: 400, y: 686, width: 25 },
    ];
    const { rows } = parsePdfStatement([...header, ...row], options);
    expect(rows.map((r) => r.errors)).toEqual([[`Row 1 (page 1): description '${'d'.repeat(40)}…' is too long: transaction names can have at most 500 characters`]]);
  });
});

describe('parsePdfStatement: date range', () => {
  it('accepts dates from 30 years ago up to today, like every import format', () => {
    const items = page([['Date', 'Description', 'Amount'], ['21/11/1996', 'Old', '-1.00'], ['22/11/1996', 'Oldest allowed', '-1.00'], ['23/11/2026', 'Tomorrow', '-1.00']], [40, 110, 400]);
    expect(parsePdfStatement(items, options).rows.map((r) => r.errors)).toEqual([
      ['Row 1 (page 1): date 1996-11-21 must be between 1996-11-22 and 2026-11-22'],
      [],
      ['Row 3 (page 1): date 2026-11-23 must be between 1996-11-22 and 2026-11-22'],
    ]);
  });
});
