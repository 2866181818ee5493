import { readFileSync } from 'node:fs';
import { realworldDir } from '../../../../tools/test-support/realworld';
import { CsvImportSettings, parseImportContent, ParseOptions } from './csv-import';

const settings = (overrides: Partial<CsvImportSettings> = {}): CsvImportSettings => ({
  type: 'TransactionImport',
  colSep: ',',
  dateColLabel: null,
  amountColLabel: null,
  nameColLabel: null,
  categoryColLabel: null,
  tagsColLabel: null,
  notesColLabel: null,
  accountColLabel: null,
  qtyColLabel: null,
  tickerColLabel: null,
  priceColLabel: null,
  entityTypeColLabel: null,
  currencyColLabel: null,
  exchangeOperatingMicColLabel: null,
  dateFormat: '%Y-%m-%d',
  numberFormat: '1,234.56',
  signageConvention: 'inflows_positive',
  amountTypeStrategy: 'signed_amount',
  amountTypeInflowValue: null,
  ...overrides,
});
const options: ParseOptions = { maxRows: 1000, defaultCurrency: 'USD', hasAccount: true, today: new Date('2026-11-22T12:00:00Z') };

describe('parseImportContent: transactions', () => {
  it('turns inflows-positive amounts into outflow-positive decimals, finding columns by alias', () => {
    const csv = 'Date,Amount,Description,Category,Tags,Notes\r\n2024-03-01,-45.99,Grocer,Food,weekly|food,first\r\n2024-03-02,"2,500.00",Payroll,,,\r\n';
    const { rows, fileErrors } = parseImportContent(settings(), csv, options);
    expect(fileErrors).toEqual([]);
    expect(rows).toEqual([
      {
        sourceRowNumber: 1,
        errors: [],
        values: { date: '2024-03-01', amount: '45.99', currency: 'USD', name: 'Grocer', category: 'Food', tags: ['weekly', 'food'], notes: 'first', account: null },
      },
      {
        sourceRowNumber: 2,
        errors: [],
        values: { date: '2024-03-02', amount: '-2500.00', currency: 'USD', name: 'Payroll', category: null, tags: [], notes: null, account: null },
      },
    ]);
  });

  it('reads semicolon files in the 1.234,56 format with inflows negative', () => {
    const csv = 'Datum;Betrag;Name\n01.03.2024;1.234,50;Miete';
    const { rows } = parseImportContent(
      settings({ colSep: ';', dateColLabel: 'Datum', amountColLabel: 'Betrag', nameColLabel: 'Name', dateFormat: '%d.%m.%Y', numberFormat: '1.234,56', signageConvention: 'inflows_negative' }),
      csv,
      options,
    );
    expect(rows[0].values).toMatchObject({ date: '2024-03-01', amount: '1234.50', name: 'Miete' });
  });

  it('signs amounts by a type column with the custom_column strategy', () => {
    const csv = 'date,amount,kind\n2024-03-01,10,CR\n2024-03-02,10,DR';
    const { rows } = parseImportContent(settings({ amountTypeStrategy: 'custom_column', entityTypeColLabel: 'kind', amountTypeInflowValue: 'CR' }), csv, options);
    expect(rows.map((r) => r.values.amount)).toEqual(['-10', '10']);
  });

  it('matches the custom_column inflow value as the trimmed cells are read: surrounding spaces in either do not count', () => {
    const csv = 'date,amount,kind\n2024-03-01,10, CR \n2024-03-02,10,DR';
    const { rows } = parseImportContent(settings({ amountTypeStrategy: 'custom_column', entityTypeColLabel: 'kind', amountTypeInflowValue: ' CR ' }), csv, options);
    expect(rows.map((r) => r.values.amount)).toEqual(['-10', '10']);
  });

  it('refuses a custom_column file without the type column as a whole, rather than reading every row as an outflow', () => {
    const custom = settings({ amountTypeStrategy: 'custom_column', entityTypeColLabel: 'kind', amountTypeInflowValue: 'CR' });
    expect(parseImportContent(custom, 'date,amount,memo\n2024-03-01,10,CR', options)).toEqual({
      rows: [],
      errorCode: 'invalid_csv',
      fileErrors: ['The CSV is missing required columns: kind'],
    });
    expect(parseImportContent(custom, 'date,amount,type\n2024-03-01,10,CR', options).rows[0]).toMatchObject({ errors: [], values: { amount: '-10' } });
  });

  it('reports each bad cell with its row and column, keeping the other rows', () => {
    const csv = 'date,amount,currency\n2024-03-01,abc,USD\n1990-01-01,5,USD\n2024-03-03,5,XYZ\n2030-01-01,5,USD\n2024-03-05,5,EUR';
    const { rows } = parseImportContent(settings({ currencyColLabel: 'currency' }), csv, options);
    expect(rows.map((r) => r.errors)).toEqual([
      ["Row 1: amount 'abc' is not a number in the format 1,234.56"],
      ['Row 2: date 1990-01-01 must be between 1996-11-22 and 2026-11-22'],
      ["Row 3: currency 'XYZ' is not a valid currency code"],
      ['Row 4: date 2030-01-01 must be between 1996-11-22 and 2026-11-22'],
      [],
    ]);
    expect(rows[4].values.currency).toBe('EUR');
  });

  it('keeps a date cell that gave the row no date as raw_date, for every type that reads dates', () => {
    const dates = (type: CsvImportSettings['type'], csv: string) => parseImportContent(settings({ type }), csv, options).rows.map((r) => [r.values.date, r.values.raw_date]);
    expect(dates('TransactionImport', 'date,amount\n31/02/2024,1\n1990-01-01,1\n2024-03-01,1\n,1')).toEqual([
      [null, '31/02/2024'],
      [null, '1990-01-01'],
      ['2024-03-01', undefined],
      [null, undefined],
    ]);
    expect(dates('TradeImport', 'date,ticker,qty,price\nyesterday,VTI,1,10')).toEqual([[null, 'yesterday']]);
    expect(dates('AccountImport', 'name,balance,date\nChecking,1,1/2/24\nSavings,1,')).toEqual([
      [null, '1/2/24'],
      [null, undefined],
    ]);
  });

  it('requires an account per row when the import has none', () => {
    const csv = 'date,amount,account\n2024-03-01,5,\n2024-03-02,5,Savings';
    const { rows } = parseImportContent(settings(), csv, { ...options, hasAccount: false });
    expect(rows[0].errors).toEqual(['Row 1: account is required (no account_id was given and the row names no account)']);
    expect(rows[1]).toMatchObject({ errors: [], values: { account: 'Savings' } });
  });

  it('refuses files without required columns, header or rows, and with broken quotes, as a whole', () => {
    const parse = (csv: string) => parseImportContent(settings(), csv, options);
    expect(parse('name,notes\nx,y')).toMatchObject({ rows: [], errorCode: 'invalid_csv', fileErrors: ['The CSV is missing required columns: date, amount'] });
    expect(parse('date,amount\n')).toMatchObject({ fileErrors: ['The CSV has a header but no rows'] });
    expect(parse('date,amount,Date\n2024-01-01,1,2')).toMatchObject({ fileErrors: [expect.stringMatching(/^The CSV has two columns named 'date' \(columns 1 and 3\)/)] });
    expect(parse('date,amount\n2024-01-01,"1')).toMatchObject({ errorCode: 'invalid_csv', fileErrors: [expect.stringContaining('unbalanced quotes')] });
  });

  it('names the other separator when the header is one column holding it, instead of only the missing columns', () => {
    // A European bank export sent without col_sep: the whole header is one column.
    const semicolons = parseImportContent(settings(), 'Date;Amount;Description\n01.03.2024;-1,50;Bakery', options);
    expect(semicolons).toMatchObject({
      errorCode: 'invalid_csv',
      fileErrors: [
        "The CSV is missing required columns: date, amount (its header is one column, 'Date;Amount;Description': set col_sep to semicolon)",
      ],
    });
    const commas = parseImportContent(settings({ colSep: ';' }), 'Date,Amount\n2024-03-01,-1.50', options);
    expect(commas.fileErrors).toEqual(["The CSV is missing required columns: date, amount (its header is one column, 'Date,Amount': set col_sep to comma)"]);
    // A one-column header without the other separator keeps the plain message.
    expect(parseImportContent(settings(), 'Notes\nx', options).fileErrors).toEqual(['The CSV is missing required columns: date, amount']);
  });

  it('reads a bank export without an amount column from its Debit and Credit (or Withdrawal and Deposit) magnitudes, whatever signage_convention says', () => {
    const card = 'Transaction Date,Posted Date,Card No.,Description,Category,Debit,Credit\n2024-01-02,2024-01-03,1234,STARBUCKS,Dining,4.50,\n2024-01-04,2024-01-04,1234,PAYMENT THANK YOU,Payment,,500.00\n2024-01-05,2024-01-05,1234,Nothing,,,';
    const read = parseImportContent(settings({ dateColLabel: 'Transaction Date' }), card, options);
    expect(read.rows.map((r) => [r.values.name, r.values.amount, r.errors])).toEqual([
      ['STARBUCKS', '4.50', []],
      ['PAYMENT THANK YOU', '-500.00', []],
      ['Nothing', null, ['Row 3: Debit or Credit is required']],
    ]);
    // A debit printed with a minus in its own column is still money out; the columns say the direction, not the sign convention.
    const bank = 'Date,Description,Withdrawals,Deposits,Balance\n2024-01-02,Rent,"-1,200.00",,800.00\n2024-01-03,Pay,,"2,000.00","2,800.00"\n2024-01-04,Fee,x,,';
    const signed = parseImportContent(settings({ signageConvention: 'inflows_negative' }), bank, options);
    expect(signed.rows.map((r) => [r.values.amount, r.errors])).toEqual([
      ['1200.00', []],
      ['-2000.00', []],
      [null, ["Row 3: Withdrawals 'x' is not a number in the format 1,234.56"]],
    ]);
    // An amount column, configured or named so, wins; without either side the file is refused as before.
    expect(parseImportContent(settings(), 'Date,Amount,Debit,Credit\n2024-01-02,-3.00,9.00,', options).rows[0].values.amount).toBe('3.00');
    expect(parseImportContent(settings({ amountColLabel: 'Betrag' }), 'Date,Debit,Credit\n2024-01-02,9.00,', options).fileErrors).toEqual([
      'The CSV is missing required columns: Betrag',
    ]);
    expect(parseImportContent(settings(), 'Date,Description,Balance\n2024-01-02,Rent,800.00', options).fileErrors).toEqual(['The CSV is missing required columns: amount']);
  });

  it('reads money-out and money-in columns by the names outflow_col_label and inflow_col_label give', () => {
    // Schwab's checking export: Withdrawal (-) and Deposit (+), names no common-name rule knows.
    const schwab = 'Date,Type,Description,Withdrawal (-),Deposit (+),RunningBalance\n01/02/2024,ATM,CASH,$60.00,,$940.00\n01/03/2024,DEPOSIT,PAYROLL,,"$2,000.00","$2,940.00"';
    const imp = settings({ dateFormat: '%m/%d/%Y', outflowColLabel: 'Withdrawal (-)', inflowColLabel: 'Deposit (+)', nameColLabel: 'Description' });
    const read = parseImportContent(imp, schwab, options);
    expect(read.fileErrors).toEqual([]);
    expect(read.rows.map((r) => [r.values.name, r.values.amount, r.errors])).toEqual([
      ['CASH', '60.00', []],
      ['PAYROLL', '-2000.00', []],
    ]);
    // One side alone is enough (a card export of charges); each side named must be in the file.
    expect(parseImportContent(settings({ dateFormat: '%m/%d/%Y', outflowColLabel: 'Withdrawal (-)' }), schwab, options).rows[0].values.amount).toBe('60.00');
    expect(parseImportContent({ ...imp, inflowColLabel: 'Paid in' }, schwab, options).fileErrors).toEqual(['The CSV is missing required columns: Paid in']);
  });

  it("leaves out Excel's separator line (sep=;) above the header, naming col_sep when it is not the file's", () => {
    const eu = settings({ colSep: ';', dateFormat: '%d.%m.%Y', numberFormat: '1.234,56' });
    for (const csv of ['sep=;\r\nDate;Amount;Name\r\n01.03.2024;-1,50;Bakery', '"sep=;"\nDate;Amount;Name\n01.03.2024;-1,50;Bakery', 'SEP=;\n\nDate;Amount;Name\n01.03.2024;-1,50;Bakery']) {
      const read = parseImportContent(eu, csv, options);
      expect({ fileErrors: read.fileErrors, rows: read.rows.map((r) => [r.sourceRowNumber, r.values.amount, r.values.name, r.errors]) }).toEqual({
        fileErrors: [],
        rows: [[1, '1.50', 'Bakery', []]],
      });
    }
    expect(parseImportContent(settings(), 'sep=,\nDate,Amount\n2024-03-01,-1.50', options).rows.map((r) => r.values.amount)).toEqual(['1.50']);
    expect(parseImportContent(settings(), 'sep=;\nDate;Amount\n01.03.2024;-1,50', options).fileErrors).toEqual([
      "The CSV is missing required columns: date, amount (its header is one column, 'Date;Amount': set col_sep to semicolon)",
    ]);
  });

  it('numbers the row with unbalanced quotes as every other message does: the n-th data row', () => {
    const parse = (csv: string) => parseImportContent(settings(), csv, options).fileErrors;
    expect(parse('date,amount,name\n2024-01-01,5,"Bob "Best\n2024-01-02,2,"x"')).toEqual(['The CSV could not be parsed: unbalanced quotes near row 1']);
    expect(parse('date,amount,name\n2024-01-01,1,a\n\n ,, \n2024-01-02,2,"Tea\n2024-01-03,3,x')).toEqual(['The CSV could not be parsed: unbalanced quotes near row 2']);
    expect(parse('"date,amount\n2024-01-01,1')).toEqual(['The CSV could not be parsed: unbalanced quotes in the header']);
  });

  it('reads a stray quote inside a quoted field literally, and a field it splits as a row error', () => {
    const parse = (csv: string) => parseImportContent(settings(), csv, options);
    const read = parse('date,amount,name\n2024-01-01,5,"Bob "Best" Diner"\n2024-01-02,6,x');
    expect(read.fileErrors).toEqual([]);
    expect(read.rows.map((r) => [r.values.name, r.errors])).toEqual([['Bob "Best" Diner', []], ['x', []]]);
    const split = parse('date,amount,name\n2024-01-01,5,"Bob "Best", Diner"\n2024-01-02,6,x');
    expect(split.rows.map((r) => r.errors)).toEqual([['Row 1: has 4 columns, the header has 3'], []]);
  });

  it('reads rows that end with a separator the header lacks (or the other way round) as aligned: the cells past it are empty', () => {
    const parse = (csv: string) => parseImportContent(settings({ colSep: ';', dateFormat: '%d.%m.%Y', numberFormat: '1.234,56' }), csv, options).rows;
    // A European bank export that ends every data line with ';' but not its header, and one that ends only its header so.
    for (const csv of ['Date;Amount;Name\n01.03.2024;-1,50;Bakery;\n02.03.2024;-2,00;Kiosk;', 'Date;Amount;Name;\n01.03.2024;-1,50;Bakery\n02.03.2024;-2,00;Kiosk']) {
      expect(parse(csv).map((r) => [r.values.amount, r.values.name, r.errors])).toEqual([['1.50', 'Bakery', []], ['2.00', 'Kiosk', []]]);
    }
    // A cell past the header that holds something, or a named column a row lacks, is still a shifted row.
    expect(parse('Date;Amount;Name\n01.03.2024;-1,50;Bakery;x').map((r) => r.errors)).toEqual([['Row 1: has 4 columns, the header has 3']]);
    expect(parse('Date;Amount;Name;Notes\n01.03.2024;-1,50;Bakery\n02.03.2024;-2,00;Kiosk;x').map((r) => r.errors)).toEqual([['Row 1: has 3 columns, the header has 4'], []]);
  });

  it('reads rows shorter than the header as aligned when every column they lack is empty in the whole file', () => {
    // A statement that stops each line after its last filled cell: nothing in the file fills Originator or Party.
    const csv = 'Account,Date,Name,Amount,Reference,Originator,Party,\nA1,2024-03-01,Shop,5.00,,\nA1,2024-03-02,Kiosk,2.00,R7,\nA1,2024-03-03,Bar,1.00,';
    const { rows } = parseImportContent(settings(), csv, options);
    expect(rows.map((r) => [r.values.name, r.values.amount, r.errors])).toEqual([['Shop', '-5.00', []], ['Kiosk', '-2.00', []], ['Bar', '-1.00', []]]);
    // A row that lacks a column other rows fill is still shifted.
    const shifted = parseImportContent(settings(), `${csv}\nA1,2024-03-04,Cafe,3.00,R8,Bank,x`, options).rows;
    expect(shifted.map((r) => r.errors)).toEqual([
      ['Row 1: has 6 columns, the header has 8'],
      ['Row 2: has 6 columns, the header has 8'],
      ['Row 3: has 5 columns, the header has 8'],
      [],
    ]);
  });

  it('refuses a repeated column name only when the import reads it, and says how to pick one', () => {
    // A Monefy export writes `currency` twice; a TransactionImport without currency_col_label never reads it.
    const monefy = 'date,account,category,amount,currency,converted amount,currency,description\n2021-12-06,Cash,Bills,-55,USD,-55,USD,fbbd';
    const read = parseImportContent(settings(), monefy, { ...options, hasAccount: false });
    expect(read.fileErrors).toEqual([]);
    expect(read.rows.map((r) => [r.values.amount, r.values.name, r.values.account, r.errors])).toEqual([['55', 'fbbd', 'Cash', []]]);
    const withCurrency = parseImportContent(settings({ currencyColLabel: 'currency' }), monefy, { ...options, hasAccount: false });
    expect(withCurrency).toMatchObject({
      rows: [],
      errorCode: 'invalid_csv',
      fileErrors: [
        "The CSV has two columns named 'currency' (columns 5 and 7), and the import reads that column: rename the one to read (its header) and set the matching *_col_label to the new name, or rename the other",
      ],
    });
    // A name read only as a fallback (the alias description for the name) is read, so refused too.
    const names = parseImportContent(settings(), 'date,amount,description,Description\n2024-01-01,1,a,b', options);
    expect(names.fileErrors).toEqual([expect.stringMatching(/^The CSV has two columns named 'description' \(columns 3 and 4\)/)]);
     // A column only split parents read is refused on those rows: the file's other rows do not need it.
    const actual = 'Account,Date,Payee,Notes,Category,Amount,Split_Amount,Split_Amount\n'
      + 'Checking,2024-03-05,Costco,(SPLIT INTO 1),,0,-70.00,-70.00\nChecking,2024-03-05,Costco,(SPLIT 1 OF 1),Food,-70.00,0,0\nChecking,2024-03-06,Cafe,,Coffee,-4.50,0,0';
    const splits = parseImportContent(settings({ type: 'ActualImport' }), actual, { ...options, hasAccount: false });
    expect(splits.fileErrors).toEqual([]);
    expect(splits.rows.map((r) => r.errors.filter((e) => e.includes('two columns')).length)).toEqual([1, 0, 0]);
  });

  it.each([
    ['%d %b %Y (%d)', "date_format '%d %b %Y (%d)' uses %d twice"],
    ['%Y %Y', "date_format '%Y %Y' uses %Y twice"],
    ['%b %B %Y %d', "date_format '%b %B %Y %d' uses %b and %B for the month"],
    ['%d.%m.', "date_format '%d.%m.' has no year"],
    ['%Y-%m-%d %Q', "date_format '%Y-%m-%d %Q' uses %Q, which is not supported"],
  ])('refuses the date_format %p as a whole: known directives, each part of the date once', (dateFormat, message) => {
    expect(parseImportContent(settings({ dateFormat }), 'date,amount\n01 Mar 2024 (01),5', options)).toEqual({
      rows: [],
      errorCode: 'validation_failed',
      fileErrors: [message],
    });
  });
});

