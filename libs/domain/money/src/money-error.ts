export type MoneyErrorCode =
  | 'invalid_currency'
  | 'invalid_amount'
  | 'invalid_rate'
  | 'invalid_locale'
  | 'unsafe_amount';

/** Raised for bad money input; `code` is stable so callers can map it to a 4xx error body. */
export class MoneyError extends Error {
  constructor(
    readonly code: MoneyErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MoneyError';
  }
}
