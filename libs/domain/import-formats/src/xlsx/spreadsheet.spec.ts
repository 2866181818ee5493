import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, inflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { parseImportContent, type CsvImportSettings } from '../csv-import';
import { numberKind, plainDecimal, type RawInflate, readSpreadsheet, serialDate, type SpreadsheetTable, tableText } from './index';

const FIXTURES = join(__dirname, '../../fixtures/xlsx');
const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));
const MB = 1024 * 1024;
/** CPU milliseconds since `from` (process.cpuUsage()): what the work cost, however busy the machine is. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

function table(bytes: Uint8Array, options: { fileName?: string; sheet?: string; maxTextBytes?: number; inflate?: RawInflate } = {}): SpreadsheetTable {
  const read = readSpreadsheet(bytes, { fileName: options.fileName ?? 'book.xlsx', sheet: options.sheet, maxTextBytes: options.maxTextBytes ?? 10 * MB, inflate: options.inflate });
  if (!read || 'error' in read) throw new Error(`expected a table, got ${JSON.stringify(read)}`);
  return read;
}
function refusal(bytes: Uint8Array, options: { fileName?: string; sheet?: string; maxTextBytes?: number } = {}) {
  const read = readSpreadsheet(bytes, { fileName: options.fileName ?? 'book.xlsx', sheet: options.sheet, maxTextBytes: options.maxTextBytes ?? 10 * MB });
  if (!read || !('error' in read)) throw new Error(`expected a refusal, got ${JSON.stringify(read)}`);
  return read.error;
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
/** A one-sheet workbook with the sheet XML given (no styles, no shared strings unless given). */
function oneSheet(sheetData: string, parts: Record<string, string> = {}, level: 0 | 6 = 6): Uint8Array {
  return zipSync(
    {
      '[Content_Types].xml': strToU8('<Types/>'),
      'xl/workbook.xml': strToU8(`<workbook xmlns="${NS}" xmlns:r="r"><sheets><sheet name="Only" sheetId="1" r:id="rId1"/></sheets></workbook>`),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/sheet1.xml"/></Relationships>',
      ),
      'xl/worksheets/sheet1.xml': strToU8(`<worksheet xmlns="${NS}"><sheetData>${sheetData}</sheetData></worksheet>`),
      ...Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, strToU8(v)])),
    },
    { level },
  );
}

