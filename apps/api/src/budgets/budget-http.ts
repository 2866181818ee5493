// HTTP details shared by the budgets and budget_categories controllers.

import { unconvertedHeaderDoc } from '../common/unconverted-entries';

/** Entries left out of the amounts because no exchange rate to the budget currency exists on their date. */
export const UNCONVERTED_HEADER = 'X-Budget-Unconverted-Entries';

export const AMOUNT_OUT_OF_RANGE = {
  status: 422,
  description: 'amount_out_of_range: an actual or available amount summed from the ledger is beyond what a _cents integer carries exactly (±9007199254740991)',
};
export const UNCONVERTED = unconvertedHeaderDoc(
  UNCONVERTED_HEADER,
  'Present when foreign-currency entries had no exchange rate on their date and were left out',
);
