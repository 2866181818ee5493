/** A calendar date without time or zone, as "YYYY-MM-DD" (the form of DB `date` columns and the API). */
export type IsoDate = string;

export interface PlainDate {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
}

const ISO_DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Builds a date from parts that may overflow (month 13, day 0), normalising like the calendar does. */
export function plainDate(year: number, month: number, day: number): PlainDate {
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day); // setUTCFullYear, unlike Date.UTC, keeps years 0..99 literal
  return { year: utc.getUTCFullYear(), month: utc.getUTCMonth() + 1, day: utc.getUTCDate() };
}

export function parseIsoDate(text: IsoDate): PlainDate {
  const match = ISO_DATE_SHAPE.exec(text);
  const parts = match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : undefined;
  if (!parts || toIsoDate(plainDate(parts.year, parts.month, parts.day)) !== text) {
    throw new RangeError(`${JSON.stringify(text)} is not a valid YYYY-MM-DD date`);
  }
  return parts;
}

export function toIsoDate(date: PlainDate): IsoDate {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/** Midnight UTC of the date, for Intl formatting with timeZone 'UTC'. */
export function toUtcDate(date: PlainDate): Date {
  const utc = new Date(0);
  utc.setUTCFullYear(date.year, date.month - 1, date.day);
  return utc;
}