describe('readSpreadsheet: an XLSX workbook', () => {
  const book = fixture('bank-statement.xlsx');

  it('reads the first sheet that is not hidden, as Excel would save it as CSV', () => {
    const read = table(book);
    expect(read.kind).toBe('xlsx');
    expect(read.sheets).toEqual(['Lookups', 'Statement', 'Card']);
    expect(read.sheet).toBe('Statement');
    expect(read.rows).toEqual([
      ['Current account statement, December 2025', '', '', '', '', ''],
      ['Account', 'NL91 ABNA 0417 1643 00', '', '', '', ''],
      ['', '', '', '', '', ''],
      ['Date', 'Description', 'Amount', 'Currency', 'Cleared', 'Memo'],
      ['2025-12-02', 'Salary ACME & Co', '2500', 'EUR', 'TRUE', ''],
      // A custom dd.mm.yyyy format is a date format; rich text runs are one string, the phonetic run left out.
      ['2025-12-03', 'Albert Heijn Amsterdam', '-42.3', 'EUR', 'TRUE', 'Groceries, weekly'],
      ['2025-12-05', 'Interest', '0.01', 'EUR', 'FALSE', '#N/A'],
      // A quoted "d" in a currency format is no date: the number stays a number; a formula gives its cached value.
      ['2025-12-06', 'Transfer "savings"', '-1234.5', 'EUR', 'FALSE', 'ab'],
      // 45998.99999999 is a second short of the 8th: the 8th, not the 7th.
      ['2025-12-08', 'Coffee', '-0.3', 'EUR', '', ''],
    ]);
  });

  it('reads the sheet named, and a date-and-time format as date and time', () => {
    expect(table(book, { sheet: 'Card' }).rows).toEqual([
      ['Booked', 'Merchant', 'Amount'],
      ['2025-12-02 12:00:00', 'Book shop', '-19.99'],
      ['2025-12-04 06:00:00', 'Train', '-7.5'],
    ]);
    // A name differing only in case or spaces still names it.
    expect(table(book, { sheet: ' card ' }).sheet).toBe('Card');
    expect(table(book, { sheet: 'Lookups' }).rows).toEqual([['Code', 'Meaning']]);
  });

  it('says which sheets there are when the one named is not there', () => {
    expect(refusal(book, { sheet: 'Savings' })).toEqual({
      code: 'sheet_not_found',
      message: "The workbook has no sheet named 'Savings'; its sheets are 'Lookups', 'Statement', 'Card'.",
    });
  });

  it('becomes CSV text that the CSV path reads: the title rows above the header found, dates and amounts as the cells', () => {
    const imp: CsvImportSettings = {
      type: 'TransactionImport', colSep: ',', dateColLabel: 'Date', amountColLabel: 'Amount', nameColLabel: 'Description', categoryColLabel: null,
      tagsColLabel: null, notesColLabel: 'Memo', accountColLabel: null, qtyColLabel: null, tickerColLabel: null, priceColLabel: null, entityTypeColLabel: null,
      currencyColLabel: 'Currency', exchangeOperatingMicColLabel: null, dateFormat: null, numberFormat: '1,234.56', signageConvention: 'inflows_positive',
      amountTypeStrategy: 'signed_amount', amountTypeInflowValue: null,
    };
    const parsed = parseImportContent(imp, tableText(table(book).rows), { maxRows: 100, defaultCurrency: 'EUR', hasAccount: true, today: new Date('2026-01-10T00:00:00Z') });
    expect(parsed.fileErrors).toEqual([]);
    expect(parsed.rows.map((r) => [r.values.date, r.values.amount, r.values.name, r.values.notes, r.errors])).toEqual([
      ['2025-12-02', '-2500', 'Salary ACME & Co', null, []],
      ['2025-12-03', '42.3', 'Albert Heijn Amsterdam', 'Groceries, weekly', []],
      ['2025-12-05', '-0.01', 'Interest', '#N/A', []],
      ['2025-12-06', '1234.5', 'Transfer "savings"', 'ab', []],
      ['2025-12-08', '0.3', 'Coffee', null, []],
    ]);
  });

  it('keeps cell positions: cells without a reference follow the one before, gaps are empty cells, skipped rows empty rows', () => {
    const bytes = oneSheet(
      '<row r="2"><c r="B2" t="inlineStr"><is><t>b</t></is></c><c t="inlineStr"><is><t>c</t></is></c></row>' +
        '<row r="4"><c r="A4"><v>1</v></c><c r="D4" t="inlineStr"><is><t xml:space="preserve"> x_x000D_y </t></is></c></row><row r="5"/>',
    );
    expect(table(bytes).rows).toEqual([
      ['', '', '', ''],
      ['', 'b', 'c', ''],
      ['', '', '', ''],
      ['1', '', '', ' x\ry '],
    ]);
  });

  it('reads namespaced elements, CDATA, entities and the 1904 date system', () => {
    const bytes = zipSync({
      'xl/workbook.xml': strToU8(`<x:workbook xmlns:x="${NS}"><x:workbookPr date1904="1"/><x:sheets><x:sheet name="A &amp; B" r:id="rId1"/></x:sheets></x:workbook>`),
      'xl/_rels/workbook.xml.rels': strToU8(
        '<Relationships><Relationship Id="rId1" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet" Target="worksheets/s.xml"/>' +
          '<Relationship Id="rId2" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/styles" Target="styles.xml"/></Relationships>',
      ),
      'xl/styles.xml': strToU8('<x:styleSheet><x:cellStyleXfs><x:xf numFmtId="14"/></x:cellStyleXfs><x:cellXfs><x:xf numFmtId="0"/><x:xf numFmtId="14"/></x:cellXfs></x:styleSheet>'),
      'xl/worksheets/s.xml': strToU8(
        '<x:worksheet><x:sheetData><x:row><x:c s="1"><x:v>0</x:v></x:c><x:c t="str"><x:v><![CDATA[a<b]]></x:v></x:c><x:c t="str"><x:v>&#x20AC;&lt;&#8364;&foo;</x:v></x:c><x:c><x:v>1E-05</x:v></x:c><x:c><x:v>1.5E+20</x:v></x:c></x:row></x:sheetData></x:worksheet>',
      ),
    });
    const read = table(bytes);
    expect(read.sheets).toEqual(['A & B']);
    expect(read.rows).toEqual([['1904-01-01', 'a<b', '€<€&foo;', '0.00001', '150000000000000000000']]);
  });
});

