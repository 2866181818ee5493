import type { NumberFormat } from '@hearth/contracts';
import { finerThanMinorUnit, formatDecimal, LARGEST_CENTS, minorUnitDigits, parseAmount, parseDecimal } from '@hearth/domain/money';

// Cell-level parsing shared by the CSV import types: text encodings, numbers, dates, tag lists, header names.

export type DecodeResult = { text: string } | { error: { code: string; message: string } };

/** Windows-1252 0x80-0x9F (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ; five bytes unassigned). */
const WINDOWS_1252_HIGH = String.fromCharCode(
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
);
/** Node since 20.18.3 and 22.13.0 decodes windows-1252 as Latin-1: 0x80-0x9F become control characters (nodejs/node#60888). */
const decodeWindows1252 = (bytes: Uint8Array) =>
  new TextDecoder('windows-1252').decode(bytes).replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]);

const isLetter = (c: string) => /[\p{Lu}\p{Ll}]/u.test(c);
const VOWEL = /[aeiouáéíóúàèìòùâêîôûäëïöüåæøœãõąęěůőű]/i;
/**
 * Where a letter stands in the languages of its code page, for bytes that are a letter in both pages:
 * Spanish ñ comes before a vowel, Portuguese õ in -ões, Italian ì ò ù end a word, Czech ř is seldom before a consonant.
 */
const LETTER_PLACES: Record<string, (before: string, after: string) => boolean> = {
  ñ: (before, after) => isLetter(before) && VOWEL.test(after),
  õ: (before, after) => isLetter(before) && /e/i.test(after),
  ã: (before, after) => isLetter(before) && /[oe]/i.test(after),
  ì: (before, after) => isLetter(before) && !isLetter(after),
  ò: (before, after) => isLetter(before) && !isLetter(after),
  ù: (before, after) => isLetter(before) && !isLetter(after),
  è: (before, after) => isLetter(before) && !VOWEL.test(after),
  ï: (before) => VOWEL.test(before),
  ð: (before) => isLetter(before),
  ø: (_, after) => !VOWEL.test(after),
  œ: (_, after) => /[eiu]/i.test(after),
  æ: (_, after) => isLetter(after),
  ř: (_, after) => !/[b-df-hj-np-tv-z]/i.test(after),
};

/** How well text[i] reads as text: a letter in a word well; a control character, or a symbol or mis-cased letter in a word, badly. */
function plausibility(text: string, i: number): number {
  const [before = '', c, after = ''] = [text[i - 1], text[i], text[i + 1]];
  if (/[\u0080-\u009f]/.test(c)) return -10;
  const inWord = isLetter(before) || isLetter(after);
  if (!isLetter(c)) return inWord ? -3 : 0;
  const placed = LETTER_PLACES[c.toLowerCase()]?.(before, after) ?? true;
  const misCased = /\p{Lu}/u.test(c) && /\p{Ll}/u.test(before);
  return Number(inWord) - (placed ? 0 : 2) - (misCased ? 2 : 0);
}

/** Windows-1250 when its reading of the bytes where the two pages differ is the more plausible text; else 1252. */
function decodeCodePage(bytes: Uint8Array): string {
  const central = new TextDecoder('windows-1250').decode(bytes);
  const western = decodeWindows1252(bytes);
  let vote = 0;
  // The first thousands of differences decide as well as all of them, in bounded time.
  for (let i = 0, differences = 0; i < central.length && differences < 5000; i++) {
    if (central[i] === western[i]) continue;
    vote += plausibility(central, i) - plausibility(western, i);
    differences++;
  }
  return vote > 0 ? central : western;
}

const invalidEncoding = (message: string): DecodeResult => ({ error: { code: 'invalid_encoding', message } });

/**
 * UTF-8 (BOM removed) or UTF-16 with a BOM; otherwise Windows-1250 or -1252, chosen by which letters the bytes
 * spell. Binary content, content with a UTF-8 BOM that is not UTF-8, and UTF-8 with stray lines in a code page is refused.
 */