describe('parseImportContent: limits and line endings', () => {
  it('refuses more rows than maxRows before building any', () => {
    const csv = 'date,amount\n' + '2024-01-01,1\n'.repeat(6);
    expect(parseImportContent(settings(), csv, { ...options, maxRows: 5 })).toEqual({
      rows: [],
      errorCode: 'too_many_rows',
      fileErrors: ['The file has 6 rows; at most 5 can be stored for one import'],
    });
  });

  it('reports a 1 MB amount cell as a row error', () => {
    const { rows } = parseImportContent(settings(), `date,amount\n2024-01-01,5${' '.repeat(1_000_000)}5`, options);
    expect(rows[0].errors).toEqual([expect.stringMatching(/^Row 1: amount '5 +5' is not a number in the format 1,234.56$/)]);
  });

  it('reads files that mix \\r\\n, \\n and \\r line endings', () => {
    const csv = 'date,amount,name\r\n2024-01-01,1,a\n2024-01-02,2,"two\r\nlines"\r2024-01-03,3,c\n';
    const { rows } = parseImportContent(settings(), csv, options);
    expect(rows.map((r) => r.values.name)).toEqual(['a', 'two\nlines', 'c']);
  });
});

describe('parseImportContent: export layouts and other types', () => {
  it('reads Mint magnitudes with a debit/credit column', () => {
    const csv = 'Date,Description,Amount,Transaction Type,Category,Account Name\n03/01/2024,Coffee,4.50,debit,Coffee Shops,Visa\n03/02/2024,Refund,20.00,credit,Shopping,Visa';
    const mint = settings({ type: 'MintImport', dateColLabel: 'Date', dateFormat: '%m/%d/%Y', amountColLabel: 'Amount', nameColLabel: 'Description', categoryColLabel: 'Category', accountColLabel: 'Account Name' });
    const { rows } = parseImportContent(mint, csv, { ...options, hasAccount: false });
    expect(rows.map((r) => [r.values.amount, r.values.account, r.values.category])).toEqual([
      ['4.50', 'Visa', 'Coffee Shops'],
      ['-20.00', 'Visa', 'Shopping'],
    ]);
  });

  it('combines YNAB outflow and inflow columns and category groups', () => {
    const csv = 'Account,Date,Payee,Category Group/Category,Memo,Outflow,Inflow\nChecking,03/01/2024,Shop,Bills: Rent,,1200.00,0.00\nChecking,03/02/2024,Boss,Inflow: Ready to Assign,,0.00,3000.10';
    const ynab = settings({ type: 'YnabImport', dateColLabel: 'Date', dateFormat: '%m/%d/%Y', nameColLabel: 'Payee', accountColLabel: 'Account' });
    const { rows } = parseImportContent(ynab, csv, { ...options, hasAccount: false });
    expect(rows.map((r) => [r.values.amount, r.values.category])).toEqual([
      ['1200.00', 'Bills: Rent'],
      ['-3000.10', 'Inflow: Ready to Assign'],
    ]);
  });

  it('reads the YNAB4 register layout, whose Category column already joins Master Category and Sub Category', () => {
    const csv = [
      '"Account","Flag","Check Number","Date","Payee","Category","Master Category","Sub Category","Memo","Outflow","Inflow","Cleared","Running Balance"',
      '"Checking","","","03/01/2024","Grocer","Everyday Expenses: Groceries","Everyday Expenses","Groceries","","$45.10","$0.00","C","-$45.10"',
      '"Checking","","","03/02/2024","Boss","Income: Available this month","Income","Available this month","","$0.00","$1,000.00","C","$954.90"',
      '"Checking","","","03/03/2024","Shop","","","","","$5.00","$0.00","U","$949.90"',
    ].join('\n');
    const ynab = settings({ type: 'YnabImport', dateColLabel: 'Date', dateFormat: '%m/%d/%Y', nameColLabel: 'Payee', accountColLabel: 'Account' });
    const { rows } = parseImportContent(ynab, csv, { ...options, hasAccount: false });
    expect(rows.map((r) => [r.errors, r.values.amount, r.values.category])).toEqual([
      [[], '45.10', 'Everyday Expenses: Groceries'],
      [[], '-1000.00', 'Income: Available this month'],
      [[], '5.00', null],
    ]);
  });

  it("marks a YNAB transfer (payee 'Transfer : Savings') as a transfer to that account, which budgets leave out", () => {
    const csv = 'Account,Date,Payee,Category Group/Category,Memo,Outflow,Inflow\nChecking,03/01/2024,Transfer : Savings,,,500.00,0.00\nChecking,03/02/2024,Transfer Station,Bills: Waste,,20.00,0.00';
    const ynab = settings({ type: 'YnabImport', dateColLabel: 'Date', dateFormat: '%m/%d/%Y', nameColLabel: 'Payee', accountColLabel: 'Account' });
    const { rows } = parseImportContent(ynab, csv, { ...options, hasAccount: false });
    expect(rows.map((r) => [r.values.name, r.values.amount, r.values.transfer_account])).toEqual([
      ['Transfer : Savings', '500.00', 'Savings'],
      ['Transfer Station', '20.00', null],
    ]);
  });

  it('reads YNAB Outflow and Inflow once, in the import number format, naming the bad cell', () => {
    const ynab = (numberFormat: string, rows: string) =>
      parseImportContent(settings({ type: 'YnabImport', dateColLabel: 'Date', dateFormat: '%m/%d/%Y', numberFormat }), `Date,Payee,Outflow,Inflow\n${rows}`, options).rows;
    expect(ynab('1.234,56', '03/01/2024,Shop,"1.200,00","0,00"\n03/02/2024,Shop,"12,50",').map((r) => r.values.amount)).toEqual(['1200.00', '12.50']);
    expect(ynab('1,234', '03/01/2024,Shop,"1,200",0')[0]).toMatchObject({ errors: [], values: { amount: '1200' } });
    expect(ynab('1,234.56', '03/01/2024,Shop,"3.000,10",\n03/02/2024,Shop,,x').map((r) => r.errors)).toEqual([
      ["Row 1: Outflow '3.000,10' is not a number in the format 1,234.56"],
      ["Row 2: Inflow 'x' is not a number in the format 1,234.56"],
    ]);
    expect(ynab('1,234.56', '03/01/2024,Shop,,')[0].errors).toEqual(['Row 1: Amount or Outflow/Inflow is required']);
  });

  it('refuses a YNAB file with neither an Amount nor an Outflow or Inflow column as a whole', () => {
    const ynab = settings({ type: 'YnabImport', dateColLabel: 'Date', dateFormat: '%m/%d/%Y' });
    expect(parseImportContent(ynab, 'Account,Date,Payee\nChecking,03/01/2024,Shop', options)).toEqual({
      rows: [],
      errorCode: 'invalid_csv',
      fileErrors: ['The CSV is missing required columns: amount or outflow or inflow'],
    });
    expect(parseImportContent(ynab, 'Date,Payee,Outflow\n03/01/2024,Shop,5', options).rows[0]).toMatchObject({ errors: [], values: { amount: '5' } });
  });

  it('parses trades with upper-cased tickers and validates MICs', () => {
    const csv = 'date,ticker,qty,price,exchange_operating_mic\n2024-03-01,aapl,10,170.50,XNAS\n2024-03-02,MSFT,-2,400,NASDAQ';
    const { rows } = parseImportContent(settings({ type: 'TradeImport' }), csv, options);
    expect(rows[0]).toMatchObject({ errors: [], values: { ticker: 'AAPL', qty: '10', price: '170.50', exchange_operating_mic: 'XNAS' } });
    expect(rows[1].errors).toEqual(["Row 2: exchange_operating_mic 'NASDAQ' must be a 4-character MIC"]);
  });

  it('reads trade prices to 10 decimals and up to 9 integer digits, as they are stored; quantities keep 8 decimals', () => {
    const csv = 'date,ticker,qty,price\n2024-03-01,SHIB,1000,0.0000123456\n2024-03-02,SHIB,1000,0.00001234567\n2024-03-03,BRK,0.123456789,1000000000';
    const { rows } = parseImportContent(settings({ type: 'TradeImport' }), csv, options);
    expect(rows.map((r) => [r.values.price, r.errors])).toEqual([
      ['0.0000123456', []],
      [null, ["Row 2: price '0.00001234567' is not a number in the format 1,234.56"]],
      [null, ["Row 3: qty '0.123456789' is not a number in the format 1,234.56", "Row 3: price '1000000000' is not a number in the format 1,234.56"]],
    ]);
  });

  it('refuses a negative trade price as a row error naming row and column; a zero price (a grant, shares moved at no cost) is a trade', () => {
    const csv = 'date,ticker,qty,Cost\n2024-03-01,AAPL,10,-150.25\n2024-03-02,AAPL,10,(150.25)\n2024-03-03,AAPL,10,0\n2024-03-04,AAPL,-10,-0.00';
    const { rows } = parseImportContent(settings({ type: 'TradeImport', priceColLabel: 'Cost' }), csv, options);
    expect(rows.map((r) => [r.values.price, r.errors])).toEqual([
      ['-150.25', ["Row 1: Cost '-150.25' must not be negative"]],
      ['-150.25', ["Row 2: Cost '(150.25)' must not be negative"]],
      ['0', []],
      ['0.00', []],
    ]);
  });

  it('refuses a trade whose qty x price would not fit an amount', () => {
    const csv = 'date,ticker,qty,price\n2024-03-01,BIG,9999999999999,999999999\n2024-03-02,OK,1000,999999999';
    const { rows } = parseImportContent(settings({ type: 'TradeImport' }), csv, options);
    expect(rows.map((r) => r.errors)).toEqual([['Row 1: qty x price (9999999999999 x 999999999) is too large for an amount'], []]);
  });

  it('parses rules with JSON conditions and actions', () => {
    const csv = 'name,conditions,actions\nGroceries,"[{""field"":""name"",""value"":""Shop""}]","[{""type"":""set_category"",""value"":""Food""}]"\nBroken,not json,[]';
    const { rows } = parseImportContent(settings({ type: 'RuleImport' }), csv, options);
    expect(rows[0]).toMatchObject({ errors: [], values: { name: 'Groceries', resource_type: 'transaction', conditions: [{ field: 'name', value: 'Shop' }] } });
    expect(rows[1].errors).toEqual(['Row 2: a rule needs at least one action', 'Row 2: conditions must be a JSON array of objects']);
  });

  it('refuses rule conditions nested deeper than 32 levels as a row error instead of overflowing the stack', () => {
    const nested = (depth: number) => `[${'{""sub_conditions"":['.repeat(depth)}${']}'.repeat(depth)}]`;
    const csv = `name,conditions,actions\nDeep,"${nested(50_000)}","[{""type"":""set_category"",""value"":""Food""}]"\nShallow,"${nested(3)}","[{""type"":""set_category"",""value"":""Food""}]"`;
    const { rows } = parseImportContent(settings({ type: 'RuleImport' }), csv, options);
    expect(rows.map((r) => r.errors)).toEqual([['Row 1: conditions nests objects or arrays deeper than 32 levels'], []]);
  });

  it('validates category colours and merchant websites', () => {
    const categories = parseImportContent(settings({ type: 'CategoryImport' }), 'name,color,parent_category\nFood,#AA00cc,\nCoffee,red,Food', options);
    expect(categories.rows.map((r) => [r.values.color, r.errors])).toEqual([
      ['#aa00cc', []],
      [null, ["Row 2: color 'red' must look like #1a2b3c"]],
    ]);
    const merchants = parseImportContent(settings({ type: 'MerchantImport' }), 'name,website_url\nShop,shop.example.com\nBad,javascript:alert(1)', options);
    expect(merchants.rows.map((r) => r.errors.length)).toEqual([0, 1]);
  });
});

