/**
 * The register's filters, kept in the page's address so that a filtered list can be bookmarked, shared and reached
 * with the back button. Amounts are signed as the register shows them: money in positive, money out negative.
 */
export interface RegisterFilters {
  search?: string;
  account?: string;
  category?: string;
  tag?: string;
  merchant?: string;
  /** Plain decimals ("-50.00"), signed as shown. */
  min?: string;
  max?: string;
  /** YYYY-MM-DD, inclusive. */
  from?: string;
  to?: string;
  type?: 'income' | 'expense';
  /** The transactions one import made (the imports list links here). */
  import?: string;
}

/** A change of the filters, made on the filters as they are when it lands. */
export type FiltersUpdate = (current: RegisterFilters) => RegisterFilters;

/** Each filter's name in the address. */
const PARAM: Record<keyof RegisterFilters, string> = {
  search: 'q',
  account: 'account',
  category: 'category',
  tag: 'tag',
  merchant: 'merchant',
  min: 'min',
  max: 'max',
  from: 'from',
  to: 'to',
  type: 'type',
  import: 'import_id',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** What each filter accepts: an address edited by hand to something else is read as no filter, not refused by the API. */
const VALID: Record<keyof RegisterFilters, (value: string) => boolean> = {
  search: (v) => v.trim() !== '',
  account: (v) => UUID.test(v),
  category: (v) => UUID.test(v),
  tag: (v) => UUID.test(v),
  merchant: (v) => UUID.test(v),
  min: (v) => PLAIN_DECIMAL.test(v),
  max: (v) => PLAIN_DECIMAL.test(v),
  from: (v) => DATE.test(v),
  to: (v) => DATE.test(v),
  type: (v) => v === 'income' || v === 'expense',
  import: (v) => UUID.test(v),
};

const KEYS = Object.keys(PARAM) as Array<keyof RegisterFilters>;

export function filtersFromParams(params: URLSearchParams): RegisterFilters {
  const filters: Record<string, string> = {};
  for (const key of KEYS) {
    const value = params.get(PARAM[key]);
    if (value !== null && VALID[key](value)) filters[key] = value;
  }
  return filters as RegisterFilters;
}

/** The address's query for `filters`, in a fixed order, without the empty ones. */
export function paramsOf(filters: RegisterFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of KEYS) {
    const value = filters[key];
    if (value) params.set(PARAM[key], value);
  }
  return params;
}

export const hasFilters = (filters: RegisterFilters): boolean => KEYS.some((key) => Boolean(filters[key]));

/** "-50.00" <-> "50.00". */
export const negateDecimal = (decimal: string): string => (decimal.startsWith('-') ? decimal.slice(1) : /[1-9]/.test(decimal) ? `-${decimal}` : decimal);

/**
 * The list's query parameters for `filters`. The API compares Sure's signed amount (money out positive), the opposite
 * of the register's: a shown amount between min and max is an API amount between -max and -min.
 */
export function apiQueryOf(filters: RegisterFilters) {
  return {
    ...(filters.search && { search: filters.search }),
    ...(filters.account && { account_id: filters.account }),
    ...(filters.category && { category_id: filters.category }),
    ...(filters.tag && { 'tag_ids[]': [filters.tag] }),
    ...(filters.merchant && { merchant_id: filters.merchant }),
    ...(filters.max && { min_amount: negateDecimal(filters.max) }),
    ...(filters.min && { max_amount: negateDecimal(filters.min) }),
    ...(filters.from && { start_date: filters.from }),
    ...(filters.to && { end_date: filters.to }),
    ...(filters.type && { type: filters.type }),
    ...(filters.import && { import_id: filters.import }),
  };
}
