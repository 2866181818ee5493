// ISO 8601 date-times from query strings, read the same on every server: a value without an offset is UTC.

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * `2024-03-01`, `2024-03-01T10:00[:00[.000]]` with an optional `Z` or `±hh[:mm]` offset, as a moment; null for
 * anything else or a day or time that does not exist (`2024-02-30`, `24:00`). Without an offset the value means UTC,
 * where JavaScript's Date would read a date-time in the process's own time zone.
 */
export function parseUtcDateTime(text: string): Date | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part)));
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (hour! > 23 || minute! > 59 || second! > 59) return null;
  const date = new Date(Date.UTC(2000, 0, 1, hour, minute, second, millis));
  date.setUTCFullYear(year!, month! - 1, day!); // Date.UTC would read years 0-99 as 1900-1999
  const utc = date.getTime();
  // Date.UTC rolls 2024-02-30 over to March 1st: a day that changed did not exist
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day) return null;
  const offset = offsetMinutes(m[8]);
  return Number.isNaN(offset) ? null : new Date(utc - offset * 60_000);
}

/** Minutes east of UTC: `+01:00` is 60, `-0530` is -330, none or `Z` is 0; NaN past 23:59. */
function offsetMinutes(offset: string | undefined): number {
  if (!offset || offset === 'Z' || offset === 'z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return NaN;
  return (offset[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
}
