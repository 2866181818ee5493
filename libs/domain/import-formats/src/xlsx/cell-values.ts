// A cell's stored value as the text a CSV export would hold: numbers as plain decimals, date serials as ISO dates.

/** What a number format shows a number as. */
export type NumberKind = 'number' | 'date' | 'datetime' | 'time';

/** Excel's built-in formats that show a date, a date and time, or a time (ECMA-376 18.8.30, with the East Asian ones). */
const BUILT_IN: Record<number, NumberKind> = {};
for (const id of [14, 15, 16, 17, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58, 71, 72, 73, 74, 75]) BUILT_IN[id] = 'date';
for (const id of [22]) BUILT_IN[id] = 'datetime';
for (const id of [18, 19, 20, 21, 32, 33, 45, 46, 47, 55, 56, 76, 77, 78, 79, 80, 81]) BUILT_IN[id] = 'time';

/**
 * What a format shows a number as, told from its code: the first section's date letters (y, d, m not next to h or s)
 * and time letters (h, s, AM/PM), outside quoted text, escaped characters and [colour]/[$-locale] brackets.
 */
export function numberKind(id: number, code: string | undefined): NumberKind {
  if (code === undefined) return BUILT_IN[id] ?? 'number';
  const section = code.split(';')[0];
  const letters = section
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/_./g, '')
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, '')
    .toLowerCase();
  const time = /[hs]|am\/pm|a\/p/.test(letters);
  // m alone is a month; m after h or before s is minutes.
  const date = /[yd]/.test(letters.replace(/am\/pm|a\/p/g, '')) || (/m/.test(letters) && !time);
  if (date) return time ? 'datetime' : 'date';
  return time ? 'time' : 'number';
}

const MS_PER_DAY = 86_400_000;
/** The last day Excel can show: 9999-12-31. */
const MAX_SERIAL = 2_958_465;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A date serial as an ISO date (and time, when the format shows one). The 1900 date system counts 1900-02-29, a day
 * that never was (serial 60), so serials from 61 count from 1899-12-30 and those before from 1899-12-31. Null when
 * the serial is no day Excel can show.
 */
export function serialDate(serial: number, kind: Exclude<NumberKind, 'number'>, date1904: boolean): string | null {
  if (!Number.isFinite(serial) || serial < 0 || serial > MAX_SERIAL) return null;
  // To the nearest second: a time stored as 0.99999999 of a day is midnight's second before, not a float's noise.
  const seconds = Math.round(serial * 86_400);
  const days = Math.floor(seconds / 86_400);
  const clock = seconds - days * 86_400;
  const time = `${pad(Math.floor(clock / 3600))}:${pad(Math.floor(clock / 60) % 60)}:${pad(clock % 60)}`;
  if (kind === 'time') return time;
  if (!date1904 && days === 60) return null;
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, days < 60 ? 31 : 30);
  const day = new Date(epoch + days * MS_PER_DAY);
  const iso = `${pad(day.getUTCFullYear(), 4)}-${pad(day.getUTCMonth() + 1)}-${pad(day.getUTCDate())}`;
  return kind === 'datetime' ? `${iso} ${time}` : iso;
}

/**
 * A stored number as a plain decimal: rounded to the 15 significant digits Excel keeps (0.30000000000000004, the
 * sum 0.1 + 0.2 as a double, is 0.3), without an exponent (1E-05 is 0.00001). Text that is no number is kept as it is.
 */
export function plainDecimal(stored: string): string {
  // What Excel writes most: a decimal of at most 15 digits, without exponent or trailing zeros, is its own text.
  if (stored.length <= 17 && CANONICAL.test(stored) && significantDigits(stored) <= 15) return stored === '-0' ? '0' : stored;
  const value = Number(stored);
  if (stored.trim() === '' || !Number.isFinite(value)) return stored;
  // toPrecision is slow (exact digits); most values have at most 15 significant digits already.
  const direct = String(value);
  const shortest = significantDigits(direct) <= 15 ? direct : String(Number(value.toPrecision(15)));
  if (shortest === '-0') return '0';
  const exp = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(shortest);
  if (!exp) return shortest;
  const [, sign, lead, rest = '', power] = exp;
  const digits = lead + rest;
  const point = 1 + Number(power);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

const CANONICAL = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

/** How many significant digits a number's shortest text has (`-0.0012e-7` has 2). */
function significantDigits(text: string): number {
  let digits = 0;
  let leading = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x65 || c === 0x45) break;
    if (c < 0x30 || c > 0x39 || (leading && c === 0x30)) continue;
    leading = false;
    digits++;
  }
  return digits;
}
