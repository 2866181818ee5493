import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_HEAD_BYTES, statementFormatOf, wrongFileKind } from './file-kind';

const bytes = (...parts: Array<number[] | string>) => Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p)));
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d], 'IHDR');
/** A ZIP whose first entry is `entry` (its name at byte 30 of the local header). */
const zip = (entry: string) => bytes([0x50, 0x4b, 0x03, 0x04], new Array(26).fill(0), entry);
const XLS = bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], [0, 0, 0, 0]);

describe('wrongFileKind', () => {
  const head = (fixture: string) => Uint8Array.from(readFileSync(join(__dirname, '../fixtures', fixture)).subarray(0, FILE_HEAD_BYTES));

  it('tells every bank statement fixture by its first bytes, and a CSV or QIF as none', () => {
    const found = ['ofx/us-bank-checking-102.ofx', 'ofx/us-card-webconnect.qfx', 'ofx/eu-bank-two-accounts-211.ofx', 'camt/postfinance-053-001-08.xml', 'camt/sparkasse-053-001-02.xml', 'mt940/abn-amro.sta', 'mt940/ing-nl.sta', 'mt940/sparkasse.sta']
      .map((file) => statementFormatOf(head(file)));
    expect(found).toEqual(['ofx', 'ofx', 'ofx', 'camt', 'camt', 'mt940', 'mt940', 'mt940']);
    expect(statementFormatOf(head('checking.qif'))).toBeNull();
    expect(statementFormatOf(bytes('Date,Amount,Notes\n2024-01-01,1,:20: and :25: in a note\n'))).toBeNull();
  });

  it('points a bank statement sent as another type to the type that reads it', () => {
    expect(wrongFileKind('checking.ofx', head('ofx/us-bank-checking-102.ofx'), 'csv')).toBe('"checking.ofx" is an OFX or QFX file, not a CSV file: import it with the import type OfxImport.');
    expect(wrongFileKind('day.xml', head('camt/sparkasse-053-001-02.xml'), 'ofx')).toBe('"day.xml" is a CAMT.053 XML statement, not an OFX or QFX file: import it with the import type CamtImport.');
    expect(wrongFileKind('ing.sta', head('mt940/ing-nl.sta'), 'qif')).toBe('"ing.sta" is an MT940 statement, not a QIF file: import it with the import type Mt940Import.');
    expect(wrongFileKind('ing.sta', head('mt940/ing-nl.sta'), 'mt940')).toBeNull();
  });

  it('lets text through for the text formats, UTF-16 with its byte-order mark included', () => {
    expect(wrongFileKind('bank.csv', bytes('Date,Amount\n2024-01-01,1'), 'csv')).toBeNull();
    expect(wrongFileKind('bank.txt', bytes([0xff, 0xfe], 'D\0a\0'), 'csv')).toBeNull();
    expect(wrongFileKind('x.qif', bytes('!Type:Bank\n'), 'qif')).toBeNull();
    expect(wrongFileKind('x.ndjson', bytes('{"type":"Account"}'), 'ndjson')).toBeNull();
    expect(wrongFileKind('', bytes(''), 'csv')).toBeNull();
  });

  it('names a picture or a PDF sent as text, pointing a PDF to the Pdf type', () => {
    expect(wrongFileKind('receipt.png', PNG, 'csv')).toBe('"receipt.png" is a PNG image, not a CSV file.');
    expect(wrongFileKind('scan.jpg', bytes([0xff, 0xd8, 0xff, 0xe0]), 'qif')).toBe('"scan.jpg" is a JPEG image, not a QIF file.');
    expect(wrongFileKind('a.gif', bytes('GIF89a'), 'ndjson')).toBe('"a.gif" is a GIF image, not an NDJSON file.');
    expect(wrongFileKind('statement.csv', bytes('%PDF-1.7\n'), 'csv')).toBe('"statement.csv" is a PDF document, not a CSV file. For a PDF bank statement, choose the import type Pdf.');
  });

  it('tells a spreadsheet, by its name or by what its ZIP holds, to be exported as CSV', () => {
    const advice = 'Open it in its spreadsheet app (Excel, LibreOffice, Numbers, Google Sheets), export or save the sheet as CSV, and choose that file.';
    expect(wrongFileKind('statement.xlsx', zip('xl/workbook.xml'), 'csv')).toBe(`"statement.xlsx" is a spreadsheet, not a CSV file. ${advice}`);
    expect(wrongFileKind('download', zip('[Content_Types].xml'), 'csv')).toBe(`"download" is a spreadsheet, not a CSV file. ${advice}`);
    expect(wrongFileKind('budget.ods', zip('mimetypeapplication/vnd.oasis.opendocument.spreadsheet'), 'csv')).toContain('is a spreadsheet, not a CSV file');
    expect(wrongFileKind('old.xls', XLS, 'csv')).toBe(`"old.xls" is a spreadsheet, not a CSV file. ${advice}`);
    expect(wrongFileKind('old.xls', XLS, 'qif')).toBe(
      '"old.xls" is a spreadsheet, not a QIF file. Open it in its spreadsheet app (Excel, LibreOffice, Numbers, Google Sheets), export or save the sheet as CSV, and import it with a CSV type (Transaction, Trade, Account, ...).',
    );
    expect(wrongFileKind('export.zip', zip('bank.csv'), 'csv')).toBe('"export.zip" is a ZIP archive, not a CSV file: unpack it and choose the file inside.');
  });

  it('refuses other bytes with NUL in them as no text', () => {
    expect(wrongFileKind('data.bin', bytes([1, 2, 0, 3]), 'csv')).toBe('"data.bin" is not text (it has NUL bytes): choose a CSV file.');
  });

  it('takes any PDF-looking file for a PDF statement, and names a picture or spreadsheet chosen instead', () => {
    expect(wrongFileKind('statement.pdf', bytes('%PDF-1.4'), 'pdf')).toBeNull();
    // Leading bytes before the header are for the PDF reader to judge.
    expect(wrongFileKind('statement.pdf', bytes('\n\n%PDF-1.4'), 'pdf')).toBeNull();
    expect(wrongFileKind('photo.png', PNG, 'pdf')).toBe('"photo.png" is a PNG image, not a PDF statement.');
    expect(wrongFileKind('s.xlsx', zip('[Content_Types].xml'), 'pdf')).toContain('is a spreadsheet, not a PDF statement');
  });
});