describe('parseImportContent: values longer than their columns hold', () => {
  const long = (c: string, n: number) => c.repeat(n);
  it('lists category, merchant and rule names, icons and web addresses over their limits as row errors', () => {
    const categories = parseImportContent(settings({ type: 'CategoryImport' }), `name,parent_category,lucide_icon\n${long('c', 201)},,\nKid,${long('p', 201)},${long('i', 51)}\n${long('🏠', 200)},${long('p', 200)},${long('i', 50)}`, options);
    expect(categories.rows.map((r) => r.errors)).toEqual([
      [`Row 1: name '${long('c', 40)}…' is too long: category names can have at most 200 characters`],
      [`Row 2: parent_category '${long('p', 40)}…' is too long: category names can have at most 200 characters`, `Row 2: lucide_icon '${long('i', 40)}…' is too long: icon names can have at most 50 characters`],
      [],
    ]);
    const merchants = parseImportContent(settings({ type: 'MerchantImport' }), `name,website_url\n${long('m', 201)},\nShop,https://shop.example/${long('p', 480)}`, options);
    expect(merchants.rows.map((r) => r.errors)).toEqual([
      [`Row 1: name '${long('m', 40)}…' is too long: merchant names can have at most 200 characters`],
      [`Row 2: website_url 'https://shop.example/${long('p', 19)}…' is too long: web addresses can have at most 500 characters`],
    ]);
    const json = (x: unknown) => `"${JSON.stringify(x).replace(/"/g, '""')}"`;
    const name = [{ condition_type: 'transaction_name', operator: 'like', value: long('n', 300) }];
    const nested = [{ condition_type: 'compound', operator: 'or', sub_conditions: [{ condition_type: 'transaction_merchant', operator: '=', value: long('m', 201) }] }];
    const action = [{ action_type: 'set_transaction_category', value: long('c', 201) }];
    const rules = parseImportContent(
      settings({ type: 'RuleImport' }),
      `name,conditions,actions\n${long('r', 201)},${json(name)},${json(action)}\nOk,${json(nested)},${json([{ action_type: 'set_transaction_tags', value: 'ok' }])}\nBad,${json([{ condition_type: 'compound', sub_conditions: {} }])},${json([{ action_type: 'set_transaction_tags', value: 'x' }])}`,
      options,
    );
    expect(rules.rows.map((r) => r.errors)).toEqual([
      [`Row 1: name '${long('r', 40)}…' is too long: rule names can have at most 200 characters`, `Row 1: actions value '${long('c', 40)}…' is too long: category names can have at most 200 characters`],
      [`Row 2: conditions value '${long('m', 40)}…' is too long: merchant names can have at most 200 characters`],
      ['Row 3: conditions sub_conditions must be a JSON array of objects'],
    ]);
  });

  it('lists transaction and trade names over 500 characters as row errors, naming the column the name came from', () => {
    const mint = settings({ type: 'MintImport', dateColLabel: 'Date', dateFormat: '%m/%d/%Y', amountColLabel: 'Amount', nameColLabel: 'Description', accountColLabel: 'Account Name' });
    const csv = `Date,Description,Amount,Transaction Type,Account Name\n03/01/2024,${long('d', 501)},4.50,debit,Visa\n03/02/2024,${long('d', 500)},1.00,debit,Visa`;
    expect(parseImportContent(mint, csv, { ...options, hasAccount: false }).rows.map((r) => r.errors)).toEqual([
      [`Row 1: Description '${long('d', 40)}…' is too long: transaction names can have at most 500 characters`],
      [],
    ]);
    const ynab = settings({ type: 'YnabImport', dateColLabel: 'Date', dateFormat: '%m/%d/%Y', nameColLabel: 'Payee', notesColLabel: 'Memo' });
    expect(parseImportContent(ynab, `Date,Payee,Memo,Outflow,Inflow\n03/01/2024,,${long('m', 501)},1.00,`, options).rows[0].errors).toEqual([
      `Row 1: Memo '${long('m', 40)}…' is too long: transaction names can have at most 500 characters`,
    ]);
    const trades = parseImportContent(settings({ type: 'TradeImport' }), `date,ticker,qty,price,name\n2024-03-01,AAPL,1,2,${long('t', 501)}`, options);
    expect(trades.rows[0].errors).toEqual([`Row 1: name '${long('t', 40)}…' is too long: trade names can have at most 500 characters`]);
  });
});

