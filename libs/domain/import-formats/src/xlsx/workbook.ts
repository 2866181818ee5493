import { type NumberKind, numberKind, plainDecimal, serialDate } from './cell-values';
import { attributeOf, attributesOf, decodeXmlText, type XmlHandler, XmlScanner } from './xml';
import { entryChunks, type InflateBudget, type RawInflate, SpreadsheetError, type ZipEntry, zipEntries } from './zip';

// An XLSX workbook's sheet read as a table of text cells, as Excel's "Save as CSV" would write it: the cached value
// of each cell (never its formula), shared and inline strings as text, TRUE/FALSE, error values as shown (#N/A),
// numbers as plain decimals and numbers under a date format as ISO dates. Merged cells keep their value in the first
// cell, as Excel does; every row is as wide as the widest.

export interface SheetTable {
  /** The workbook's sheet names, in its order. */
  sheets: string[];
  /** The sheet the rows were read from. */
  sheet: string;
  /** Its rows from row 1, a row the sheet leaves out as an empty row, each as wide as the widest. */
  rows: string[][];
}

export interface SheetOptions {
  /** The sheet to read, by name; absent: the first sheet that is not hidden. */
  sheet?: string | null;
  /** The most text the table may hold (its cells and separators), as a CSV upload's limit. */
  maxTextBytes: number;
  /** A native inflater (node's zlib) to use instead of the JavaScript one. */
  inflate?: RawInflate;
}

/** The archive being read: its bytes and entries, what is left of its budget, and the inflater. */
interface Archive {
  bytes: Uint8Array;
  entries: Map<string, ZipEntry>;
  budget: InflateBudget;
  inflate?: RawInflate;
}

/** XML inflated from the archive, per byte of table text allowed: sheet XML spends some 5-10 bytes on a cell's byte. */
const XML_BYTES_PER_TEXT_BYTE = 8;
/** The least XML budget, for the small limits tests set: a workbook's fixed parts (styles, theme) come to ~100 KB. */
const MIN_XML_BYTES = 4 * 1024 * 1024;

interface SheetEntry {
  name: string;
  path: string | null;
  hidden: boolean;
  /** A chart sheet has no cells. */
  chart: boolean;
}

/** Whether the archive's entries are those of an Excel workbook. */
export function isWorkbook(entries: Map<string, ZipEntry>): boolean {
  return entries.has('xl/workbook.xml') || [...entries.keys()].some((name) => name.startsWith('xl/worksheets/'));
}

/** Reads a part (XML) through a handler, inflating it under the budget. */
function readPart(archive: Archive, path: string, handler: XmlHandler, maxPending: number): boolean {
  const entry = archive.entries.get(path.toLowerCase());
  if (!entry) return false;
  const scanner = new XmlScanner(handler, maxPending, path);
  const decoder = new TextDecoder();
  for (const chunk of entryChunks(archive.bytes, entry, archive.budget, archive.inflate)) scanner.feed(decoder.decode(chunk, { stream: true }), false);
  scanner.feed(decoder.decode(), true);
  return true;
}

/** A part's relationships (Id -> target path and type), targets resolved against the part's folder. */
function relationships(archive: Archive, part: string): Map<string, { path: string; type: string }> {
  const folder = part.slice(0, part.lastIndexOf('/') + 1);
  const found = new Map<string, { path: string; type: string }>();
  const handler: XmlHandler = {
    open(name, raw) {
      if (name !== 'Relationship') return;
      const a = attributesOf(raw);
      if (a.Id && a.Target && a.TargetMode !== 'External') found.set(a.Id, { path: resolvePath(folder, a.Target), type: a.Type ?? '' });
    },
    close() {},
    text() {},
  };
  readPart(archive, `${folder}_rels/${part.slice(folder.length)}.rels`, handler, 1 << 20);
  return found;
}

function resolvePath(folder: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : folder + target).split('/');
  const resolved: string[] = [];
  for (const part of parts) {
    if (part === '..') resolved.pop();
    else if (part !== '.' && part !== '') resolved.push(part);
  }
  return resolved.join('/');
}

const isType = (type: string, name: string) => type.endsWith(`/${name}`);

/** The shared strings: each `<si>` item's text, its phonetic runs (`<rPh>`) left out. */
function sharedStrings(archive: Archive, path: string | undefined, maxPending: number): string[] {
  const strings: string[] = [];
  if (!path) return strings;
  let current: string | null = null;
  let inText = false;
  let phonetic = 0;
  readPart(archive, path, {
    open(name, _raw, selfClosing) {
      if (name === 'si') current = '';
      else if (name === 't' && !selfClosing) inText = true;
      else if (name === 'rPh') phonetic++;
    },
    close(name) {
      if (name === 'si' && current !== null) {
        strings.push(unescapeOoxml(current));
        current = null;
      } else if (name === 't') inText = false;
      else if (name === 'rPh') phonetic--;
    },
    text(raw, cdata) {
      if (inText && current !== null && !phonetic) current += cdata ? raw : decodeXmlText(raw);
    },
  }, maxPending);
  return strings;
}

