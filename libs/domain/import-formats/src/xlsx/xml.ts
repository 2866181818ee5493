import { SpreadsheetError } from './zip';

// A streaming reader of the plain XML a spreadsheet's parts are written in: elements, attributes and text, fed in
// chunks as they are inflated. Only the five predefined entities and character references are expanded; a DTD is
// refused, so no entity of the file's own can grow (billion laughs) or reach outside it (external entities).

export interface XmlHandler {
  /** An element's start; `attributes` is its raw attribute text, read with attributesOf when needed. */
  open(name: string, attributes: string, selfClosing: boolean): void;
  close(name: string): void;
  /** Text between tags, undecoded (decodeXmlText), or a CDATA section's text as it is. */
  text(raw: string, cdata: boolean): void;
}

/** The element's name without its namespace prefix (`x:row` is `row`). */
const localName = (name: string) => (name.includes(':') ? name.slice(name.indexOf(':') + 1) : name);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g;
const codePoint = (n: number) => (n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\ufffd');

/** Text or an attribute value with its character and entity references expanded; any other `&name;` is left as it is. */
export function decodeXmlText(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(ENTITY, (_, hex?: string, dec?: string, name?: string) =>
    name ? ENTITIES[name] : codePoint(hex ? parseInt(hex, 16) : Number(dec)),
  );
}

const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** An element's attributes by name without prefix (`r:id` is `id`), values decoded. */
export function attributesOf(raw: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const m of raw.matchAll(ATTRIBUTE)) found[localName(m[1])] = decodeXmlText(m[2] ?? m[3]);
  return found;
}

const ONE_ATTRIBUTE = new Map<string, RegExp>();

/** One attribute's decoded value (matched without prefix), or undefined: quicker than attributesOf for a cell's r, t and s. */
export function attributeOf(raw: string, name: string): string | undefined {
  let pattern = ONE_ATTRIBUTE.get(name);
  if (!pattern) ONE_ATTRIBUTE.set(name, (pattern = new RegExp(`(?:^|[\\s:])${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)));
  const m = pattern.exec(raw);
  return m ? decodeXmlText(m[1] ?? m[2]) : undefined;
}

/**
 * Feeds XML text to a handler as far as it is complete, keeping back an unfinished tag (or the text before it) for
 * the next chunk. `maxPending` bounds what is kept back: one tag or text run longer than it is no spreadsheet's.
 */
export class XmlScanner {
  private pending = '';

  constructor(
    private readonly handler: XmlHandler,
    private readonly maxPending: number,
    private readonly part: string,
  ) {}

  feed(chunk: string, final: boolean): void {
    const text = this.pending + chunk;
    const done = this.scan(text, final);
    this.pending = text.slice(done);
    if (this.pending.length > this.maxPending) {
      throw new SpreadsheetError('content_too_large', `The XLSX file's ${this.part} has a cell or element longer than ${Math.round(this.maxPending / 1024 / 1024)}MB, more than an import can take.`);
    }
    if (final && this.pending.trim()) this.malformed();
  }

  private malformed(): never {
    throw new SpreadsheetError('invalid_xlsx', `The XLSX file's ${this.part} is not well-formed XML: save the file again from Excel or LibreOffice.`);
  }

  /** Handles every complete tag and text run of `text`; returns where the unhandled rest starts. */
  private scan(text: string, final: boolean): number {
    let at = 0;
    while (at < text.length) {
      const lt = text.indexOf('<', at);
      if (lt < 0) return final ? (this.handler.text(text.slice(at), false), text.length) : at;
      if (lt > at) this.handler.text(text.slice(at, lt), false);
      const end = this.markupEnd(text, lt);
      if (end < 0) return lt;
      at = end;
    }
    return at;
  }

  /** Handles the markup at `lt`; returns where it ends, or -1 when it is not all in `text` yet. */
  private markupEnd(text: string, lt: number): number {
    const next = text[lt + 1];
    if (next === '?') return this.skipTo(text, lt, '?>');
    if (next === '!') {
      if (text.startsWith('<!--', lt)) return this.skipTo(text, lt, '-->');
      if (text.startsWith('<![CDATA[', lt)) {
        const end = text.indexOf(']]>', lt);
        if (end < 0) return -1;
        this.handler.text(text.slice(lt + 9, end), true);
        return end + 3;
      }
      if (text.length - lt < 9) return -1;
      // A DTD is how an XML file declares entities of its own: no spreadsheet part has one.
      throw new SpreadsheetError('invalid_xlsx', `The XLSX file's ${this.part} declares a DTD, which no spreadsheet has: it is refused unread.`);
    }
    // The tag ends at the first '>' outside a quoted attribute value (a number format may hold '>' in quotes).
    TAG_END.lastIndex = lt + 1;
    for (;;) {
      const m = TAG_END.exec(text);
      if (!m) return -1;
      if (m[0] === '>') return this.tag(text, lt, m.index);
      if (m[0] === '<') this.malformed();
      const close = text.indexOf(m[0], m.index + 1);
      if (close < 0) return -1;
      TAG_END.lastIndex = close + 1;
    }
  }

  private skipTo(text: string, from: number, terminator: string): number {
    const end = text.indexOf(terminator, from);
    return end < 0 ? -1 : end + terminator.length;
  }

  private tag(text: string, lt: number, gt: number): number {
    if (text.charCodeAt(lt + 1) === 0x2f) {
      this.handler.close(localName(text.slice(lt + 2, gt).trim()));
      return gt + 1;
    }
    const selfClosing = text.charCodeAt(gt - 1) === 0x2f;
    const bodyEnd = selfClosing ? gt - 1 : gt;
    let nameEnd = lt + 1;
    while (nameEnd < bodyEnd && !isSpace(text.charCodeAt(nameEnd))) nameEnd++;
    if (nameEnd === lt + 1) this.malformed();
    const name = localName(text.slice(lt + 1, nameEnd));
    this.handler.open(name, nameEnd < bodyEnd ? text.slice(nameEnd, bodyEnd) : '', selfClosing);
    if (selfClosing) this.handler.close(name);
    return gt + 1;
  }
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** What ends a tag, or opens a quoted value in it (within which '>' is text), or is out of place in it. */
const TAG_END = /["'<>]/g;