describe('the date range', () => {
  it('reaches back 30 years, from 29 February to the 28th of a common year', () => {
    const rows = (date: string) => parseImportContent(settings(), `date,amount\n${date},1`, { ...options, today: new Date('2024-02-29T00:00:00Z') }).rows[0].errors;
    expect(rows('1994-02-28')).toEqual([]);
    expect(rows('1994-02-27')).toEqual(['Row 1: date 1994-02-27 must be between 1994-02-28 and 2024-02-29']);
    expect(rows('2024-03-01')).toEqual(['Row 1: date 2024-03-01 must be between 1994-02-28 and 2024-02-29']);
  });
});

describe('parseImportContent: values longer than the database holds', () => {
  it('reports names longer than an entry (500) or an account (200) holds as row errors, counting characters as PostgreSQL does', () => {
    const long = (n: number) => 'n'.repeat(n);
    const emoji = '💶'.repeat(500); // 1,000 UTF-16 units, 500 characters: fits
    const transactions = parseImportContent(settings(), `date,amount,name\n2024-03-01,1,${long(501)}\n2024-03-01,1,${emoji}`, options);
    expect(transactions.rows.map((r) => r.errors)).toEqual([[`Row 1: name '${long(40)}…' is too long: transaction names can have at most 500 characters`], []]);
    const trades = parseImportContent(settings({ type: 'TradeImport', nameColLabel: 'Label' }), `date,ticker,qty,price,Label\n2024-03-01,AAPL,1,2,${long(501)}`, options);
    expect(trades.rows[0].errors).toEqual([`Row 1: Label '${long(40)}…' is too long: trade names can have at most 500 characters`]);
    const accounts = parseImportContent(settings({ type: 'AccountImport' }), `Account type,Name,Balance\nChecking,${long(201)},5\nChecking,${long(200)},5`, options);
    expect(accounts.rows.map((r) => r.errors)).toEqual([[`Row 1: name '${long(40)}…' is too long: account names can have at most 200 characters`], []]);
  });
});

