import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { decodeBytes, sumOf } from '../cells';
import type { ParsedRow } from '../csv-import';
import { parseOfx } from './parse-ofx';
import { ofxAmount, ofxDate } from './rows';

const options = { maxRows: 1000, defaultCurrency: 'USD', today: new Date('2026-11-22T12:00:00Z') };

/** A fixture as an upload arrives: bytes, decoded as every import decodes them (UTF-8, else the code page its letters spell). */
function fixture(name: string): string {
  const decoded = decodeBytes(readFileSync(join(__dirname, '../../fixtures/ofx', name)));
  if ('error' in decoded) throw new Error(decoded.error.message);
  return decoded.text;
}

/** Date, amount (positive = out), name, notes and external id of each row. */
const summary = (rows: ParsedRow[]) => rows.map((r) => [r.values.date, r.values.amount, r.values.name, r.values.notes, r.values.external_id]);

/** A bank statement of the given STMTTRN bodies, in OFX 1.02 SGML. */
const sgml = (transactions: string[], extra = '') =>
  `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>2<ACCTTYPE>CHECKING</BANKACCTFROM>` +
  `<BANKTRANLIST>${transactions.map((t) => `<STMTTRN>${t}</STMTTRN>`).join('\n')}</BANKTRANLIST>${extra}</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;

describe('parseOfx: bank and card statements', () => {
  it('reads a US bank\'s OFX 1.02 SGML (CRLF, Windows-1252, unclosed leaf tags) into outflow-positive rows keyed by FITID', () => {
    const { rows, fileErrors, statements } = parseOfx(fixture('us-bank-checking-102.ofx'), options);
    expect(fileErrors).toEqual([]);
    expect(rows.flatMap((r) => r.errors)).toEqual([]);
    expect(summary(rows)).toEqual([
      ['2024-10-02', '54.23', 'CAFÉ DE PARIS NEW YORK', 'POS PURCHASE', '202410020001'],
      ['2024-10-04', '-2500.00', 'ACME CORP PAYROLL', 'DIRECT DEP', '202410040001'],
      // No NAME nor MEMO: a check is named by its number.
      ['2024-10-10', '120.00', 'Check 1042', 'Check number 1042', '202410100001'],
      ['2024-10-15', '89.99', 'AT&T MOBILITY', 'ONLINE PMT', '202410150001'],
      ['2024-10-31', '12.00', 'MONTHLY SERVICE FEE', null, '202410310001'],
      ['2024-10-31', '-0.37', 'INTEREST PAYMENT', null, '202410310002'],
    ]);
    expect(rows[0].values).toMatchObject({ row_kind: 'transaction', currency: 'USD', account: null, category: null, tags: [], transfer_account: null });
    expect(rows.map((r) => r.sourceRowNumber)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(statements).toEqual([
      {
        account: { id: '000123456789', bankId: '021000021', type: 'CHECKING' },
        currency: 'USD',
        periodStart: '2024-10-01',
        periodEnd: '2024-10-31',
        closingBalance: { amount: '3224.15', date: '2024-10-31' },
        availableBalance: { amount: '3204.15', date: '2024-10-31' },
        rows: { first: 1, last: 6 },
      },
    ]);
  });

  it('reads a card issuer\'s QFX (INTU.BID, the body on one line): charges out, payments and returns in, the debt as a negative balance', () => {
    const { rows, fileErrors, statements } = parseOfx(fixture('us-card-webconnect.qfx'), options);
    expect(fileErrors).toEqual([]);
    expect(rows.flatMap((r) => r.errors)).toEqual([]);
    expect(summary(rows)).toEqual([
      ['2024-11-03', '45.67', 'WHOLE FOODS MARKET #10234', 'AUSTIN TX', '320243080123456789'],
      ['2024-11-05', '120.50', 'DELTA AIR LINES', 'ATLANTA GA', '320243100234567890'],
      ['2024-11-10', '-25.00', 'RETURN WHOLE FOODS MARKET', null, '320243150345678901'],
      ['2024-11-15', '-500.00', 'ONLINE PAYMENT - THANK YOU', null, '320243200456789012'],
      // ORIGCURRENCY: TRNAMT is already in the card's currency.
      ['2024-11-18', '38.90', 'HOTEL LISBOA', '35.99 EUR', '320243230567890123'],
    ]);
    expect(rows.map((r) => r.values.currency)).toEqual(['USD', 'USD', 'USD', 'USD', 'USD']);
    expect(statements).toEqual([
      {
        account: { id: '379912345671009', type: 'CREDITCARD' },
        currency: 'USD',
        periodStart: '2024-11-01',
        periodEnd: '2024-11-30',
        closingBalance: { amount: '-679.57', date: '2024-11-30' },
        availableBalance: { amount: '9320.43', date: '2024-11-30' },
        rows: { first: 1, last: 5 },
      },
    ]);
  });

  it('reads a European bank\'s OFX 2.1.1 XML with two accounts: comma decimals, entities, PAYEE, IBANs, a statement per account', () => {
    const { rows, fileErrors, statements } = parseOfx(fixture('eu-bank-two-accounts-211.ofx'), { ...options, defaultCurrency: 'USD' });
    expect(fileErrors).toEqual([]);
    expect(rows.flatMap((r) => r.errors)).toEqual([]);
    expect(summary(rows)).toEqual([
      ['2024-03-05', '12.50', 'Bäckerei Müller & Söhne', 'Kartenzahlung girocard 04.03. 08:12', '2024030500001'],
      ['2024-03-06', '-3150.00', 'Beispiel GmbH', 'Gehalt März 2024', '2024030600001'],
      ['2024-03-15', '850.00', 'Hausverwaltung Schmidt', 'Miete April', '2024031500001'],
      ['2024-03-28', '500.00', 'Übertrag Tagesgeld', null, '2024032800001'],
      // The same FITID in another account's statement is that account's own.
      ['2024-03-28', '-500.00', 'Übertrag vom Girokonto', null, '2024032800001'],
      ['2024-03-31', '-8.75', 'Zinsen', 'Zinsgutschrift 1. Quartal', '2024033100001'],
    ]);
    // CURDEF, not the default currency.
    expect(new Set(rows.map((r) => r.values.currency))).toEqual(new Set(['EUR']));
    expect(statements).toEqual([
      {
        account: { id: 'DE89370400440532013000', iban: 'DE89370400440532013000', bankId: '37040044', type: 'CHECKING' },
        currency: 'EUR',
        periodStart: '2024-03-01',
        periodEnd: '2024-03-31',
        closingBalance: { amount: '4037.50', date: '2024-03-31' },
        availableBalance: { amount: '5037.50', date: '2024-03-31' },
        rows: { first: 1, last: 4 },
      },
      {
        account: { id: 'DE35370400440532013099', iban: 'DE35370400440532013099', bankId: '37040044', type: 'SAVINGS' },
        currency: 'EUR',
        periodStart: '2024-03-01',
        periodEnd: '2024-03-31',
        closingBalance: { amount: '10508.75', date: '2024-03-31' },
        rows: { first: 5, last: 6 },
      },
    ]);
  });

  it('reads a statement whose TRNAMTs are all magnitudes by TRNTYPE, and keeps OFX\'s signs otherwise', () => {
    const magnitudes = sgml(['<TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>10.00<FITID>a<NAME>Shop', '<TRNTYPE>CREDIT<DTPOSTED>20240103<TRNAMT>99.00<FITID>b<NAME>Pay']);
    expect(parseOfx(magnitudes, options).rows.map((r) => r.values.amount)).toEqual(['10.00', '-99.00']);
    // One negative TRNAMT: the bank signs its amounts, and a positive DEBIT is money in (a reversal).
    const signed = sgml(['<TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>10.00<FITID>a<NAME>Shop', '<TRNTYPE>DEBIT<DTPOSTED>20240103<TRNAMT>-4.00<FITID>b<NAME>Shop']);
    expect(parseOfx(signed, options).rows.map((r) => r.values.amount)).toEqual(['-10.00', '4.00']);
  });

  it('names a transaction by PAYEE or MEMO when it has no NAME, and by its TRNTYPE when it has neither', () => {
    const { rows } = parseOfx(sgml(['<TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>-1<FITID>a<MEMO>Only a memo', '<TRNTYPE>SRVCHG<DTPOSTED>20240102<TRNAMT>-2<FITID>b', '<TRNTYPE>OTHER<DTPOSTED>20240102<TRNAMT>-3<FITID>c']), options);
    expect(rows.map((r) => [r.values.name, r.values.notes])).toEqual([['Only a memo', null], ['Service charge', null], ['Imported item', null]]);
  });

  it('keeps each row its own external id when the bank gives two transactions one FITID', () => {
    const { rows } = parseOfx(sgml(['<TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>-1<FITID>same<NAME>A', '<TRNTYPE>DEBIT<DTPOSTED>20240103<TRNAMT>-2<FITID>same<NAME>B', '<TRNTYPE>DEBIT<DTPOSTED>20240104<TRNAMT>-3<NAME>C']), options);
    expect(rows.map((r) => r.values.external_id)).toEqual(['same', 'same#2', null]);
  });

  it('gives a row whose date, amount or currency cannot be read the problem, naming its row and line', () => {
    const text = sgml([
      '<TRNTYPE>DEBIT\n<DTPOSTED>20240230\n<TRNAMT>-1\n<FITID>a<NAME>Bad day',
      '<TRNTYPE>DEBIT\n<DTPOSTED>19900101\n<TRNAMT>-1.5.0\n<FITID>b<NAME>Old',
      '<TRNTYPE>DEBIT\n<DTPOSTED>20240102\n<TRNAMT>-1.005\n<FITID>c<NAME>Fine<CURRENCY><CURRATE>1<CURSYM>XYZ</CURRENCY>',
      '<TRNTYPE>DEBIT\n<DTPOSTED>20240102\n<TRNAMT>-1\n<FITID>d<NAME>Gone<CORRECTFITID>a<CORRECTACTION>DELETE',
    ]);
    const { rows, fileErrors } = parseOfx(text, options);
    expect(fileErrors).toEqual([]);
    expect(rows.map((r) => r.errors)).toEqual([
      ["Row 1 (line 5): date '20240230' (DTPOSTED) is missing or not a date"],
      ['Row 2 (line 9): date 1990-01-01 must be between 1996-11-22 and 2026-11-22', "Row 2 (line 9): amount '-1.5.0' (TRNAMT) is missing or not a number"],
      ["Row 3 (line 13): currency 'XYZ' (CURSYM) is not an ISO 4217 code", "Row 3 (line 13): amount (TRNAMT) '1.005' is finer than the USD minor unit: USD amounts have 2 decimals"],
      ["Row 4 (line 17): it deletes transaction 'a' (CORRECTACTION), which an import cannot do: leave it out and edit that transaction"],
    ]);
    expect(rows[0].values).toMatchObject({ date: null, raw_date: '20240230' });
  });
});

describe('parseOfx: investment statements', () => {
  it('reads a US broker\'s INVSTMTRS: buys and sells of stocks and funds as trades by SECLIST ticker, income, a reinvestment, cash in', () => {
    const { rows, fileErrors, statements } = parseOfx(fixture('us-broker-investment-102.ofx'), options);
    expect(fileErrors).toEqual([]);
    expect(rows.flatMap((r) => r.errors)).toEqual([]);
    const values = rows.map(({ values: v }) => [v.row_kind, v.date, v.ticker ?? null, v.qty ?? null, v.price ?? null, v.fee ?? null, v.amount, v.name, v.external_id]);
    expect(values).toEqual([
      ['transaction', '2024-12-02', null, null, null, null, '-10000.00', 'ELECTRONIC FUNDS TRANSFER RCVD', 'X1234567820241202C1'],
      ['trade', '2024-12-03', 'AAPL', '10.000', '190.50', '4.95', '1909.95', 'Buy 10.000 AAPL', 'X1234567820241203B1'],
      ['trade', '2024-12-10', 'MSFT', '-5.000', '420.00', '0.03', '-2099.97', 'Sell 5.000 MSFT', 'X1234567820241210S1'],
      ['trade', '2024-12-12', 'VFIAX', '12.345', '405.10', '0', '5000.96', 'Buy 12.345 VFIAX', 'X1234567820241212M1'],
      ['trade', '2024-12-16', 'VFIAX', '-2.500', '410.00', '0', '-1025.00', 'Sell 2.500 VFIAX', 'X1234567820241216M2'],
      ['transaction', '2024-12-20', null, null, null, null, '-2.50', 'Dividend: AAPL', 'X1234567820241220D1'],
      ['trade', '2024-12-27', 'VFIAX', '0.150', '408.33', '0', '61.25', 'Buy 0.150 VFIAX', 'X1234567820241227R1'],
      ['transaction', '2024-12-27', null, null, null, null, '-61.25', 'Dividend: VFIAX', 'X1234567820241227R1-income'],
    ]);
    // The reinvested income is published with its buy.
    expect(rows[7].values.record_of).toBe(7);
    expect(rows[1].values).toMatchObject({ currency: 'USD', exchange_operating_mic: null, notes: 'YOU BOUGHT' });
    expect(statements).toEqual([
      {
        account: { id: 'X12345678', bankId: 'fidelity.com', type: 'INVESTMENT' },
        currency: 'USD',
        periodStart: '2024-12-01',
        periodEnd: '2024-12-31',
        cashBalance: { amount: '6216.56', date: '2024-12-31' },
        rows: { first: 1, last: 8 },
      },
    ]);
    // The cash the rows move is the cash the broker holds at the end (the account started empty).
    expect(sumOf(rows.map((r) => String(r.values.amount)))).toBe('-6216.56');
  });

  it('reads share transfers, splits, expenses and income of another type; an unknown transaction is a row with its problem', () => {
    const invtran = (id: string) => `<INVTRAN><FITID>${id}<DTTRADE>20240105</INVTRAN><SECID><UNIQUEID>X1<UNIQUEIDTYPE>CUSIP</SECID>`;
    const text =
      '<OFX><INVSTMTMSGSRSV1><INVSTMTTRNRS><INVSTMTRS><CURDEF>USD<INVACCTFROM><BROKERID>b<ACCTID>1</INVACCTFROM><INVTRANLIST>' +
      `<TRANSFER>${invtran('t1')}<SUBACCTSEC>CASH<UNITS>20<TFERACTION>IN<POSTYPE>LONG<AVGCOSTBASIS>1000</TRANSFER>` +
      `<SPLIT>${invtran('s1')}<SUBACCTSEC>CASH<OLDUNITS>20<NEWUNITS>60<NUMERATOR>3<DENOMINATOR>1</SPLIT>` +
      `<INVEXPENSE>${invtran('e1')}<TOTAL>-7.5<SUBACCTSEC>CASH</INVEXPENSE>` +
      `<INCOME>${invtran('i1')}<INCOMETYPE>CGLONG<TOTAL>12<SUBACCTSEC>CASH<SUBACCTFUND>CASH</INCOME>` +
      `<JRNLSEC>${invtran('j1')}<SUBACCTFROM>CASH<SUBACCTTO>MARGIN<UNITS>1</JRNLSEC>` +
      '</INVTRANLIST></INVSTMTRS></INVSTMTTRNRS></INVSTMTMSGSRSV1>' +
      '<SECLISTMSGSRSV1><SECLIST><STOCKINFO><SECINFO><SECID><UNIQUEID>X1<UNIQUEIDTYPE>CUSIP</SECID><SECNAME>Example<TICKER>exm</SECINFO></STOCKINFO></SECLIST></SECLISTMSGSRSV1></OFX>';
    const { rows } = parseOfx(text, options);
    expect(rows.map(({ values: v }) => [v.row_kind, v.ticker ?? null, v.qty ?? v.ratio ?? null, v.price ?? null, v.amount ?? null, v.name])).toEqual([
      ['trade', 'EXM', '20', '50', '0', 'Shares in 20 EXM'],
      ['split', 'EXM', '3', null, null, 'Split 3 for 1 EXM'],
      ['transaction', null, null, null, '7.5', 'Miscellaneous Expense'],
      ['transaction', null, null, null, '-12', 'Capital Gain (Long): EXM'],
      ['transaction', null, null, null, null, 'JRNLSEC'],
    ]);
    expect(rows.map((r) => r.errors)).toEqual([[], [], [], [], ['Row 5 (line 1): investment transaction <JRNLSEC> is not supported']]);
  });
});

describe('parseOfx: refusals', () => {
  const refusal = (text: string, opts = options) => {
    const { rows, fileErrors, errorCode } = parseOfx(text, opts);
    expect(rows).toEqual([]);
    return [errorCode, fileErrors];
  };

  it('refuses a truncated file, naming the elements it never closes', () => {
    const whole = fixture('us-bank-checking-102.ofx');
    const cut = whole.slice(0, whole.indexOf('<FITID>202410150001'));
    expect(refusal(cut)).toEqual([
      'invalid_ofx',
      ['The OFX file cannot be read: it is cut short: <STMTTRN> (line 67) and the elements around it are never closed (missing </STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>)'],
    ]);
    expect(refusal(whole.slice(0, whole.indexOf('</OFX>') + 3))[1]).toEqual(["The OFX file cannot be read: it ends inside the tag '</O' on line 101"]);
    expect(refusal(whole.slice(0, whole.indexOf('</OFX>')))[1]).toEqual([expect.stringContaining('<OFX> (line 11) and the elements around it are never closed (missing </OFX>)')]);
    // A transaction whose closing tag is lost would otherwise be read as part of the list.
    expect(refusal(whole.replace('</STMTTRN>', ''))[1]).toEqual(['The OFX file cannot be read: <STMTTRN> (line 44) is never closed: </BANKTRANLIST> on line 89 comes first']);
  });

  it('refuses XML with a DOCTYPE or ENTITY declaration (billion laughs, external entities) without reading it', () => {
    const laughs = ['<?xml version="1.0"?>', '<!DOCTYPE OFX [', '<!ENTITY lol "lol">', ...Array.from({ length: 9 }, (_, k) => `<!ENTITY lol${k + 1} "${`&lol${k || ''};`.repeat(10)}">`), ']>', '<OFX><NAME>&lol9;</NAME></OFX>'].join('\n');
    expect(refusal(laughs)).toEqual(['invalid_ofx', ['The OFX file cannot be read: it has a DOCTYPE declaration (line 2); OFX files have none, and declarations are not read (they can expand entities or load other files)']]);
    const external = '<?xml version="1.0"?><?OFX OFXHEADER="200" VERSION="211"?><!DOCTYPE OFX [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><OFX><NAME>&xxe;</NAME></OFX>';
    expect(refusal(external)[1]).toEqual([expect.stringContaining('it has a DOCTYPE declaration (line 1)')]);
    expect(refusal('OFXHEADER:100\n\n<OFX><!ENTITY a "b"></OFX>')[1]).toEqual([expect.stringContaining('it has a ENTITY declaration (line 3)')]);
    // An entity reference without a declaration is text, never looked up.
    const { rows } = parseOfx(sgml(['<TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>-1<FITID>a<NAME>&xxe; &#65;&#x42; &lt;C&gt; AT&T']), options);
    expect(rows[0].values.name).toBe('&xxe; AB <C> AT&T');
  });

  it('refuses a file that is not OFX, or holds no statement', () => {
    expect(refusal('Date,Amount,Name\n2024-01-02,-5,Shop\n')).toEqual(['invalid_ofx', ['The file is not OFX: it starts with neither an OFX header (OFXHEADER:100) nor OFX markup (<?OFX ...?>, <OFX>)']]);
    expect(refusal('<?xml version="1.0"?><Document><BkToCstmrStmt/></Document>')).toEqual(['invalid_ofx', ['The file is not OFX: it has no <OFX> element']]);
    const failed = 'OFXHEADER:100\n\n<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>15500<SEVERITY>ERROR<MESSAGE>Invalid user ID or password</STATUS></SONRS></SIGNONMSGSRSV1></OFX>';
    expect(refusal(failed)).toEqual(['invalid_ofx', ['The OFX file holds no statement (STMTRS, CCSTMTRS or INVSTMTRS); the bank reported error 15500 (Invalid user ID or password)']]);
    expect(refusal(sgml([]).replace('<CURDEF>USD', '<CURDEF>DOLLARS'))).toEqual(['invalid_ofx', ["The OFX file's statement currency 'DOLLARS' (CURDEF) is not an ISO 4217 code"]]);
  });

  it('refuses more rows than an import stores, counting a reinvestment as two', () => {
    const text = fixture('us-broker-investment-102.ofx');
    expect(refusal(text, { ...options, maxRows: 7 })).toEqual(['too_many_rows', ['The file has 8 rows; at most 7 can be stored for one import']]);
    expect(parseOfx(text, { ...options, maxRows: 8 }).rows).toHaveLength(8);
  });
});

describe('parseOfx: dates, amounts and size', () => {
  it('reads OFX date-times as the day they were written on', () => {
    expect(['20240105', '202401051230', '20240105123045', '20240105123045.123', '20240105000000.000[-5:EST]', '20240105235959[+5.30:IST]', '20240105[0:GMT]'].map(ofxDate)).toEqual(Array(7).fill('2024-01-05'));
    expect(['2024010', '20241301', '20240230', '05012024', '20240105 junk', ''].map(ofxDate)).toEqual(Array(6).fill(null));
  });

  it('reads amounts with a point or a comma before the decimals', () => {
    expect(['-12.50', '+3', '-12,50', '0,5', '1.234,56', '.75', '-1.5.0', 'abc'].map(ofxAmount)).toEqual(['-12.50', '3', '-12.50', '0.5', '1234.56', '0.75', null, null]);
  });

  it('reads 100,000 transactions into as many rows (one pass: the count, not the time, is checked here)', () => {
    const transactions = Array.from({ length: 100_000 }, (_, k) => `<TRNTYPE>DEBIT\r\n<DTPOSTED>2024${String((k % 12) + 1).padStart(2, '0')}15\r\n<TRNAMT>-${(k % 100) + 1}.25\r\n<FITID>F${k}\r\n<NAME>Shop ${k}\r\n`);
    const { rows, fileErrors, statements } = parseOfx(sgml(transactions), { ...options, maxRows: 100_000 });
    expect(fileErrors).toEqual([]);
    expect(rows).toHaveLength(100_000);
    expect(rows.at(-1)!.values).toMatchObject({ date: '2024-04-15', amount: '100.25', name: 'Shop 99999', external_id: 'F99999' });
    expect(rows.filter((r) => r.errors.length)).toEqual([]);
    expect(statements![0].rows).toEqual({ first: 1, last: 100_000 });
  });
});

/** The genuine export files of other apps, beside the repository (../shared/realworld), when this machine has them. */
const REALWORLD = (() => {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'shared/realworld/expected.json'))) return join(dir, 'shared/realworld');
  }
  return null;
})();
const GENUINE_OFX = REALWORLD && join(REALWORLD, 'unsupported/beancount-import-checking.ofx');

(GENUINE_OFX && existsSync(GENUINE_OFX) ? describe : describe.skip)('parseOfx: a genuine OFX file (shared/realworld)', () => {
  it('reads beancount-import\'s checking.ofx (OFX 1.02, tab-indented) into the figures worked out from the file', () => {
    const decoded = decodeBytes(readFileSync(GENUINE_OFX!));
    const { rows, fileErrors, statements } = parseOfx('text' in decoded ? decoded.text : '', options);
    expect(fileErrors).toEqual([]);
    expect(rows.flatMap((r) => r.errors)).toEqual([]);
    expect(summary(rows)).toEqual([
      ['2011-03-31', '-0.01', 'DIVIDEND EARNED FOR PERIOD OF 03', 'DIVIDEND EARNED FOR PERIOD OF 03/01/2011 THROUGH 03/31/2011 ANNUAL PERCENTAGE YIELD EARNED IS 0.05%', '0000486'],
      ['2011-04-05', '34.51', 'AUTOMATIC WITHDRAWAL, ELECTRIC BILL', 'AUTOMATIC WITHDRAWAL, ELECTRIC BILL WEB(S )', '0000487'],
      ['2011-04-07', '25.00', 'RETURNED CHECK FEE, CHECK # 319', 'RETURNED CHECK FEE, CHECK # 319 FOR $45.33 ON 04/07/11 — Check number 319', '0000488'],
    ]);
    // 0.01 in, 34.51 and 25.00 out.
    expect(sumOf(rows.map((r) => String(r.values.amount)))).toBe('59.50');
    expect(statements).toEqual([
      {
        account: { id: '1452687~7', bankId: '5472369148', type: 'CHECKING' },
        currency: 'USD',
        periodStart: '2000-01-01',
        periodEnd: '2013-05-25',
        closingBalance: { amount: '100.99', date: '2013-05-25' },
        availableBalance: { amount: '75.99', date: '2013-05-25' },
        rows: { first: 1, last: 3 },
      },
    ]);
  });
});