export function decodeBytes(bytes: Uint8Array): DecodeResult {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return checkedText(new TextDecoder('utf-16le').decode(bytes.subarray(2)));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return checkedText(new TextDecoder('utf-16be').decode(bytes.subarray(2)));
  if (bytes.includes(0)) return invalidEncoding('The file looks binary (it contains NUL bytes); upload CSV text.');
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '') };
  } catch {
    // A file that says it is UTF-8 and is not mixes encodings: no code page reads all of it (nor its mark) right.
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
      return invalidEncoding('The file starts with a UTF-8 byte-order mark but is not valid UTF-8; save it again as UTF-8.');
    }
    const { sequences, strays } = utf8Census(bytes);
    // A few stray bytes among many UTF-8 letters is a file pasted together from two encodings: reading it all as a
    // code page would garble every UTF-8 letter, so the user is told which line to fix.
    if (sequences >= strays.length) {
      const [first, ...others] = strays;
      const more = others.length ? ` and ${others.length} more line${others.length > 1 ? 's' : ''}` : '';
      const byte = `0x${first.byte.toString(16).toUpperCase()}`;
      return invalidEncoding(
        `The file is UTF-8 except on line ${first.line} (byte ${byte})${more}, written in another encoding such as Windows-1252; save it again as UTF-8.`,
      );
    }
    return { text: decodeCodePage(bytes) };
  }
}

/** Bytes that take `n` continuation bytes after them in UTF-8, and the range the first continuation must fall in. */
function utf8Lead(byte: number): { n: number; min: number; max: number } | null {
  if (byte >= 0xc2 && byte <= 0xdf) return { n: 1, min: 0x80, max: 0xbf };
  if (byte === 0xe0) return { n: 2, min: 0xa0, max: 0xbf };
  if (byte === 0xed) return { n: 2, min: 0x80, max: 0x9f };
  if (byte >= 0xe1 && byte <= 0xef) return { n: 2, min: 0x80, max: 0xbf };
  if (byte === 0xf0) return { n: 3, min: 0x90, max: 0xbf };
  if (byte >= 0xf1 && byte <= 0xf3) return { n: 3, min: 0x80, max: 0xbf };
  if (byte === 0xf4) return { n: 3, min: 0x80, max: 0x8f };
  return null;
}