describe('parseImportContent: amounts finer than their currency', () => {
  it("are row errors, naming the currency's decimals and what to check; trailing zeros are not finer", () => {
    const csv = 'Date,Amount,Name,Currency\n2024-03-01,1.234,Euro format misread,USD\n2024-03-02,12.3400,Zeros,USD\n2024-03-03,100.5,Yen,JPY\n2024-03-04,1.234,Dinar,BHD\n';
    const { rows } = parseImportContent(settings({ currencyColLabel: 'Currency' }), csv, options);
    expect(rows.map((r) => [r.values.amount, r.errors])).toEqual([
      ['-1.234', ["Row 1: amount '1.234' is finer than the USD minor unit: USD amounts have 2 decimals (check number_format and the currency)"]],
      ['-12.3400', []],
      ['-100.5', ["Row 3: amount '100.5' is finer than the JPY minor unit: JPY amounts have 0 decimals (check number_format and the currency)"]],
      ['-1.234', []],
    ]);
  });

  it('checks an account balance in its currency, and leaves a row whose currency comes from its account at publish', () => {
    const accounts = parseImportContent(settings({ type: 'AccountImport' }), 'Account type,Name,Balance\nChecking,Main,10.005\n', options);
    expect(accounts.rows[0].errors).toEqual(["Row 1: balance '10.005' is finer than the USD minor unit: USD amounts have 2 decimals (check number_format and the currency)"]);
    const named = parseImportContent(settings(), 'Date,Amount,Name,Account\n2024-03-01,1.234,Shop,Dinar account\n', { ...options, hasAccount: false });
    expect(named.rows[0].errors).toEqual([]);
  });
});