/** `_xHHHH_` is how Office writes a character XML cannot hold (a carriage return is `_x000D_`). */
const unescapeOoxml = (text: string) => (text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text);

/** What each cell style (the `s` of a cell) shows a number as. */
function cellStyles(archive: Archive, path: string | undefined): NumberKind[] {
  const codes = new Map<number, string>();
  const formats: number[] = [];
  let inCellXfs = false;
  if (path) {
    readPart(archive, path, {
      open(name, raw) {
        if (name === 'numFmt') {
          const a = attributesOf(raw);
          codes.set(Number(a.numFmtId), a.formatCode ?? '');
        } else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) formats.push(Number(attributesOf(raw).numFmtId ?? 0));
      },
      close(name) {
        if (name === 'cellXfs') inCellXfs = false;
      },
      text() {},
    }, 1 << 20);
  }
  return formats.map((id) => numberKind(id, codes.get(id)));
}

/** A cell reference's column as a 0-based index: `A1` is 0, `AB7` is 27; -1 when it names none. */
function columnOf(ref: string): number {
  let column = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) break;
    column = column * 26 + (c - 0x60);
  }
  return i === 0 || column > 16_384 ? -1 : column - 1;
}

const tooMuchText = (sheet: string, max: number) =>
  new SpreadsheetError(
    'content_too_large',
    `The sheet '${sheet}' holds more than ${Math.round((max / 1024 / 1024) * 10) / 10}MB of text, the most one import takes: split it into smaller sheets or files.`,
  );

/** The sheet's rows, read as the sheet part streams in. */
function sheetRows(archive: Archive, sheet: SheetEntry, context: { strings: string[]; styles: NumberKind[]; date1904: boolean; maxTextBytes: number }): string[][] {
  const rows: string[][] = [];
  let text = 0;
  let row: string[] | null = null;
  let column = -1;
  let cell: { type: string; style: number; value: string; inline: boolean } | null = null;
  let inValue = false;
  let phonetic = 0;
  const valueOf = (c: NonNullable<typeof cell>): string => {
    const raw = c.value;
    switch (c.type) {
      case 's': {
        const index = Number(raw);
        return Number.isInteger(index) ? (context.strings[index] ?? '') : '';
      }
      case 'inlineStr':
        return unescapeOoxml(raw);
      case 'str':
        return unescapeOoxml(raw);
      case 'b':
        return raw === '1' ? 'TRUE' : raw === '0' ? 'FALSE' : raw;
      case 'e':
        return raw;
      case 'd':
        return raw.endsWith('T00:00:00') || raw.endsWith('T00:00:00Z') ? raw.slice(0, 10) : raw.replace('T', ' ').replace(/Z$/, '');
      default: {
        const kind = context.styles[c.style] ?? 'number';
        return (kind !== 'number' && serialDate(Number(raw), kind, context.date1904)) || plainDecimal(raw.trim());
      }
    }
  };
  readPart(archive, sheet.path!, {
    open(name, raw) {
      if (name === 'row') {
        const r = Number(attributeOf(raw, 'r'));
        // A row's number says where it stands; rows the sheet leaves out are empty rows of the table.
        const target = Number.isInteger(r) && r > rows.length ? r - 1 : rows.length;
        text += target - rows.length + 1;
        if (text > context.maxTextBytes) throw tooMuchText(sheet.name, context.maxTextBytes);
        while (rows.length < target) rows.push([]);
        row = [];
        rows.push(row);
        column = -1;
      } else if (name === 'c' && row) {
        const ref = attributeOf(raw, 'r');
        const at = ref ? columnOf(ref) : -1;
        column = at > column ? at : column + 1;
        cell = { type: attributeOf(raw, 't') ?? 'n', style: Number(attributeOf(raw, 's') ?? 0), value: '', inline: false };
      } else if (name === 'v' && cell) inValue = true;
      else if (name === 'is' && cell) cell.inline = true;
      else if (name === 't' && cell?.inline) inValue = true;
      else if (name === 'rPh') phonetic++;
    },
    close(name) {
      if (name === 'c' && cell && row) {
        const value = valueOf(cell);
        if (value !== '') {
          // The empty cells before it are separators of the table's text too.
          text += value.length + 1 + Math.max(0, column - row.length);
          if (text > context.maxTextBytes) throw tooMuchText(sheet.name, context.maxTextBytes);
          while (row.length < column) row.push('');
          row[column] = value;
        }
        cell = null;
      } else if (name === 'v' || name === 't') inValue = false;
      else if (name === 'row') row = null;
      else if (name === 'rPh') phonetic--;
    },
    text(raw, cdata) {
      if (inValue && cell && !phonetic) cell.value += cdata ? raw : decodeXmlText(raw);
    },
  }, context.maxTextBytes);
  while (rows.length && !rows[rows.length - 1].length) rows.pop();
  const width = rows.reduce((most, r) => Math.max(most, r.length), 0);
  // Every row as wide as the widest: a short row's missing cells are empty, not missing columns.
  const padding = rows.reduce((sum, r) => sum + width - r.length, 0);
  if (text + padding > context.maxTextBytes) throw tooMuchText(sheet.name, context.maxTextBytes);
  for (const r of rows) while (r.length < width) r.push('');
  return rows;
}

