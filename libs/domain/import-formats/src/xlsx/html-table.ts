// An HTML page saved as .xls (what many banks' "Excel export" is) read as Excel opens it: the rows of its tables,
// one after another, each cell's text without its markup. A cell spanning columns (colspan) is followed by empty ones.

import { SpreadsheetError } from './zip';

/** Named entities that bank exports write: the XML five, no-break space and the Latin-1 letters and signs. */
const LATIN1_NAMES =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest ' +
  'Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig ' +
  'agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", euro: '€', ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', hellip: '…' };
LATIN1_NAMES.split(' ').forEach((name, i) => (NAMED[name] = String.fromCharCode(0xa0 + i)));

/** Where a `<br>` or block end stood in a cell (a private-use character, which no bank's text has), with the spaces around it. */
const BREAK_MARK = '\uE000';
const LINE_BREAK = / ?\uE000 ?/g;
const ENTITY = /&(?:#[xX]([0-9a-fA-F]+)|#(\d+)|([A-Za-z][A-Za-z0-9]*));?/g;

function decodeHtml(text: string): string {
  return text.replace(ENTITY, (whole, hex?: string, dec?: string, name?: string) => {
    if (name) return NAMED[name] ?? whole;
    const n = hex ? parseInt(hex, 16) : Number(dec);
    return n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : whole;
  });
}

/** Whether text is an HTML page or fragment with a table in it (and not a CSV whose first cell starts with '<'). */
export function isHtmlTable(text: string): boolean {
  const start = text.replace(/^\uFEFF/, '').trimStart().slice(0, 512).toLowerCase();
  return /^<(!doctype html|html|head|body|meta|table|\?xml[^>]*>\s*<(!doctype html|html))/.test(start) && /<table[\s>]/i.test(text);
}

/** Markup whose content is never a cell's text. */
const HIDDEN = /<(script|style|head)\b[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

/** The rows of every table in the page, in order; each cell's text with its spaces collapsed, `<br>` as a line break. */
export function htmlTableRows(html: string, maxTextBytes: number): string[][] {
  const rows: string[][] = [];
  // Each cell costs its text and a separator: colspan="1000" on every cell must not build a table of millions.
  let text = 0;
  const spend = (n: number) => {
    text += n;
    if (text > maxTextBytes) {
      throw new SpreadsheetError('content_too_large', `The page's tables hold more than ${Math.round((maxTextBytes / 1024 / 1024) * 10) / 10}MB of text, the most one import takes: split the file.`);
    }
  };
  let row: string[] | null = null;
  let cell: string[] | null = null;
  let span = 1;
  let depth = 0;
  const endCell = () => {
    if (!cell || !row) return;
    const value = decodeHtml(cell.join('')).replace(/[ \t\r\n\f]+/g, ' ').replace(LINE_BREAK, '\n').trim();
    spend(value.length + span);
    row.push(value);
    for (let i = 1; i < span; i++) row.push('');
    cell = null;
  };
  const endRow = () => {
    endCell();
    if (row) rows.push(row);
    row = null;
  };
  const body = html.replace(HIDDEN, '');
  let at = 0;
  for (const m of body.matchAll(TAG)) {
    if (cell) cell.push(body.slice(at, m.index));
    at = m.index + m[0].length;
    const [, closing, rawName, attributes] = m;
    const name = rawName.toLowerCase();
    if (name === 'table') {
      if (closing) {
        endRow();
        depth = Math.max(0, depth - 1);
      } else depth++;
    } else if (!depth) continue;
    else if (name === 'tr') {
      endRow();
      if (!closing) row = [];
    }
    else if (name === 'td' || name === 'th') {
      endCell();
      if (closing) continue;
      row ??= [];
      cell = [];
      const colspan = /\bcolspan\s*=\s*["']?(\d+)/i.exec(attributes);
      span = colspan ? Math.min(Number(colspan[1]), 1000) : 1;
    } else if (cell && (name === 'br' || (closing && (name === 'p' || name === 'div')))) cell.push(BREAK_MARK);
  }
  endRow();
  const width = rows.reduce((most, r) => Math.max(most, r.length), 0);
  spend(rows.reduce((sum, r) => sum + width - r.length + 1, 0));
  for (const r of rows) while (r.length < width) r.push('');
  return rows;
}
