// A small XML reader for bank statements (CAMT): elements, attributes, text, CDATA, comments and processing
// instructions, with the five predefined entities and character references. It refuses what a statement never needs
// and an attacker would: a DOCTYPE or any other `<!` declaration is refused unread, so no entity can be defined,
// expanded (billion laughs) or fetched (external entities). A document cut short is refused, never read as complete.
// Elements the caller is done with can be left out of the tree as they end, so memory stays bounded by the largest
// element kept, not by the file.

/** An element: its local name (any prefix removed), attributes, child elements kept and text (entities decoded). */
export interface XmlElement {
  name: string;
  /** The name as written, prefix included. */
  tag: string;
  attributes: Record<string, string> | null;
  children: XmlElement[];
  text: string;
  /** Offset of its start tag in the text read, for the line a message names. */
  offset: number;
}

/** Why the text is not a document the reader takes: malformed, cut short or declaring a DOCTYPE. */
export class XmlRefused extends Error {}

export interface XmlHandlers {
  /** A start tag was read; `ancestors` are the open elements, root first. Throwing stops the reading. */
  open?(element: XmlElement, ancestors: readonly XmlElement[]): void;
  /** An element ended; returning false leaves it out of its parent's children (the caller has used it). */
  close?(element: XmlElement, ancestors: readonly XmlElement[]): boolean;
}

/** Distinct element names remembered once checked: a statement has a few hundred. */
const MAX_NAMES = 10_000;
/** The children of every element that has none (most are leaves): an element's own array is made at its first child. */
const NO_CHILDREN: XmlElement[] = Object.freeze([]) as unknown as XmlElement[];
/** Deeper than any statement nests: past this the document is refused rather than held. */
const MAX_DEPTH = 100;

