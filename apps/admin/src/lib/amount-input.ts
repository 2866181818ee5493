import { readLocaleAmount, type LocaleAmount } from '@hearth/domain/money';

/** Why typed text is not an amount of `currency`, in words. */
export function amountProblem(refused: Extract<LocaleAmount, { ok: false }>, currency: string): string {
  if (refused.problem === 'negative') return 'The amount cannot be negative.';
  if (refused.problem === 'too_many_decimals') {
    return refused.digits === 0 ? `${currency} amounts have no decimals: enter a whole number.` : `${currency} amounts have at most ${refused.digits} decimals.`;
  }
  return `Enter the amount as a number, such as ${refused.example}.`;
}

/**
 * Reads an amount typed in the browser's language as the plain decimal the API takes, or says why it is not one. With
 * `signed`, a leading minus is kept (a filter's bound); without, a negative amount is refused.
 */
export function readAmountInput(text: string, currency: string, { signed = false } = {}): { decimal: string } | { problem: string } {
  const typed = text.trim();
  const negative = signed && /^[-\u2212]/.test(typed);
  const read = readLocaleAmount(negative ? typed.slice(1) : typed, currency);
  if (!read.ok) return { problem: amountProblem(read, currency) };
  return { decimal: negative && /[1-9]/.test(read.decimal) ? `-${read.decimal}` : read.decimal };
}