describe('parseImportContent: skipped rows (skip_rows)', () => {
  it('builds neither the skipped rows nor their errors; the others keep their numbers, and sourceRows counts them all', () => {
    const csv = 'date,amount,name\n2024-03-01,10,Grocer\nnot a date,5,Junk\n2024-03-03,7,Cafe';
    const all = parseImportContent(settings(), csv, options);
    expect(all.rows.map((r) => [r.sourceRowNumber, r.errors.length])).toEqual([[1, 0], [2, 1], [3, 0]]);
    const skipped = parseImportContent(settings(), csv, { ...options, skipRows: new Set([2]) });
    expect(skipped.sourceRows).toBe(3);
    expect(skipped.rows.map((r) => [r.sourceRowNumber, r.values.name, r.errors])).toEqual([[1, 'Grocer', []], [3, 'Cafe', []]]);
  });
});

describe('parseImportContent: title lines above the header (header_row)', () => {
  // A bank statement in KMyMoney's sample layout: account lines, then the header, a blank line and the rows.
  const titled = 'Account name: ,Main ****0123,,,,\nAccount balance: ,63.86,,,,\nDate,Transactions,Debits,Credits,Balance\n\n04 Nov 2009,"Direct Debit",18.75,,902.74\n05 Nov 2009,Salary,,100.00,1002.74\n';
  const uk = settings({ dateFormat: '%d %b %Y', nameColLabel: 'Transactions' });
  const summary = (csv: string, imp: CsvImportSettings) => {
    const parsed = parseImportContent(imp, csv, options);
    return { fileErrors: parsed.fileErrors, rows: parsed.rows.map((r) => [r.sourceRowNumber, r.values.date, r.values.amount, r.values.name, r.errors]) };
  };
  const expected = { fileErrors: [], rows: [[1, '2009-11-04', '18.75', 'Direct Debit', []], [2, '2009-11-05', '-100.00', 'Salary', []]] };

  it('finds the header below title lines: the first line with the required column names', () => {
    expect(summary(titled, uk)).toEqual(expected);
  });

  it('reads the header from the line header_row names (counting blank lines), leaving the lines above unread', () => {
    expect(summary(titled, { ...uk, headerRow: 3 })).toEqual(expected);
    expect(summary(`\n${titled}`, { ...uk, headerRow: 4 })).toEqual(expected);
  });

  it('reads the first line as the header when it has the required names, even if a later line has them too', () => {
    const csv = 'Date,Amount,Name\n2024-03-01,1.00,Date\n';
    expect(parseImportContent(settings(), csv, options).rows.map((r) => r.values.name)).toEqual(['Date']);
  });

  it('without the names anywhere, takes the first line of the usual width below short title lines, to name what is missing', () => {
    const csv = 'Statement,March\nDay,Sum,Name\n01.03.2024,1.00,Cafe\n02.03.2024,2.00,Bar\n';
    expect(parseImportContent(settings(), csv, options).fileErrors).toEqual(['The CSV is missing required columns: date, amount']);
    // Lines above that are as wide as the data are not titles: the first line stays the header.
    expect(parseImportContent(settings(), 'Day,Sum\nDay,Sum\n1,2\n', options).fileErrors).toEqual(['The CSV is missing required columns: date, amount']);
  });

  it('names a header_row past the end of the file, and a header_row whose line lacks the columns', () => {
    expect(parseImportContent({ ...uk, headerRow: 12 }, titled, options).fileErrors).toEqual(['header_row is 12, but the file has 7 lines']);
    expect(parseImportContent({ ...uk, headerRow: 1 }, titled, options).fileErrors).toEqual(['The CSV is missing required columns: date, amount']);
  });
});