/** An element name, with at most one prefix. */
const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?$/;
/** A start tag after its name: its attributes (each value quoted, without `<`), a `/` when it closes itself, and `>`. */
const REST_OF_TAG = /((?:\s+[^\s=/>]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const REFERENCE = /&(?:#x([0-9a-fA-F]{1,6});|#([0-9]{1,7});|(amp|lt|gt|quot|apos);)|&/g;
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML's whitespace: space, tab, line feed, carriage return. */
const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
/** Characters that end a tag's name (whitespace, `>`, `/`) or cannot be in one; the name is checked whole after. */
const isNameChar = (code: number) => code > 0x3e || (code > 0x20 && code !== 0x2f && code !== 0x3c && code !== 0x3d && code !== 0x3e && code !== 0x22 && code !== 0x27);
/** A tag's start, on one line, for messages. */
const excerpt = (text: string, offset: number) => text.slice(offset, offset + 30).split(/\r?\n/)[0];

/** Line (1-based) of an offset; for messages only. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Lines of ascending offsets, counted on from the last one asked: linear over a file whose rows each need theirs. */
export function lineCounter(text: string): (offset: number) => number {
  let at = 0;
  let line = 1;
  return (offset) => {
    if (offset < at) [at, line] = [0, 1];
    for (let i = text.indexOf('\n', at); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
    at = offset;
    return line;
  };
}

/** Reads the document and returns its root element (with the children the handlers kept). */
export function readXml(text: string, handlers: XmlHandlers = {}): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const refuse = (what: string, offset: number): never => {
    throw new XmlRefused(`${what} (line ${lineAt(text, offset)})`);
  };
  const cutShort = (what: string, offset: number): never => refuse(`the file ends inside ${what}: it is cut short`, offset);
  const decode = (raw: string, offset: number): string =>
    raw.indexOf('&') === -1
      ? raw
      : raw.replace(REFERENCE, (whole, hex: string | undefined, decimal: string | undefined, named: string | undefined, at: number) => {
          if (named) return PREDEFINED[named];
          const code = hex ? parseInt(hex, 16) : decimal ? Number(decimal) : NaN;
          if (Number.isNaN(code)) {
            const shown = /^&[^\s&;<]{0,20};?/.exec(raw.slice(at))![0];
            return refuse(`'${shown}' is not a character the file may name: only &amp; &lt; &gt; &quot; &apos; and &#...; are read, and a file may not declare its own entities`, offset);
          }
          if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return refuse(`'${whole}' is not a character`, offset);
          return String.fromCodePoint(code);
        });
  const end = (element: XmlElement) => {
    const keep = handlers.close ? handlers.close(element, stack) : true;
    if (!keep || !stack.length) return;
    const parent = stack[stack.length - 1];
    if (parent.children === NO_CHILDREN) parent.children = [element];
    else parent.children.push(element);
  };

  const length = text.length;
  // Each name checked once, and every element of that name shares its strings.
  const names = new Map<string, { tag: string; name: string }>();
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    // Whitespace between tags (indentation) is passed over without being cut out of the text.
    let lt = i;
    while (lt < length && isSpace(text.charCodeAt(lt))) lt++;
    if (lt < length && text.charCodeAt(lt) !== 0x3c /* < */) {
      lt = text.indexOf('<', lt);
      if (lt === -1) lt = length;
      if (!stack.length) refuse(root ? 'text after the root element ends' : 'text before the root element', i);
      stack[stack.length - 1].text += decode(text.slice(i, lt), i);
    }
    if (lt >= length) break;
    const next = text.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        const close = text.indexOf('-->', lt + 4);
        if (close === -1) cutShort('a comment', lt);
        i = close + 3;
      } else if (text.startsWith('<![CDATA[', lt)) {
        const close = text.indexOf(']]>', lt + 9);
        if (close === -1) cutShort('a CDATA section', lt);
        if (!stack.length) refuse('a CDATA section outside the root element', lt);
        stack[stack.length - 1].text += text.slice(lt + 9, close);
        i = close + 3;
      } else {
        // <!DOCTYPE, <!ENTITY, <!ELEMENT: a declaration can define entities that expand beyond any memory, or read
        // files and addresses; a statement has no use for one. Refused before anything in it is read.
        const declaration = /^<!\[?[A-Za-z]*/.exec(text.slice(lt, lt + 20))![0];
        refuse(`the file has a ${declaration} declaration, which is refused: a statement needs none, and one can define entities that expand without end or read other files`, lt);
      }
      continue;
    }
    if (next === 0x3f /* ? */) {
      const close = text.indexOf('?>', lt + 2);
      if (close === -1) cutShort('a processing instruction', lt);
      i = close + 2;
      continue;
    }
    if (next === 0x2f /* / */) {
      // An end tag must name the element it ends: compared in place, without cutting the name out.
      const open = stack.pop();
      if (!open) refuse(`'${excerpt(text, lt)}' ends an element that was not started`, lt);
      let gt = lt + 2 + open!.tag.length;
      while (gt < length && isSpace(text.charCodeAt(gt))) gt++;
      if (!text.startsWith(open!.tag, lt + 2) || text.charCodeAt(gt) !== 0x3e /* > */) {
        if (gt >= length || text.indexOf('>', lt) === -1) cutShort('an end tag', lt);
        refuse(`'${excerpt(text, lt)}' does not end <${open!.tag}> (started on line ${lineAt(text, open!.offset)})`, lt);
      }
      i = gt + 1;
      end(open!);
      continue;
    }
    let nameEnd = lt + 1;
    while (nameEnd < length && isNameChar(text.charCodeAt(nameEnd))) nameEnd++;
    const qualified = text.slice(lt + 1, nameEnd);
    let attributes: Record<string, string> | null = null;
    let selfClosing = false;
    if (text.charCodeAt(nameEnd) === 0x3e /* > */) i = nameEnd + 1;
    else {
      REST_OF_TAG.lastIndex = nameEnd;
      const rest = REST_OF_TAG.exec(text);
      if (!rest) {
        if (text.indexOf('>', lt) === -1) cutShort('a tag', lt);
        refuse(`'${excerpt(text, lt)}' is not a well-formed tag`, lt);
      }
      if (rest![1]) attributes = attributesOf(rest![1], (raw) => decode(raw, lt));
      selfClosing = rest![2] === '/';
      i = REST_OF_TAG.lastIndex;
    }
    let known = names.get(qualified);
    if (!known) {
      if (!NAME.test(qualified)) {
        if (nameEnd >= length) cutShort('a tag', lt);
        refuse(`'${excerpt(text, lt)}' is not a well-formed tag`, lt);
      }
      const colon = qualified.indexOf(':');
      known = { tag: qualified, name: colon === -1 ? qualified : qualified.slice(colon + 1) };
      if (names.size < MAX_NAMES) names.set(qualified, known);
    }
    if (stack.length === 0 && root) refuse(`<${qualified}> follows the root element: a document has one`, lt);
    if (stack.length >= MAX_DEPTH) refuse(`elements nest more than ${MAX_DEPTH} deep`, lt);
    const element: XmlElement = {
      name: known.name,
      tag: known.tag,
      attributes,
      children: NO_CHILDREN,
      text: '',
      offset: lt,
    };
    root ??= element;
    handlers.open?.(element, stack);
    if (selfClosing) end(element);
    else stack.push(element);
  }
  if (stack.length) cutShort(`<${stack[stack.length - 1].tag}>, which is never closed`, stack[stack.length - 1].offset);
  if (!root) throw new XmlRefused('the file holds no XML element');
  return root;
}

function attributesOf(text: string, decode: (raw: string) => string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [, name, double, single] of text.matchAll(ATTRIBUTE)) attributes[name] = decode(double ?? single);
  return attributes;
}

/** The first child of that local name, or undefined. */
export function childOf(element: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!element) return undefined;
  for (const child of element.children) if (child.name === name) return child;
  return undefined;
}

/** The element at a path of local names below this one (`'Amt'`, `'Dt/Dt'`), or undefined. */
export function elementAt(element: XmlElement | undefined, path: string): XmlElement | undefined {
  let names = PATHS.get(path);
  if (!names) PATHS.set(path, (names = path.split('/')));
  let at = element;
  for (const name of names) at = childOf(at, name);
  return at;
}
/** Paths split once: the same few are asked for every entry. */
const PATHS = new Map<string, string[]>();

/** Trimmed text of the element at a path, or '' when there is none. */
export const textAt = (element: XmlElement | undefined, path: string): string => elementAt(element, path)?.text.trim() ?? '';

/** Every child of that local name. */
export const childrenOf = (element: XmlElement | undefined, name: string): XmlElement[] => element?.children.filter((c) => c.name === name) ?? [];
