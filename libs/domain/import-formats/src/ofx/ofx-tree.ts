// OFX's markup read into a tree, for both of its syntaxes: OFX 1.x is SGML, whose leaf elements are not closed
// (`<TRNAMT>-12.50` then the next tag), OFX 2.x is XML, whose are (`<TRNAMT>-12.50</TRNAMT>`). One pass over the
// text with indexOf, so the time grows with the file's length only.
//
// Leaves (elements holding text) are kept as their aggregate's fields, not as nodes: a transaction is one node with
// a handful of strings, which keeps a 100,000-transaction statement small in memory.
//
// Security: no declaration is read. A DOCTYPE, ENTITY or any other `<!` declaration refuses the file (an XML bomb's
// entities or an external entity are never expanded); references other than XML's five named ones and numeric
// characters stay as written.

/** An aggregate element: its leaves by tag name (the first, if one is given twice) and its aggregates in order. */
export interface OfxNode {
  name: string;
  fields: Record<string, string>;
  children: OfxNode[];
  /** Offset of its opening tag in the text, for the line a problem is on. */
  offset: number;
}

export type TreeResult = { root: OfxNode } | { error: string };

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** `&amp;` -> `&`, `&#233;` -> `é`; anything else, a bare `&` included (AT&T in SGML files), stays as written. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The 1-based line of each offset, from the line starts found once (only when a problem is reported). */
export function lineFinder(text: string): (offset: number) => number {
  let starts: number[] | null = null;
  return (offset) => {
    if (!starts) {
      starts = [0];
      const breaks = /\r\n|\r|\n/g;
      for (let m = breaks.exec(text); m; m = breaks.exec(text)) starts.push(m.index + m[0].length);
    }
    let [low, high] = [0, starts.length - 1];
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

/**
 * Aggregates the statements are read from: OFX closes every aggregate (only leaves may be left unclosed in SGML), so
 * one of these without its closing tag is a broken file, not an empty leaf.
 */
const AGGREGATES = new Set([
  'OFX', 'STMTTRNRS', 'STMTRS', 'CCSTMTTRNRS', 'CCSTMTRS', 'INVSTMTTRNRS', 'INVSTMTRS', 'BANKACCTFROM', 'CCACCTFROM', 'INVACCTFROM',
  'BANKTRANLIST', 'INVTRANLIST', 'STMTTRN', 'PAYEE', 'CURRENCY', 'ORIGCURRENCY', 'LEDGERBAL', 'AVAILBAL', 'INVBAL', 'STATUS',
  'INVBANKTRAN', 'INVBUY', 'INVSELL', 'INVTRAN', 'SECID', 'INCOME', 'REINVEST', 'INVEXPENSE', 'MARGININTEREST', 'RETOFCAP',
  'TRANSFER', 'SPLIT', 'SECLIST', 'SECINFO', 'STOCKINFO', 'MFINFO', 'DEBTINFO', 'OPTINFO', 'OTHERINFO',
  ...['STOCK', 'MF', 'DEBT', 'OPT', 'OTHER'].flatMap((kind) => [`BUY${kind}`, `SELL${kind}`]),
]);

// Tag names are upper-cased, so a field never shadows an Object.prototype member (all lower or camel case): plain
// objects keep V8's fast properties, which dictionary objects (Object.create(null)) do not.
const newNode = (name: string, offset: number): OfxNode => ({ name, fields: {}, children: [], offset });

/**
 * An element closed without text of its own (an SGML leaf left empty, `<MEMO>` then the next tag): an empty field of
 * its parent. What was read into it while it looked like an aggregate belongs to the parent.
 */
function closeAsLeaf(node: OfxNode, parent: OfxNode): void {
  parent.fields[node.name] ??= '';
  for (const [name, value] of Object.entries(node.fields)) parent.fields[name] ??= value;
  for (const child of node.children) parent.children.push(child);
}

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9 || code === 0xfeff || code === 0xa0;

/** text[from, to) without the white space around it, as one slice ('' when blank): the many gaps between tags cost no string. */
function trimmedSlice(text: string, from: number, to: number): string {
  while (from < to && isSpace(text.charCodeAt(from))) from++;
  while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
  return from < to ? text.slice(from, to) : '';
}

/** `name` when the closing tag at text[lt, gt] is `</name>` exactly as written; null otherwise. */
const closes = (text: string, lt: number, gt: number, name: string | null): string | null =>
  name !== null && gt - lt - 2 === name.length && text.startsWith(name, lt + 2) ? name : null;

/** Where a tag's name ends: at white space, '/' or the tag's end. */
function nameEnd(text: string, from: number, to: number): number {
  let k = from;
  while (k < to && !isSpace(text.charCodeAt(k)) && text.charCodeAt(k) !== 47) k++;
  return k;
}

/**
 * Reads the markup from `start` (after the SGML header, or the whole text for XML) into a tree under a nameless root.
 * Truncated files (an element left open at the end, a tag or comment cut off) and declarations are errors.
 */
export function readOfxTree(text: string, start: number): TreeResult {
  const lineOf = lineFinder(text);
  const root = newNode('', start);
  const stack: OfxNode[] = [root];
  /**
   * The element opened last, while nothing has come after it yet: a leaf if text comes next, an aggregate if a tag
   * opens inside it. Only an aggregate becomes a node, so leaves cost no object.
   */
  let opened: string | null = null;
  let openedAt = 0;
  /** The leaf its text just ended, whose XML closing tag may come next. */
  let lastLeaf: string | null = null;
  /** The text read since the last tag ('' when none): CDATA sections are added to it. */
  let pending = '';
  let i = start;

  /** The element opened last becomes a node on the stack: a tag opens inside it. */
  const openAggregate = () => {
    if (opened === null) return;
    stack.push(newNode(opened, openedAt));
    opened = null;
  };
  /** Makes the text since the last tag the value of the element just opened; text elsewhere is an error. */
  const flushText = (at: number): string | null => {
    const value = pending.trim();
    pending = '';
    if (!value) return null;
    if (opened === null) return `text '${value.slice(0, 40)}' on line ${lineOf(at)} is outside any element`;
    stack[stack.length - 1].fields[opened] ??= decodeEntities(value);
    lastLeaf = opened;
    opened = null;
    return null;
  };

  for (;;) {
    const lt = text.indexOf('<', i);
    const segment = trimmedSlice(text, i, lt < 0 ? text.length : lt);
    if (segment) pending += segment;
    if (lt < 0) break;
    const next = text.charCodeAt(lt + 1);
    if (next === 33 /* ! */ && text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt);
      if (end < 0) return { error: `it ends inside a CDATA section opened on line ${lineOf(lt)}` };
      // Kept apart from entity decoding: the section's text is literal.
      pending += text.slice(lt + 9, end).replace(/&/g, '&amp;');
      i = end + 3;
      continue;
    }
    if (next === 33 && text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) return { error: `it ends inside a comment opened on line ${lineOf(lt)}` };
      i = end + 3;
      continue;
    }
    const gt = text.indexOf('>', lt);
    if (gt < 0) return { error: `it ends inside the tag '${text.slice(lt, lt + 40).trim()}' on line ${lineOf(lt)}` };
    i = gt + 1;
    if (next === 33) {
      const kind = /^<!\s*([A-Za-z]*)/.exec(text.slice(lt, gt))![1].toUpperCase() || 'markup';
      return { error: `it has a ${kind} declaration (line ${lineOf(lt)}); OFX files have none, and declarations are not read (they can expand entities or load other files)` };
    }
    if (next === 63 /* ? */) {
      if (text.charCodeAt(gt - 1) !== 63) return { error: `the processing instruction on line ${lineOf(lt)} is not ended by '?>'` };
      continue;
    }
    if (pending) {
      const textError = flushText(lt);
      if (textError) return { error: textError };
    }
    if (next === 47 /* / */) {
      // Most closing tags close the leaf just read (XML) or the innermost aggregate: matched in place, no string cut.
      const name = closes(text, lt, gt, lastLeaf) ?? closes(text, lt, gt, stack[stack.length - 1].name) ?? text.slice(lt + 2, gt).trim().toUpperCase();
      if (lastLeaf === name) {
        lastLeaf = null;
        continue;
      }
      lastLeaf = null;
      if (opened !== null) {
        // `<MEMO></MEMO>`, or an SGML leaf left empty (`<MEMO>` then its parent's closing tag).
        stack[stack.length - 1].fields[opened] ??= '';
        const closesIt = opened === name;
        opened = null;
        if (closesIt) continue;
      }
      let depth = stack.length - 1;
      while (depth > 0 && stack[depth].name !== name) depth--;
      if (depth === 0) return { error: `the closing tag </${name}> on line ${lineOf(lt)} closes no open element` };
      // Elements opened inside it and never closed are SGML leaves left empty; an aggregate left open is a mistake
      // that would file one transaction's fields under another element, so it is named rather than guessed at.
      while (stack.length - 1 > depth) {
        const unclosed = stack.pop()!;
        if (AGGREGATES.has(unclosed.name)) return { error: `<${unclosed.name}> (line ${lineOf(unclosed.offset)}) is never closed: </${name}> on line ${lineOf(lt)} comes first` };
        closeAsLeaf(unclosed, stack[stack.length - 1]);
      }
      const node = stack.pop()!;
      const parent = stack[stack.length - 1];
      if (node.children.length || !isEmpty(node.fields)) parent.children.push(node);
      else parent.fields[name] ??= '';
      continue;
    }
    lastLeaf = null;
    const name = text.slice(lt + 1, nameEnd(text, lt + 1, gt)).toUpperCase();
    if (!name) return { error: `the tag '${text.slice(lt, Math.min(gt + 1, lt + 40))}' on line ${lineOf(lt)} has no name` };
    openAggregate();
    if (text.charCodeAt(gt - 1) === 47 /* <NAME/> */) stack[stack.length - 1].fields[name] ??= '';
    else [opened, openedAt] = [name, lt];
  }
  const textError = flushText(text.length);
  if (textError) return { error: textError };
  // An element opened last with no text is an SGML leaf left empty at the very end; any other open element is cut off.
  if (opened !== null) stack[stack.length - 1].fields[opened] ??= '';
  if (stack.length > 1) {
    const open = stack.slice(1).reverse();
    const closing = open.map((n) => `</${n.name}>`).join('');
    return { error: `it is cut short: <${open[0].name}> (line ${lineOf(open[0].offset)}) and the elements around it are never closed (missing ${closing})` };
  }
  return { root };
}

function isEmpty(fields: Record<string, string>): boolean {
  for (const _ in fields) return false;
  return true;
}

/** Each aggregate named `name` under `node`, in file order, at any depth (not inside one found). */
export function findAll(node: OfxNode, name: string, found: OfxNode[] = []): OfxNode[] {
  for (const child of node.children) {
    if (child.name === name) found.push(child);
    else findAll(child, name, found);
  }
  return found;
}

/** The first aggregate named `name` among the node's children, or undefined. */
export const childNamed = (node: OfxNode | undefined, name: string): OfxNode | undefined => node?.children.find((c) => c.name === name);