describe('readSpreadsheet: what it refuses', () => {
  it('refuses an old binary .xls with what to do', () => {
    expect(refusal(fixture('legacy-biff.xls'), { fileName: 'statement.xls' })).toEqual({
      code: 'invalid_file_type',
      message:
        '"statement.xls" is an Excel 97-2003 workbook (.xls) or a password-protected one, which this import does not read: open it in Excel or LibreOffice and save it as .xlsx (without a password) or as CSV.',
    });
  });

  it('refuses a workbook cut short, by the file name', () => {
    const book = fixture('bank-statement.xlsx');
    for (const length of [book.length - 10, Math.floor(book.length / 2), 40]) {
      expect(refusal(book.subarray(0, length), { fileName: 'cut.xlsx' })).toEqual({
        code: 'invalid_xlsx',
        message: '"cut.xlsx" is incomplete or damaged (cut short in the upload or download?): save or download it again.',
      });
    }
  });

  it('refuses a part whose compressed data is damaged', () => {
    const book = oneSheet('<row><c><v>1</v></c></row>'.repeat(200));
    const damaged = book.slice();
    // Inside the sheet's deflated data (the entries are written in order, the sheet last).
    damaged.fill(0xff, damaged.length - 400, damaged.length - 300);
    expect(refusal(damaged).code).toBe('invalid_xlsx');
  });

  it('stops a zip bomb (200 MB of sheet XML in 200 KB) fast, whatever its entries claim', () => {
    const bomb = fixture('zip-bomb.xlsx');
    expect(bomb.length).toBeLessThan(MB);
    const started = process.cpuUsage();
    expect(refusal(bomb, { fileName: 'bomb.xlsx' })).toEqual({
      code: 'content_too_large',
      message: '"bomb.xlsx"\'s xl/worksheets/sheet1.xml unpacks to more than 100 times its packed size, as no spreadsheet does (a zip bomb?): it is refused unread.',
    });
    expect(cpuMs(started)).toBeLessThan(1000);
    // A native inflater inflates a part whole, after its first 64 KB (packed) are found to unpack no further than
    // 100 times their size; then no further than 100 times the part's size, or the budget when that is less.
    const inflate = (data: Uint8Array, max: number, partial: boolean) =>
      inflateRawSync(data, { maxOutputLength: max, ...(partial ? { finishFlush: constants.Z_SYNC_FLUSH } : {}) });
    const natively = process.cpuUsage();
    expect(readSpreadsheet(bomb, { fileName: 'bomb.xlsx', maxTextBytes: 10 * MB, inflate })).toEqual({
      error: { code: 'content_too_large', message: '"bomb.xlsx"\'s xl/worksheets/sheet1.xml unpacks to more than 100 times its packed size, as no spreadsheet does (a zip bomb?): it is refused unread.' },
    });
    expect(cpuMs(natively)).toBeLessThan(1000);
    // A real sheet's parts pass the probe, natively as in JavaScript.
    expect(table(fixture('bank-statement.xlsx'), { inflate }).rows).toEqual(table(fixture('bank-statement.xlsx')).rows);
  });

  it('stops at the budget a part packed no better than a real sheet', () => {
    // Stored (not deflated): 5 MB of XML against the 4 MB budget of a 100 KB text limit.
    const sheet = `<row><c t="inlineStr"><is><t></t></is></c></row>`.repeat(110_000);
    expect(refusal(oneSheet(sheet, {}, 0), { maxTextBytes: 100_000 }).message).toBe(
      '"book.xlsx" unpacks to more than 4MB, more than a sheet an import can take would: save the sheet as CSV, or split it.',
    );
  });

  it('stops a sheet whose text is over the import limit, padding of wide rows counted', () => {
    const row = `<row><c t="inlineStr"><is><t>${'x'.repeat(1000)}</t></is></c></row>`;
    expect(refusal(oneSheet(row.repeat(200)), { maxTextBytes: 100_000 })).toEqual({
      code: 'content_too_large',
      message: "The sheet 'Only' holds more than 0.1MB of text, the most one import takes: split it into smaller sheets or files.",
    });
    // One cell in the last column of Excel's 16,384 on each row is 16 KB of separators a row.
    const wide = '<row><c r="XFD1"><v>1</v></c></row>'.repeat(10);
    expect(refusal(oneSheet(wide), { maxTextBytes: 100_000 }).code).toBe('content_too_large');
  });

  it('refuses a part with a DTD unread (no entity expansion), and a chart sheet or binary workbook by name', () => {
    const laughs = '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>';
    const dtd = zipSync({
      'xl/workbook.xml': strToU8(`${laughs}<workbook><sheets><sheet name="S" r:id="rId1"/></sheets></workbook>`),
    });
    expect(refusal(dtd, { fileName: 'lol.xlsx' }).message).toBe('"lol.xlsx"\'s xl/workbook.xml declares a DTD, which no spreadsheet has: it is refused unread.');
    expect(refusal(zipSync({ 'xl/workbook.bin': new Uint8Array(4), 'xl/worksheets/sheet1.bin': new Uint8Array(4) }), { fileName: 'b.xlsb' }).message).toBe(
      '"b.xlsb" is an Excel binary workbook (.xlsb): save it as .xlsx or as CSV.',
    );
  });

  it('leaves other ZIPs and plain CSV text to the text path', () => {
    expect(readSpreadsheet(zipSync({ 'mimetype': strToU8('application/vnd.oasis.opendocument.spreadsheet'), 'content.xml': strToU8('<x/>') }), { fileName: 'a.ods', maxTextBytes: MB })).toBeNull();
    expect(readSpreadsheet(zipSync({ 'photo.jpg': new Uint8Array(8) }), { fileName: 'photos.zip', maxTextBytes: MB })).toBeNull();
    expect(readSpreadsheet(strToU8('Date,Amount\n2025-12-01,1\n'), { fileName: 'a.csv', maxTextBytes: MB })).toBeNull();
    // A .xls that is really CSV (Swedbank LT's statement export) is read as the CSV it is.
    expect(readSpreadsheet(strToU8('"Account No","","Date"\n"LT1","10","2014-10-01"\n'), { fileName: 'statement.xls', maxTextBytes: MB })).toBeNull();
  });
});

