// Writes the spreadsheet fixtures of libs/domain/import-formats/fixtures/xlsx/: XLSX workbooks in the layout Excel
// writes (shared strings, a style sheet with built-in and custom date formats, merged title rows, a hidden sheet),
// and the ".xls" files banks send that are really an HTML page or tab-separated text, or an old binary workbook.
// Run `node tools/xlsx-fixtures.mjs` after changing it; the files are checked in and the specs read them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';

const out = join(dirname(fileURLToPath(import.meta.url)), '../libs/domain/import-formats/fixtures/xlsx');
mkdirSync(out, { recursive: true });

const MTIME = new Date('2026-01-05T10:00:00Z');
const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const xml = (body) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n${body}`;
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Styles as Excel writes them: cellXfs 0 General, 1 built-in date (14, m/d/yyyy), 2 custom dd.mm.yyyy (164),
 * 3 #,##0.00 (4), 4 custom date and time (165), 5 a currency format with a quoted "d" that is no date (166).
 */
const STYLES = xml(
  `<styleSheet xmlns="${NS}"><numFmts count="3"><numFmt numFmtId="164" formatCode="dd\\.mm\\.yyyy"/><numFmt numFmtId="165" formatCode="yyyy\\-mm\\-dd\\ hh:mm:ss"/><numFmt numFmtId="166" formatCode="#,##0.00\\ &quot;d&quot;;[Red]\\-#,##0.00\\ &quot;d&quot;"/></numFmts>` +
    `<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders>` +
    `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
    `<cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
    `<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
    `<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>` +
    `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
);

const column = (i) => (i < 26 ? String.fromCharCode(65 + i) : column(Math.floor(i / 26) - 1) + String.fromCharCode(65 + (i % 26)));

/**
 * A workbook of sheets, each { name, rows, merges?, hidden? }; a row is [rowNumber, cells], a cell one of
 * { s: 'text' } (shared), { is: 'text' } (inline), { n: '1.5', style? }, { b: true }, { e: '#N/A' }, { f, str }
 * (a formula with its cached string), or null (no cell).
 */
function workbook(sheets) {
  const strings = [];
  const shared = (text) => {
    const at = strings.indexOf(text);
    return at >= 0 ? at : strings.push(text) - 1;
  };
  const cellXml = (cell, ref) => {
    if (cell === null) return '';
    if ('s' in cell) return `<c r="${ref}" t="s"><v>${shared(cell.s)}</v></c>`;
    if ('is' in cell) return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${esc(cell.is)}</t></is></c>`;
    if ('b' in cell) return `<c r="${ref}" t="b"><v>${cell.b ? 1 : 0}</v></c>`;
    if ('e' in cell) return `<c r="${ref}" t="e"><v>${esc(cell.e)}</v></c>`;
    if ('str' in cell) return `<c r="${ref}" t="str"><f>${esc(cell.f)}</f><v>${esc(cell.str)}</v></c>`;
    return `<c r="${ref}"${cell.style ? ` s="${cell.style}"` : ''}><v>${cell.n}</v></c>`;
  };
  const files = {};
  sheets.forEach((sheet, i) => {
    const rows = sheet.rows
      .map(([r, cells]) => `<row r="${r}" spans="1:${cells.length}">${cells.map((c, j) => cellXml(c, `${column(j)}${r}`)).join('')}</row>`)
      .join('');
    const merges = sheet.merges ? `<mergeCells count="${sheet.merges.length}">${sheet.merges.map((m) => `<mergeCell ref="${m}"/>`).join('')}</mergeCells>` : '';
    files[`xl/worksheets/sheet${i + 1}.xml`] = xml(
      `<worksheet xmlns="${NS}" xmlns:r="${REL}"><dimension ref="A1"/><sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/><sheetData>${rows}</sheetData>${merges}<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`,
    );
  });
  // Rich text (two runs) and a phonetic run, which is not the string's text, as Excel writes them.
  const sst = strings.map((s) =>
    s.includes('|') ? `<si><r><t>${esc(s.split('|')[0])}</t></r><r><rPr><b/></rPr><t xml:space="preserve">${esc(s.split('|')[1])}</t></r><rPh sb="0" eb="1"><t>yomi</t></rPh></si>` : `<si><t>${esc(s)}</t></si>`,
  );
  files['xl/sharedStrings.xml'] = xml(`<sst xmlns="${NS}" count="${strings.length}" uniqueCount="${strings.length}">${sst.join('')}</sst>`);
  files['xl/styles.xml'] = STYLES;
  files['xl/workbook.xml'] = xml(
    `<workbook xmlns="${NS}" xmlns:r="${REL}"><workbookPr defaultThemeVersion="164011"/><bookViews><workbookView xWindow="0" yWindow="0" windowWidth="28800" windowHeight="12300"/></bookViews><sheets>` +
      sheets.map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}"${s.hidden ? ' state="hidden"' : ''} r:id="rId${i + 1}"/>`).join('') +
      `</sheets><calcPr calcId="191029"/></workbook>`,
  );
  const rels = sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`);
  rels.push(`<Relationship Id="rId${sheets.length + 1}" Type="${REL}/styles" Target="styles.xml"/>`);
  rels.push(`<Relationship Id="rId${sheets.length + 2}" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`);
  files['xl/_rels/workbook.xml.rels'] = xml(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`);
  files['_rels/.rels'] = xml(
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  const overrides = sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('');
  const contentTypes = xml(
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${overrides}</Types>`,
  );
  // [Content_Types].xml first, as Excel writes it (what file-kind sniffing looks at).
  const entries = { '[Content_Types].xml': strToU8(contentTypes) };
  for (const [name, text] of Object.entries(files)) entries[name] = strToU8(text);
  return zipSync(entries, { level: 6, mtime: MTIME });
}

const s = (text) => ({ s: text });
const n = (value, style) => ({ n: value, ...(style ? { style } : {}) });

// A bank statement: a merged title row and an account line above the header, an empty row, dates as serials under
// a built-in and a custom format, amounts with a double's noise and in exponent form, rich and inline text.
const statement = {
  name: 'Statement',
  merges: ['A1:F1'],
  rows: [
    [1, [s('Current account statement, December 2025')]],
    [2, [s('Account'), s('NL91 ABNA 0417 1643 00')]],
    [4, [s('Date'), s('Description'), s('Amount'), s('Currency'), s('Cleared'), s('Memo')]],
    [5, [n('45993', 1), s('Salary ACME & Co'), n('2500', 3), s('EUR'), { b: true }, null]],
    [6, [n('45994', 2), s('Albert Heijn| Amsterdam'), n('-42.300000000000004', 3), s('EUR'), { b: true }, { is: 'Groceries, weekly' }]],
    [7, [n('45996', 1), s('Interest'), n('1.0000000000000001E-2', 3), s('EUR'), { b: false }, { e: '#N/A' }]],
    [8, [n('45997', 1), s('Transfer "savings"'), n('-1234.5', 5), s('EUR'), { b: false }, { f: 'CONCATENATE("a","b")', str: 'ab' }]],
    [9, [n('45998.99999999', 2), s('Coffee'), n('-0.30000000000000004'), s('EUR'), null, null]],
  ],
};
const card = {
  name: 'Card',
  rows: [
    [1, [s('Booked'), s('Merchant'), s('Amount')]],
    [2, [n('45993.5', 4), s('Book shop'), n('-19.99')]],
    [3, [n('45995.25', 4), s('Train'), n('-7.5')]],
  ],
};
const hidden = { name: 'Lookups', hidden: true, rows: [[1, [s('Code'), s('Meaning')]]] };
writeFileSync(join(out, 'bank-statement.xlsx'), workbook([hidden, statement, card]));

// A bank's "Excel" export that is an HTML page (with a colspan title row, entities and a <br> in a cell).
writeFileSync(
  join(out, 'html-export.xls'),
  `<html xmlns:x="urn:schemas-microsoft-com:office:excel">\r\n<head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><style>td { mso-number-format:"\\@"; }</style></head>\r\n<body>\r\n` +
    `<table border="1">\r\n<tr><td colspan="4"><b>Kontoauszug</b> M&uuml;ller &amp; S&ouml;hne</td></tr>\r\n` +
    `<tr><th>Datum</th><th>Empf&auml;nger</th><th>Betrag</th><th>Verwendungszweck</th></tr>\r\n` +
    `<tr><td>02.12.2025</td><td>Stadtwerke&nbsp;M&uuml;nchen</td><td>-84,20</td><td>Abschlag<br>Dezember</td></tr>\r\n` +
    `<tr><td>03.12.2025</td><td>Gehalt</td><td>3.150,00</td><td></td></tr>\r\n` +
    `<tr><td>05.12.2025</td><td>REWE</td><td>-23,45</td><td>Karte &#8230;1234</td></tr>\r\n</table>\r\n</body></html>\r\n`,
);

// A tab-separated statement saved as .xls.
writeFileSync(
  join(out, 'tab-separated.xls'),
  'Date\tDescription\tAmount\r\n2025-12-02\tRent, December\t-950.00\r\n2025-12-03\tRefund\t12.50\r\n2025-12-04\t"Shop ""Corner"""\t-3.20\r\n',
);

// An Excel 97-2003 workbook's first bytes: the Compound File header, refused unread.
const biff = new Uint8Array(1024);
biff.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0, 0, 0, 0, 0, 0x3e, 0, 0x03, 0, 0xfe, 0xff, 0x09, 0]);
writeFileSync(join(out, 'legacy-biff.xls'), biff);
/** A ZIP of entries deflated by node's zlib (fast on hundreds of MB), each { name, data }; CRCs and sizes true. */
function deflatedZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const packed = deflateRawSync(data, { level: 9 });
    const nameBytes = strToU8(name);
    const header = (central) => {
      const h = Buffer.alloc(central ? 46 : 30);
      h.writeUInt32LE(central ? 0x02014b50 : 0x04034b50, 0);
      let at = 4;
      if (central) {
        h.writeUInt16LE(20, at);
        at += 2;
      }
      h.writeUInt16LE(20, at);
      h.writeUInt16LE(0, at + 2);
      h.writeUInt16LE(8, at + 4);
      h.writeUInt32LE(0, at + 6);
      h.writeUInt32LE(crc32(data), at + 10);
      h.writeUInt32LE(packed.length, at + 14);
      h.writeUInt32LE(data.length, at + 18);
      h.writeUInt16LE(nameBytes.length, at + 22);
      if (central) h.writeUInt32LE(offset, 42);
      return Buffer.concat([h, nameBytes]);
    };
    centrals.push(header(true));
    const local = Buffer.concat([header(false), packed]);
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

// A zip bomb: a valid workbook whose one sheet is 200 MB of empty cells (which hold no text), packed to ~200 KB.
const cells = Buffer.from(`<row>${'<c r="A1" s="0"/>'.repeat(4096)}</row>`);
const sheet = Buffer.alloc(200 * 1024 * 1024, cells);
writeFileSync(
  join(out, 'zip-bomb.xlsx'),
  deflatedZip([
    { name: '[Content_Types].xml', data: strToU8('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>') },
    { name: 'xl/workbook.xml', data: strToU8(`<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`) },
    { name: 'xl/_rels/workbook.xml.rels', data: strToU8(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`) },
    { name: 'xl/worksheets/sheet1.xml', data: Buffer.concat([Buffer.from(`<worksheet xmlns="${NS}"><sheetData>`), sheet, Buffer.from('</sheetData></worksheet>')]) },
  ]),
);
console.log(`xlsx fixtures written to ${out}`);