/** The sheet named, or the first one not hidden; a chart sheet or a missing name is an error naming the sheets there are. */
function chosenSheet(sheets: SheetEntry[], wanted: string | null | undefined): SheetEntry {
  const names = sheets.map((s) => `'${s.name}'`).join(', ');
  if (!sheets.length) throw new SpreadsheetError('invalid_xlsx', 'The XLSX file has no sheets.');
  let sheet: SheetEntry | undefined;
  if (wanted != null && wanted !== '') {
    sheet = sheets.find((s) => s.name === wanted) ?? sheets.find((s) => s.name.trim().toLowerCase() === wanted.trim().toLowerCase());
    if (!sheet) throw new SpreadsheetError('sheet_not_found', `The workbook has no sheet named '${wanted}'; its sheets are ${names}.`);
  } else {
    sheet = sheets.find((s) => !s.hidden && !s.chart) ?? sheets.find((s) => !s.chart) ?? sheets[0];
  }
  if (sheet.chart || !sheet.path) throw new SpreadsheetError('sheet_not_found', `The sheet '${sheet.name}' is a chart, not a table; the workbook's sheets are ${names}.`);
  return sheet;
}

/** The workbook's sheet (the one named, or the first) as rows of text, under a budget for what is inflated and kept. */
export function readWorkbook(bytes: Uint8Array, options: SheetOptions, entries = zipEntries(bytes)): SheetTable {
  const total = Math.max(MIN_XML_BYTES, options.maxTextBytes * XML_BYTES_PER_TEXT_BYTE);
  const archive: Archive = { bytes, entries, budget: { remaining: total, total }, inflate: options.inflate };
  const root = relationships(archive, '');
  const workbookPath = [...root.values()].find((r) => isType(r.type, 'officeDocument'))?.path ?? 'xl/workbook.xml';
  const parts = relationships(archive, workbookPath);
  const sheets: SheetEntry[] = [];
  let date1904 = false;
  const found = readPart(archive, workbookPath, {
    open(name, raw) {
      if (name === 'sheet') {
        const a = attributesOf(raw);
        const part = a.id ? parts.get(a.id) : undefined;
        sheets.push({ name: a.name ?? '', path: part?.path ?? null, hidden: a.state === 'hidden' || a.state === 'veryHidden', chart: !!part && !isType(part.type, 'worksheet') });
      } else if (name === 'workbookPr') {
        const flag = attributesOf(raw).date1904;
        date1904 = flag === '1' || flag === 'true';
      }
    },
    close() {},
    text() {},
  }, 1 << 20);
  if (!found) throw new SpreadsheetError('invalid_xlsx', 'The file is a ZIP archive without a workbook (xl/workbook.xml): save the sheet again as .xlsx, or as CSV.');
  const sheet = chosenSheet(sheets, options.sheet);
  const partOf = (type: string) => [...parts.values()].find((r) => isType(r.type, type))?.path;
  const context = {
    strings: sharedStrings(archive, partOf('sharedStrings'), options.maxTextBytes),
    styles: cellStyles(archive, partOf('styles')),
    date1904,
    maxTextBytes: options.maxTextBytes,
  };
  if (!entries.has(sheet.path!.toLowerCase())) throw new SpreadsheetError('invalid_xlsx', `The XLSX file lacks the part of sheet '${sheet.name}' (${sheet.path}): save it again from Excel or LibreOffice.`);
  return { sheets: sheets.map((s) => s.name), sheet: sheet.name, rows: sheetRows(archive, sheet, context) };
}
