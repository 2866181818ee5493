// An MT940 :86: field (information to the account owner) as a counterparty name and notes. Three layouts:
// - German banks (DFÜ-Abkommen): a three-digit transaction code, then subfields each led by `?` and two digits:
//   ?00 booking text, ?20-?29 and ?60-?63 purpose, ?30 bank, ?31 account, ?32-?33 name. SEPA purposes hold
//   keywords (EREF+, MREF+, SVWZ+ ...): the SVWZ+ part is the payer's text.
// - Dutch banks (ING, ABN AMRO, Rabobank, Triodos): `/TAG/value` pairs: /NAME/, /REMI/, /CNTP/iban/bic/name/city/,
//   /ORDP//NAME/.../, /BENM//NAME/.../, /IBAN/, /TRTP/, /EREF/ ...
// - Anything else: free text, whose first line is taken as the name and the rest as notes.
// The structured layouts are wrapped at a fixed width wherever the text is, so their lines join without a space.

export interface MtDetails {
  /** The counterparty, or '' when the field names none. */
  name: string;
  /** What the payer wrote (purpose, remittance), or ''. */
  notes: string;
}

/** A German subfield holds at most 27 characters: one that is full was cut there, so the next goes on without a space. */
const SUBFIELD_WIDTH = 27;

/** Joins subfields (purpose lines, name parts): one cut at full width goes on directly, a shorter one after a space. */
function joinSubfields(parts: string[]): string {
  let text = '';
  for (const [k, part] of parts.entries()) {
    text += part;
    if (k < parts.length - 1 && part.length < SUBFIELD_WIDTH) text += ' ';
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** SEPA keywords of a German purpose; what follows SVWZ+ up to the next one is the remittance text. */
const SEPA_KEYWORD = /(?:EREF|KREF|MREF|CRED|DEBT|COAM|OAMT|SVWZ|ABWA|ABWE|IBAN|BIC)\+/g;

function sepaPurpose(purpose: string): string {
  const start = purpose.indexOf('SVWZ+');
  if (start === -1) return purpose;
  SEPA_KEYWORD.lastIndex = start + 5;
  const next = SEPA_KEYWORD.exec(purpose);
  return purpose.slice(start + 5, next ? next.index : undefined).trim();
}

/** German layout: `166?00SEPA-UEBERWEISUNG?20...?32NAME`; the character after the code separates the subfields. */
const GERMAN = /^\d{3}([^\w\s])\d{2}/;

function germanDetails(text: string, separator: string): MtDetails {
  const subfields = new Map<number, string>();
  const pattern = new RegExp(`\\${separator}(\\d{2})`, 'g');
  const marks = [...text.matchAll(pattern)];
  marks.forEach((mark, k) => {
    const code = Number(mark[1]);
    const value = text.slice(mark.index + mark[0].length, k + 1 < marks.length ? marks[k + 1].index : undefined);
    subfields.set(code, (subfields.get(code) ?? '') + value);
  });
  const range = (from: number, to: number) => {
    const parts: string[] = [];
    for (let code = from; code <= to; code++) if (subfields.has(code)) parts.push(subfields.get(code)!);
    return parts;
  };
  const bookingText = (subfields.get(0) ?? '').replace(/\s+/g, ' ').trim();
  const name = joinSubfields(range(32, 33));
  const purpose = sepaPurpose(joinSubfields([...range(20, 29), ...range(60, 63)]));
  return { name: name || bookingText, notes: purpose || (name ? bookingText : '') };
}

/** Tags of the Dutch banks' layout; a `/` followed by one of these and `/` starts a field. */
const DUTCH_TAGS = 'TRTP|EREF|PREF|MARF|CSID|CNTP|REMI|ORDP|BENM|NAME|IBAN|BIC|ADDR|ISDT|RTRN|PURP|ULTC|ULTD|ULTB|SVCL|BUSP|FX|CHGS|EXCH|COAM|OAMT|TRCD|RTYP|ID|ACCW|BGC';
const DUTCH_FIELD = new RegExp(`/(${DUTCH_TAGS})/`, 'g');
/** A Dutch field naming a party or remittance: without one the text is read as free text. */
const DUTCH = new RegExp(`^/(?:${DUTCH_TAGS})/`);
const DUTCH_CONTENT = /\/(?:NAME|REMI|CNTP|BENM|ORDP)\//;

function dutchDetails(text: string): MtDetails {
  const fields: Array<[string, string]> = [];
  const marks = [...text.matchAll(DUTCH_FIELD)];
  marks.forEach((mark, k) => {
    const value = text.slice(mark.index + mark[0].length, k + 1 < marks.length ? marks[k + 1].index : undefined);
    fields.push([mark[1], value.replace(/\/+$/, '').trim()]);
  });
  const first = (tag: string) => fields.find(([t, v]) => t === tag && v)?.[1] ?? '';
  // /CNTP/ holds the counterparty's account, BIC, name and city, each ended by `/`.
  const counterparty = first('CNTP').split('/')[2]?.trim() ?? '';
  // /REMI/USTD//text/ is free text, /REMI/STRD/CUR/reference/ a structured reference; older files write the text alone.
  const remittance = first('REMI').replace(/^USTD\/\//, '').replace(/^STRD\/[A-Z]*\//, '');
  return { name: (counterparty || first('NAME')).replace(/\s+/g, ' ').trim(), notes: remittance.replace(/\s+/g, ' ').trim() };
}

/** A :86: field's lines as name and notes. */
export function detailsOf(lines: string[]): MtDetails {
  if (!lines.length) return { name: '', notes: '' };
  const joined = lines.join('');
  const german = GERMAN.exec(joined);
  if (german) return germanDetails(joined, german[1]);
  if (DUTCH.test(joined) && DUTCH_CONTENT.test(joined)) return dutchDetails(joined);
  const [name, ...rest] = lines.map((l) => l.replace(/\s+/g, ' ').trim()).filter(Boolean);
  return { name: name ?? '', notes: rest.join(' ') };
}