/** The well-formed multi-byte UTF-8 characters in `bytes`, and the first stray (non-UTF-8) byte of each line that has one. */
function utf8Census(bytes: Uint8Array): { sequences: number; strays: { line: number; byte: number }[] } {
  const strays: { line: number; byte: number }[] = [];
  let sequences = 0;
  let line = 1;
  for (let i = 0; i < bytes.length; ) {
    const byte = bytes[i];
    if (byte < 0x80) {
      if (byte === 0x0a) line++;
      i++;
      continue;
    }
    const lead = utf8Lead(byte);
    const fits = (k: number) => {
      const next = bytes[i + k];
      return k === 1 ? next >= lead!.min && next <= lead!.max : next >= 0x80 && next <= 0xbf;
    };
    if (lead && Array.from({ length: lead.n }, (_, k) => k + 1).every(fits)) {
      sequences++;
      i += lead.n + 1;
      continue;
    }
    if (strays.at(-1)?.line !== line) strays.push({ line, byte });
    i++;
  }
  return { sequences, strays };
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text the database can store: no NUL characters, no unpaired UTF-16 surrogates (JSON can carry both). */
export function checkedText(text: string): DecodeResult {
  if (text.includes('\u0000')) return invalidEncoding('The content contains NUL characters; upload CSV text.');
  if (UNPAIRED_SURROGATE.test(text)) return invalidEncoding('The content contains invalid Unicode (an unpaired surrogate).');
  return { text: text.replace(/^\uFEFF/, '') };
}

/** Whether `text` has more than `max` characters as PostgreSQL counts them for varchar(n): code points, not UTF-16 units. */
export const longerThan = (text: string, max: number): boolean => text.length > max && [...text].length > max;

/** `value` for a message: its first 40 characters and an ellipsis when longer, never half a character. */
export const shownValue = (value: string): string => (longerThan(value, 40) ? `${[...value].slice(0, 40).join('')}…` : value);

/** "Account type*" -> "account_type" (Sure's header normalisation), so labels and aliases match loosely. */
export const normalizeHeader = (header: string) => header.trim().toLowerCase().replace(/\*/g, '').replace(/[\s-]+/g, '_');

/**
 * The digits of each number format: an integer part written plain, in thousands or in Indian lakhs (1,23,45,678),
 * then the fraction after the decimal mark. A group mark anywhere else is not a number (never x100).
 */
const NUMBER_PATTERNS: Record<NumberFormat, RegExp> = {
  '1,234.56': numberPattern(',', '\\.'),
  '1.234,56': numberPattern('\\.', ','),
  '1 234,56': numberPattern('[ \\u00a0\\u202f]', ','),
  '1,234': numberPattern(',', null),
};

function numberPattern(group: string, decimal: string | null): RegExp {
  const integer = `\\d+|\\d{1,3}(?:${group}\\d{3})+|\\d{1,2}(?:${group}\\d{2})+${group}\\d{3}`;
  return new RegExp(`^(?<integer>${integer})?${decimal ? `(?:${decimal}(?<fraction>\\d*))?` : ''}$`);
}

/**
 * A currency symbol, code or abbreviation written next to a number: $, R$, €, USD, kr, zł, Kč, Rs., in any script,
 * abbreviations of several dotted parts included (the Jordanian dinar's د.ا.).
 */
const CURRENCY = String.raw`(?:\p{L}{1,4}\.){1,3}|[\p{L}\p{Sc}]{1,4}`;
/**
 * Bidirectional marks (LRM, RLM, ALM, embeddings, isolates): invisible characters apps write between a right-to-left
 * currency symbol and its digits to keep them in order on screen. They are not part of the number.
 */
const BIDI_MARKS = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;
/** A number cell: one sign before or after the currency (or trailing), and the currency before or after the number. */
const NUMBER_CELL = new RegExp(
  String.raw`^(?<lead>[-+]?)\s*(?:(?<before>${CURRENCY})\s*)?(?<sign>[-+]?)\s*(?<number>[\d.,](?:[\d.,\s]*[\d.,])?)\s*(?<trail>-?)\s*(?<after>${CURRENCY})?$`,
  'u',
);
/** Debit/credit markers say which way money moved, but statements disagree on which is which: not a currency. */
const DEBIT_CREDIT = /^[cd]r\.?$/i;

/** Longer than any number or date a cell holds: such a cell is refused before a pattern spends time on it. */
const MAX_CELL_CHARS = 64;

/** Most digits a number may have before and after its decimal mark (the database column's range). */
export interface Digits {
  integer: number;
  fraction: number;
}
// Beyond 13 integer digits (ten trillion) an amount no longer fits minor units in a bigint at every precision.
const AMOUNT_DIGITS: Digits = { integer: 13, fraction: 8 };
/** Trade prices are stored as numeric(19,10): fractions of a cent for low-priced coins and shares. */
export const PRICE_DIGITS: Digits = { integer: 9, fraction: 10 };

/** Why a trade's qty and price cannot be stored (a price over PRICE_DIGITS, qty x price over an amount's), or null. */
export function tradeSizeError(qty: string, price: string): string | null {
  if (Math.abs(Number(price)) >= 10 ** PRICE_DIGITS.integer) return `price ${price} is too large (at most ${PRICE_DIGITS.integer} digits before the decimal mark)`;
  if (Math.abs(Number(qty) * Number(price)) >= 10 ** AMOUNT_DIGITS.integer) return `qty x price (${qty} x ${price}) is too large for an amount`;
  return null;
}

const magnitude = (text: string) => parseDecimal(text.replace(/^-/, ''))!;
const magnitudeProduct = (factors: string[]) =>
  factors.map(magnitude).reduce((p, f) => ({ unscaled: p.unscaled * f.unscaled, scale: p.scale + f.scale }), { unscaled: 1n, scale: 0 });

/** Whether a decimal string is more than the product of others, all taken as magnitudes; exact (0.7 x 3 is 2.1, not 2.0999…). */
export function exceedsProduct(value: string, factors: string[]): boolean {
  const [v, product] = [magnitude(value), magnitudeProduct(factors)];
  return v.unscaled * 10n ** BigInt(product.scale) > product.unscaled * 10n ** BigInt(v.scale);
}

/** The product of decimal strings as magnitudes, exactly, as a decimal string without trailing zeros (2.5 x 1.2 is "3"). */
export function productOf(factors: string[]): string {
  const { unscaled, scale } = magnitudeProduct(factors);
  const digits = unscaled.toString().padStart(scale + 1, '0');
  return scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}`.replace(/\.?0+$/, '') : digits;
}

/** A trade as its fee is bounded by: whether it sells, its cash amount, qty and price (null when not known). */
export interface FeeBounds {
  sell: boolean;
  amount: string | null;
  qty: string | null;
  price: string | null;
}

/**
 * The bound a trade's fee passes, or null, for every format that states fees: a buy's cash amount includes the fee,
 * so the fee is at most that amount; a sell's cash is qty x price less the fee, so the fee is at most qty x price
 * (not known without a price). Compared exactly, as magnitudes.
 */
export function feeBeyondTrade(fee: string, { sell, amount, qty, price }: FeeBounds): 'amount' | 'qty x price' | null {
  if (!sell) return amount !== null && exceedsProduct(fee, [amount]) ? 'amount' : null;
  return qty !== null && price !== null && exceedsProduct(fee, [qty, price]) ? 'qty x price' : null;
}

/**
 * A cell of plain digits with at most a leading minus and the format's decimal mark, as most exports write amounts:
 * read without the general patterns below, which took a fifth of the time building a bank export's rows.
 */
const PLAIN_NUMBERS: Record<NumberFormat, RegExp> = {
  '1,234.56': /^(-?)(\d+)(?:\.(\d*))?$/,
  '1.234,56': /^(-?)(\d+)(?:,(\d*))?$/,
  '1 234,56': /^(-?)(\d+)(?:,(\d*))?$/,
  '1,234': /^(-?)(\d+)$/,
};

/** One of the four number formats -> "-1234.56"; parentheses or a minus sign mean negative; null when it is not a number. */
export function parseNumber(raw: string, format: NumberFormat, limits: Digits = AMOUNT_DIGITS): string | null {
  let value = raw.replace(BIDI_MARKS, '').trim().replace(/\u2212/g, '-');
  if (!value || value.length > MAX_CELL_CHARS) return null;
  const plain = PLAIN_NUMBERS[format].exec(value);
  if (plain) return decimalOf(plain[1] === '-', plain[2], plain[3] ?? '', limits);
  const parenthesized = /^\(.*\)$/.test(value);
  if (parenthesized) value = value.slice(1, -1).trim();
  const cell = NUMBER_CELL.exec(value)?.groups;
  if (!cell || [cell.before, cell.after].some((c) => c && DEBIT_CREDIT.test(c))) return null;
  const signs = [cell.lead, cell.sign, cell.trail].filter(Boolean);
  if (signs.length + Number(parenthesized) > 1) return null;
  const digits = NUMBER_PATTERNS[format].exec(cell.number)?.groups;
  if (!digits || !(digits.integer || digits.fraction)) return null;
  return decimalOf(parenthesized || signs[0] === '-', (digits.integer ?? '').replace(/\D/g, ''), digits.fraction ?? '', limits);
}

/** The decimal string of a number's integer and fraction digits; null when they are more than `limits` allows. */
function decimalOf(negative: boolean, int: string, frac: string, limits: Digits): string | null {
  if (int.replace(/^0+/, '').length > limits.integer || frac.length > limits.fraction) return null;
  const normalized = `${int.replace(/^0+(?=\d)/, '') || '0'}${frac ? `.${frac}` : ''}`;
  return negative && /[1-9]/.test(normalized) ? `-${normalized}` : normalized;
}

const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
/** Full names and their first three letters -> index, as %b %B and %a %A accept either. */
const byName = (names: string[]) => new Map(names.flatMap((name, i) => [[name, i], [name.slice(0, 3), i]] as const));
const MONTHS = byName(MONTH_NAMES).set('sept', 8);
const WEEKDAYS = byName(WEEKDAY_NAMES);
const MONTH = `(?<b>${[...MONTHS.keys()].join('|')})`;
const WEEKDAY = `(?<a>${[...WEEKDAYS.keys()].join('|')})`;

/** What each strftime directive matches and which parts of the date (or time, matched and ignored) it gives. */
const DIRECTIVES: Record<string, { pattern: string; gives: string | string[] }> = {
  Y: { pattern: '(?<Y>\\d{4})', gives: 'year' },
  y: { pattern: '(?<y>\\d{2})', gives: 'year' },
  m: { pattern: '(?<m>\\d{1,2})', gives: 'month' },
  b: { pattern: MONTH, gives: 'month' },
  B: { pattern: MONTH, gives: 'month' },
  d: { pattern: '(?<d>\\d{1,2})', gives: 'day' },
  e: { pattern: '\\s?(?<d>\\d{1,2})', gives: 'day' },
  j: { pattern: '(?<j>\\d{1,3})', gives: ['month', 'day'] },
  a: { pattern: WEEKDAY, gives: 'weekday' },
  A: { pattern: WEEKDAY, gives: 'weekday' },
  H: { pattern: '(?:[01]?\\d|2[0-3])', gives: 'hour' },
  I: { pattern: '(?:0?[1-9]|1[0-2])', gives: 'hour' },
  p: { pattern: '[ap]m', gives: 'AM/PM' },
  M: { pattern: '[0-5]?\\d', gives: 'minute' },
  S: { pattern: '(?:[0-5]?\\d|60)', gives: 'second' },
};

type DateFormat = { pattern: RegExp } | { error: string };
const DATE_FORMATS = new Map<string, DateFormat>();

/** A date format as people write it, only day, month and year letters between separators: `dd/mm/yyyy`, `M/D/YY`. */
const HUMAN_DATE_FORMAT = /^(?:[dmy]+|[\s./,-])+$/i;
const HUMAN_PARTS: Record<string, string> = { yyyy: '%Y', yy: '%y', mmmm: '%B', mmm: '%b', mm: '%m', m: '%m', dd: '%d', d: '%d' };

/**
 * The strftime form of a date format: a human one (`DD.MM.YYYY`, `m/d/yy`; case does not matter, and one or two
 * letters read a day or month with or without its leading zero) translated, any other kept as given. A run of
 * letters that is no part (`ddd`, `yyy`) is kept as it is and so refused by the compiler as having no day or year.
 */
export function strftimeFormat(format: string): string {
  if (format.includes('%') || !HUMAN_DATE_FORMAT.test(format)) return format;
  return format.replace(/[dmy]+/gi, (run) => HUMAN_PARTS[run.toLowerCase()] ?? run);
}

/** The format compiled once per distinct format string (files repeat one format on every row). */
function compiledDateFormat(format: string): DateFormat {
  let compiled = DATE_FORMATS.get(format);
  if (!compiled) {
    compiled = compileDateFormat(strftimeFormat(format), format);
    if (DATE_FORMATS.size < 100) DATE_FORMATS.set(format, compiled);
  }
  return compiled;
}

/** A pattern matching exactly the format, or why no date can be read with it (each part once, all three parts), named as `shown`. */
function compileDateFormat(format: string, shown: string): DateFormat {
  const given = new Map<string, string>();
  let error: string | undefined;
  const source = format.replace(/%(.?)|[.*+?^${}()|[\]\\]/gs, (token, letter?: string) => {
    if (letter === undefined) return `\\${token}`;
    if (letter === '%') return '%';
    const directive = DIRECTIVES[letter];
    if (!directive) {
      error ??= `date_format '${shown}' uses %${letter}, which is not supported`;
      return '';
    }
    for (const part of [directive.gives].flat()) {
      const earlier = given.get(part);
      if (earlier) error ??= `date_format '${shown}' uses ${earlier === token ? `${token} twice` : `${earlier} and ${token} for the ${part}`}`;
      given.set(part, token);
    }
    return directive.pattern;
  });
  const missing = ['year', 'month', 'day'].filter((part) => !given.has(part));
  if (!error && missing.length) error = `date_format '${shown}' has no ${missing.join(' and ')}`;
  // Month and weekday names in any case, as exports write MAR, Mar and mar.
  return error ? { error } : { pattern: new RegExp(`^${source}$`, 'i') };
}

/** Why `format` cannot read dates, or null when it can. */
export function dateFormatError(format: string): string | null {
  const compiled = compiledDateFormat(format);
  return 'error' in compiled ? compiled.error : null;
}

/** YYYY-MM-DD under the default format: checked without the format's pattern (most exports write dates so). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** strftime-style pattern (%Y %y %m %d %e %j %b %B %a %A %H %I %p %M %S) -> ISO date; null unless the text matches exactly. */
export function parseDate(raw: string, format: string): string | null {
  const value = raw.trim();
  if (format === '%Y-%m-%d' && ISO_DATE.test(value)) {
    return isDay(Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8))) ? value : null;
  }
  const compiled = compiledDateFormat(format);
  if (value.length > MAX_CELL_CHARS || 'error' in compiled) return null;
  const g = compiled.pattern.exec(value)?.groups;
  if (!g) return null;
  const year = g.Y ? Number(g.Y) : (Number(g.y) < 69 ? 2000 : 1900) + Number(g.y);
  const [month, day] = g.j ? monthAndDay(year, Number(g.j)) : [g.m ? Number(g.m) : MONTHS.get(g.b.toLowerCase())! + 1, Number(g.d)];
  if (!isDay(year, month, day)) return null;
  // A weekday that disagrees with the date says the date is misread (day and month swapped, say).
  if (g.a && WEEKDAYS.get(g.a.toLowerCase()) !== new Date(Date.UTC(year, month - 1, day)).getUTCDay()) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Whether year, month and day name a day of the calendar (year 1 on): not 31 April, 29 February only in leap years. */
export const isDay = (year: number, month: number, day: number): boolean =>
  year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysInMonth = (year: number, month: number) =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : DAYS_IN_MONTH[month - 1];

/** The date `years` before an ISO date (YYYY-MM-DD); 29 February goes to the 28th of a common year, not 1 March. */
export function yearsBefore(iso: string, years: number): string {
  const year = Number(iso.slice(0, 4)) - years;
  const monthDay = iso.slice(4) === '-02-29' && daysInMonth(year, 2) === 28 ? '-02-28' : iso.slice(4);
  return `${String(year).padStart(4, '0')}${monthDay}`;
}

/** The month and day of the n-th day of `year` (%j); [0, 0] when the year has no such day. */
function monthAndDay(year: number, dayOfYear: number): [number, number] {
  let day = dayOfYear;
  for (let month = 1; month <= 12 && day >= 1; month++) {
    if (day <= daysInMonth(year, month)) return [month, day];
    day -= daysInMonth(year, month);
  }
  return [0, 0];
}

/** "a|b", "a,b" (with \ escaping , | and \) -> ["a", "b"]. */
export function splitTags(raw: string): string[] {
  const separator = /(?<!\\),/.test(raw) ? ',' : /(?<!\\)\|/.test(raw) ? '|' : ',';
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '\\' && i + 1 < raw.length) current += raw[++i];
    else if (raw[i] === separator) {
      parts.push(current);
      current = '';
    } else current += raw[i];
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
}


/** The layout of `layouts` that parses the most samples; ties go to the earlier layout. */
export function detectDateLayout(samples: string[], layouts: string[]): string {
  let best = layouts[0];
  let bestCount = -1;
  for (const layout of layouts) {
    const count = samples.filter((s) => parseDate(s, layout) !== null).length;
    if (count > bestCount) [best, bestCount] = [layout, count];
  }
  return best;
}

/**
 * An amount as statements print it: `1,234.56`, or `1.234,56` when the comma is clearly the decimal mark; thousands
 * may be grouped by spaces or, as in Switzerland, apostrophes instead (`1 234.56`, `1 234,56`, `1'234.56`); parentheses
 * or a trailing minus mean negative.
 */
export function parseStatementAmount(raw: string | undefined): string | null {
  const value = raw?.trim().replace(/(?<=\d)[ \u00a0\u202f'\u2019](?=\d{3}(?!\d))/g, '');
  if (!value || value.length > MAX_CELL_CHARS) return null;
  return /^[^\d]*-?[\d.\s]*,\d{1,2}\)?-?$/.test(value) ? parseNumber(value, '1.234,56') : parseNumber(value, '1,234.56');
}

/**
 * Most characters the columns hold what rows name (varchar(n)): entry names 500; account, category, merchant, tag
 * and rule names 200; icons 50; web addresses 500; tickers 30. A longer value is a row error, not a failed publish.
 */
export const MAX_CHARS = { entryName: 500, name: 200, icon: 50, url: 500, ticker: 30 } as const;

/** `<column> '<value>' is too long: <what> can have at most <max> characters` when the value does not fit; else null. */
export const lengthError = (column: string, value: string, max: number, what: string): string | null =>
  longerThan(value, max) ? `${column} '${shownValue(value)}' is too long: ${what} can have at most ${max} characters` : null;

/** `<column> '<value>' must not be negative`: a price or a fee below zero has no meaning (a sell is a negative qty). */
export const negativeError = (column: string, value: string): string => `${column} '${shownValue(value)}' must not be negative`;

/**
 * Why a decimal string cannot be stored exactly in the currency's minor units, or null: it has more significant
 * decimals than the currency (1.005 USD would be rounded; trailing zeros are not finer), or more minor units than
 * an API `_cents` field carries (thirteen digits of dinars are sixteen of fils), which would make every response
 * showing it a 422.
 */
export function minorUnitError(column: string, decimal: string, currency: string): string | null {
  const digits = minorUnitDigits(currency);
  const point = decimal.indexOf('.');
  if (finerThanMinorUnit(decimal, currency)) {
    return `${column} '${shownValue(decimal)}' is finer than the ${currency} minor unit: ${currency} amounts have ${digits} decimals`;
  }
  // Fifteen digits of minor units always fit (counted with any sign and leading zeros, which only add to the count);
  // only longer amounts are worth the exact comparison.
  if ((point === -1 ? decimal.length : point) + digits < 16) return null;
  const [whole, fraction] = decimal.replace(/^-/, '').split('.');
  return parseAmount(fraction ? `${whole}.${fraction}` : whole, currency) > LARGEST_CENTS
    ? `${column} '${shownValue(decimal)}' is beyond the largest ${currency} amount Hearth stores (${formatDecimal(LARGEST_CENTS, currency)})`
    : null;
}

/** Whether a decimal string is zero, however written ("0", "-0.00", ".0"). */
const isZeroDecimal = (decimal: string): boolean => /^-?0*(\.0*)?$/.test(decimal);

/** -x for a decimal string; zero stays unsigned. */
export const negateDecimal = (decimal: string): string =>
  isZeroDecimal(decimal) ? decimal.replace(/^-/, '') : decimal.startsWith('-') ? decimal.slice(1) : `-${decimal}`;

/** The sum of plain decimal strings, exactly, to the finest of their decimals ("-60.00" and "-30" add up to "-90.00"). */
export function sumOf(terms: string[]): string {
  const decimals = terms.map((term) => parseDecimal(term)!);
  const scale = Math.max(0, ...decimals.map((d) => d.scale));
  const units = decimals.reduce((sum, d) => sum + d.unscaled * 10n ** BigInt(scale - d.scale), 0n);
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  return `${units < 0n ? '-' : ''}${scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits}`;
}

/** Whether two decimal strings are the same number ("-90.00" and "-90"). */
export const sameNumber = (a: string, b: string): boolean => isZeroDecimal(sumOf([a, negateDecimal(b)]));