describe('parseImportContent: files without a header line (has_header false)', () => {
  // Raiffeisen AT's layout: booking date; text; value date; amount; currency, and no header.
  const headerless = '18.09.2017;"HOFER DANKT 0527";18.09.2017;-33,87;EUR;;\n19.09.2017;Gehalt;19.09.2017;1.200,00;EUR;;\n';
  const at = settings({ colSep: ';', hasHeader: false, numberFormat: '1.234,56', dateFormat: '%d.%m.%Y', dateColLabel: '1', amountColLabel: '4', nameColLabel: '2', currencyColLabel: '5' });

  it('reads every line as a row, the *_col_label fields naming columns by number', () => {
    const { rows, fileErrors, sourceRows } = parseImportContent(at, headerless, options);
    expect(fileErrors).toEqual([]);
    expect(sourceRows).toBe(2);
    expect(rows.map((r) => [r.sourceRowNumber, r.values.date, r.values.amount, r.values.name, r.values.currency, r.errors])).toEqual([
      [1, '2017-09-18', '33.87', 'HOFER DANKT 0527', 'EUR', []],
      [2, '2017-09-19', '-1200.00', 'Gehalt', 'EUR', []],
    ]);
  });

  it('needs the date and amount columns by number: no column is found by name', () => {
    const { fileErrors } = parseImportContent({ ...at, dateColLabel: null, amountColLabel: null }, headerless, options);
    expect(fileErrors).toEqual(['The CSV is missing required columns: date, amount']);
    expect(parseImportContent({ ...at, amountColLabel: '9' }, headerless, options).fileErrors).toEqual(['The CSV is missing required columns: Column 9']);
  });

  it('names columns as Column 1, Column 2... in row errors, and takes a label written that way too', () => {
    const csv = `${headerless}Total;;;abc\n`;
    const { rows } = parseImportContent({ ...at, nameColLabel: 'Column 2' }, csv, options);
    expect(rows.map((r) => r.values.name)).toEqual(['HOFER DANKT 0527', 'Gehalt', 'Imported item']);
    expect(rows[2].errors).toEqual([
      'Row 3: has 4 columns, the widest row has 7',
      "Row 3: Column 1 'Total' does not match the date format %d.%m.%Y",
      "Row 3: Column 4 'abc' is not a number in the format 1.234,56",
    ]);
  });

  it('reads a file that starts with a booking, when the import names no columns, by what the columns hold', () => {
    const plain = settings({ colSep: ';', numberFormat: '1.234,56', dateFormat: '%d.%m.%Y' });
    const csv = `${headerless}A remark between bookings;;\n20.09.2017;Miete;20.09.2017;-800,00;EUR;;\n`;
    const { rows, fileErrors, sourceRows } = parseImportContent(plain, csv, options);
    expect(fileErrors).toEqual([]);
    expect(sourceRows).toBe(4);
    // Line 3 holds no date and no number: a remark, left out like a title line, not a failing row.
    expect(rows.map((r) => [r.sourceRowNumber, r.values.date, r.values.amount, r.values.name, r.values.currency, r.errors])).toEqual([
      [1, '2017-09-18', '33.87', 'HOFER DANKT 0527', 'EUR', []],
      [2, '2017-09-19', '-1200.00', 'Gehalt', 'EUR', []],
      [4, '2017-09-20', '800.00', 'Miete', 'EUR', []],
    ]);
  });

  it('keeps a file with a header line, or one the values cannot explain, as it was', () => {
    const plain = settings({ colSep: ';', numberFormat: '1.234,56', dateFormat: '%d.%m.%Y' });
    // A first line of names is a header even when its columns are not the ones the import needs.
    expect(parseImportContent(plain, `Buchung;Text;Valuta;Betrag\n${headerless}`, options).fileErrors).toEqual(['The CSV is missing required columns: date, amount']);
    // A date but no amount anywhere: nothing to read as the amount.
    expect(parseImportContent(plain, '18.09.2017;HOFER\n19.09.2017;Gehalt\n', options).fileErrors).toEqual(['The CSV is missing required columns: date, amount']);
    // A date format that does not fit: the first line does not read as a booking.
    expect(parseImportContent({ ...plain, dateFormat: '%Y-%m-%d' }, headerless, options).fileErrors).toEqual(['The CSV is missing required columns: date, amount']);
  });

  it('refuses header_row with has_header false, and an empty file', () => {
    expect(parseImportContent({ ...at, headerRow: 2 }, headerless, options).errorCode).toBe('validation_failed');
    expect(parseImportContent(at, '\n\n', options).fileErrors).toEqual(['The CSV has no rows']);
  });
});

