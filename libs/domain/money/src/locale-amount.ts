import { finerThanMinorUnit } from './amounts';
import { minorUnitDigits } from './currency';

/** What a person typed as an amount, read in their locale: the plain decimal the API takes, or why it is not one. */
export type LocaleAmount =
  | { ok: true; decimal: string }
  | { ok: false; problem: 'not_an_amount' | 'negative' | 'too_many_decimals'; digits: number; example: string };

interface Separators {
  group: string;
  decimal: string;
  /** Digits of the last integer group (3) and of the groups before it (3; 2 in en-IN: 1,00,000). */
  primary: number;
  secondary: number;
}

const separatorsByLocale = new Map<string, Separators>();
const SPACES = /[\s\u00a0\u202f]/g;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function separatorsOf(locale: string | undefined): Separators {
  const key = locale ?? '';
  const cached = separatorsByLocale.get(key);
  if (cached) return cached;
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567890.5);
  const sizes = parts.filter((p) => p.type === 'integer').map((p) => p.value.length);
  const separators = {
    group: parts.find((p) => p.type === 'group')?.value.replace(SPACES, ' ') ?? ',',
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    primary: sizes[sizes.length - 1] ?? 3,
    secondary: sizes.length > 2 ? sizes[sizes.length - 2] : (sizes[sizes.length - 1] ?? 3),
  };
  separatorsByLocale.set(key, separators);
  return separators;
}

/** Whether grouped integer digits are grouped as the locale groups them ("1,000" and "12,345,678"; not "1,00"). */
function wellGrouped(groups: string[], { primary, secondary }: Separators): boolean {
  if (groups.length === 1) return true;
  const [first, ...rest] = groups;
  const last = rest.pop()!;
  return first.length >= 1 && first.length <= Math.max(primary, secondary) && rest.every((g) => g.length === secondary) && last.length === primary;
}

/**
 * Reads an amount as typed in `locale` (the runtime's default when undefined): its grouping ("1,000.50" in en-US,
 * "1.000,50" in de, "1 000,50" in fr, "1,00,000" in en-IN) and decimal mark, or none of them ("1000.50"). Refuses
 * a negative amount and one with more decimals than `currency` has (12.345 USD), which storing would round.
 */
export function readLocaleAmount(text: string, currency: string, locale?: string): LocaleAmount {
  const separators = separatorsOf(locale);
  const digits = minorUnitDigits(currency);
  const example = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(1234.5);
  const refuse = (problem: 'not_an_amount' | 'negative' | 'too_many_decimals'): LocaleAmount => ({ ok: false, problem, digits, example });
  const typed = text.trim().replace(SPACES, ' ');
  const shape = new RegExp(`^([-\u2212]?)(\\d+(?:${escape(separators.group)}\\d+)*)(?:${escape(separators.decimal)}(\\d+))?$`);
  const match = shape.exec(typed);
  if (!match) return refuse('not_an_amount');
  const [, sign, integer, fraction] = match;
  const groups = integer.split(separators.group);
  if (!wellGrouped(groups, separators)) return refuse('not_an_amount');
  const decimal = `${groups.join('')}${fraction === undefined ? '' : `.${fraction}`}`;
  if (sign && /[1-9]/.test(decimal)) return refuse('negative');
  if (finerThanMinorUnit(decimal, currency)) return refuse('too_many_decimals');
  return { ok: true, decimal };
}

/** A plain decimal ("1234.50") written with the locale's decimal mark and no grouping ("1234,50" in de), for an input. */
export const localeDecimal = (decimal: string, locale?: string): string => decimal.replace('.', separatorsOf(locale).decimal);