describe('readSpreadsheet: a .xls that is an HTML page or tab-separated text', () => {
  it('reads an HTML page as the rows of its tables', () => {
    const read = table(fixture('html-export.xls'), { fileName: 'umsaetze.xls' });
    expect(read.kind).toBe('html');
    expect(read.rows).toEqual([
      ['Kontoauszug Müller & Söhne', '', '', ''],
      ['Datum', 'Empfänger', 'Betrag', 'Verwendungszweck'],
      ['02.12.2025', 'Stadtwerke\u00a0München', '-84,20', 'Abschlag\nDezember'],
      ['03.12.2025', 'Gehalt', '3.150,00', ''],
      ['05.12.2025', 'REWE', '-23,45', 'Karte …1234'],
    ]);
  });

  it('bounds what colspan makes of a small page', () => {
    const page = `<html><table>${'<tr><td colspan="1000">x</td></tr>'.repeat(2000)}</table></html>`;
    expect(refusal(strToU8(page), { fileName: 'x.xls', maxTextBytes: MB }).code).toBe('content_too_large');
  });

  it('reads tab-separated text named .xls', () => {
    expect(table(fixture('tab-separated.xls'), { fileName: 'export.xls' }).rows).toEqual([
      ['Date', 'Description', 'Amount'],
      ['2025-12-02', 'Rent, December', '-950.00'],
      ['2025-12-03', 'Refund', '12.50'],
      ['2025-12-04', 'Shop "Corner"', '-3.20'],
      [''],
    ]);
  });
});

describe('cell values', () => {
  it('writes stored numbers as plain decimals with no float noise', () => {
    expect(['0.30000000000000004', '-42.300000000000004', '1E-05', '-1.5E-7', '1.5E+20', '123456789012345', '2500', '-0', '1.0000000000000001E-2', 'abc', ''].map(plainDecimal)).toEqual([
      '0.3', '-42.3', '0.00001', '-0.00000015', '150000000000000000000', '123456789012345', '2500', '0', '0.01', 'abc', '',
    ]);
  });

  it('tells date formats from number formats', () => {
    expect([14, 22, 20, 4, 0].map((id) => numberKind(id, undefined))).toEqual(['date', 'datetime', 'time', 'number', 'number']);
    const custom = ['dd/mm/yyyy', 'd-mmm-yy', 'mmm', 'h:mm AM/PM', '[h]:mm:ss', 'mm:ss', 'yyyy-mm-dd hh:mm', '[$-409]d/m/yy;@', '#,##0.00 "d"', '0.00E+00', 'General', '[Red]#,##0', '"Day "0'];
    expect(custom.map((code) => numberKind(200, code))).toEqual(['date', 'date', 'date', 'time', 'time', 'time', 'datetime', 'date', 'number', 'number', 'number', 'number', 'number']);
  });

  it('turns date serials into ISO dates in both date systems', () => {
    expect(serialDate(45658, 'date', false)).toBe('2025-01-01');
    expect(serialDate(1, 'date', false)).toBe('1900-01-01');
    expect(serialDate(59, 'date', false)).toBe('1900-02-28');
    expect(serialDate(61, 'date', false)).toBe('1900-03-01');
    // 1900-02-29, a day Excel counts that never was, and serials past 9999-12-31 stay numbers.
    expect(serialDate(60, 'date', false)).toBeNull();
    expect(serialDate(2_958_466, 'date', false)).toBeNull();
    expect(serialDate(0, 'date', true)).toBe('1904-01-01');
    expect(serialDate(45658.75, 'datetime', false)).toBe('2025-01-01 18:00:00');
    expect(serialDate(0.5, 'time', false)).toBe('12:00:00');
  });

  it('quotes only the fields that need it when written as CSV', () => {
    expect(tableText([['a', 'b,c', 'say "hi"'], ['', '', ''], ['line\nbreak', ' x', '1']])).toBe('a,"b,c","say ""hi"""\n\n"line\nbreak"," x",1');
  });
});