describe('parseImportContent: a date format told from the dates, when the import has none', () => {
  const undated = settings({ dateFormat: null });
  const figures = (parsed: ReturnType<typeof parseImportContent>) => ({
    dateFormat: parsed.dateFormat,
    fileErrors: parsed.fileErrors,
    rows: parsed.rows.map((r) => [r.sourceRowNumber, r.values.date, r.errors]),
  });

  it('reads the rows with the one format that fits every date, and reports it', () => {
    const csv = 'Date,Amount,Name\n31/10/2026,-1.00,A\n01/11/2026,-2.00,B\n';
    expect(figures(parseImportContent(undated, csv, options))).toEqual({
      dateFormat: '%d/%m/%Y',
      fileErrors: [],
      rows: [[1, '2026-10-31', []], [2, '2026-11-01', []]],
    });
    // ISO dates are ISO, kept as the import's format too.
    expect(parseImportContent(undated, 'Date,Amount\n2026-10-31,-1.00\n', options).dateFormat).toBe('%Y-%m-%d');
  });

  it('refuses a file whose dates fit day first and month first, naming both, with a date they read differently', () => {
    const parsed = parseImportContent(undated, 'Date,Amount\n01/01/2026,-1.00\n03/04/2026,-2.00\n', options);
    expect(parsed).toMatchObject({
      rows: [],
      errorCode: 'ambiguous_date_format',
      fileErrors: ['The dates fit both dd/mm/yyyy and mm/dd/yyyy (no day is above 12): send date_format to say which'],
      ambiguousDates: { formats: ['%d/%m/%Y', '%m/%d/%Y'], sample: '03/04/2026' },
    });
  });

  it('keeps the default when no format fits every date: the rows that do not read say so, as before', () => {
    const parsed = parseImportContent(undated, 'Date,Amount\n2026-10-31,-1.00\n31/10/2026,-2.00\n', options);
    expect(figures(parsed)).toEqual({
      dateFormat: undefined,
      fileErrors: [],
      rows: [[1, '2026-10-31', []], [2, null, ["Row 2: date '31/10/2026' does not match the date format %Y-%m-%d"]]],
    });
  });

  it('never overrides a date_format given, and tells nothing from skipped rows or blank cells', () => {
    const csv = 'Date,Amount\n31/10/2026,-1.00\n10/31/2026,-2.00\n,-3.00\n';
    const given = parseImportContent(settings({ dateFormat: '%m/%d/%Y' }), csv, options);
    expect(figures(given).rows.map(([row, date]) => [row, date])).toEqual([[1, null], [2, '2026-10-31'], [3, null]]);
    expect(given.dateFormat).toBeUndefined();
    // Without row 2 the dates are day first; row 3's blank date is its own error.
    const skipping = parseImportContent(undated, csv, { ...options, skipRows: new Set([2]) });
    expect(figures(skipping)).toEqual({ dateFormat: '%d/%m/%Y', fileErrors: [], rows: [[1, '2026-10-31', []], [3, null, ['Row 3: date is required']]] });
  });

  it("reads an account's balance_date column and a trade's date column the same way", () => {
    const accounts = parseImportContent(settings({ type: 'AccountImport', dateFormat: null }), 'name,balance,balance_date\nCash,10.00,25.10.2026\n', options);
    expect([accounts.dateFormat, accounts.rows[0].values.date]).toEqual(['%d.%m.%Y', '2026-10-25']);
    const trades = parseImportContent(settings({ type: 'TradeImport', dateFormat: null }), 'date,ticker,qty,price\n10/25/26,AAPL,1,100\n', options);
    expect([trades.dateFormat, trades.rows[0].values.date]).toEqual(['%m/%d/%y', '2026-10-25']);
  });

  it('finds the columns of a file without a header line, and then the format of its date column', () => {
    const headerless = '18.09.2017;Shop;18.09.2017;-33,87;EUR\n19.09.2017;Pay;19.09.2017;1.200,00;EUR\n';
    const parsed = parseImportContent(settings({ colSep: ';', numberFormat: '1.234,56', dateFormat: null }), headerless, options);
    expect(figures(parsed)).toEqual({ dateFormat: '%d.%m.%Y', fileErrors: [], rows: [[1, '2017-09-18', []], [2, '2017-09-19', []]] });
    const ambiguous = parseImportContent(settings({ dateFormat: null }), '01/02/2024,Shop,-3.00\n03/04/2024,Pay,5.00\n', options);
    expect(ambiguous.errorCode).toBe('ambiguous_date_format');
  });
});

// The genuine files of issue 32, read when the shared corpus is present.
const realworld = realworldDir();
(realworld ? describe : describe.skip)('genuine files: title lines and no header', () => {
  const figures = (imp: CsvImportSettings, file: string, skipRows?: Set<number>) => {
    const parsed = parseImportContent(imp, readFileSync(`${realworld}/${file}`, 'latin1'), { ...options, defaultCurrency: 'EUR', today: new Date('2026-11-22T00:00:00Z'), skipRows });
    const valid = parsed.rows.filter((r) => !r.errors.length);
    // Outflow-positive decimals: the file's signed sum is minus their total, in thousandths.
    const sum = -valid.reduce((total, r) => total + Math.round(Number(r.values.amount) * 1000), 0);
    return { fileErrors: parsed.fileErrors, rows: parsed.rows.length, valid: valid.length, sum };
  };

  it('KMyMoney sample bank: 4 rows, -865.27', () => {
    expect(figures(settings({ dateFormat: '%d %b %Y', nameColLabel: 'Transactions' }), 'bank-csv/kmymoney-sample-bank.csv')).toEqual({ fileErrors: [], rows: 4, valid: 4, sum: -865270 });
  });

  it('Raiffeisen AT without header: 73 valid rows, -4580.70', () => {
    const imp = settings({ colSep: ';', hasHeader: false, numberFormat: '1.234,56', dateFormat: '%d.%m.%Y', dateColLabel: '1', amountColLabel: '4', nameColLabel: '2', currencyColLabel: '5' });
    // Line 71 ("A null transaction, just to confuse things;;", bank2ynab's addition) has no date or amount: a row error.
    expect(figures(imp, 'bank-csv/raiffeisen-at-headerless.csv')).toEqual({ fileErrors: [], rows: 74, valid: 73, sum: -4580700 });
    expect(figures(imp, 'bank-csv/raiffeisen-at-headerless.csv', new Set([71]))).toEqual({ fileErrors: [], rows: 73, valid: 73, sum: -4580700 });
    // The request a reader sends names no columns: they are told from the values, and line 71 is a remark.
    const plain = settings({ colSep: ';', numberFormat: '1.234,56', dateFormat: '%d.%m.%Y' });
    expect(figures(plain, 'bank-csv/raiffeisen-at-headerless.csv')).toEqual({ fileErrors: [], rows: 73, valid: 73, sum: -4580700 });
  });
});
