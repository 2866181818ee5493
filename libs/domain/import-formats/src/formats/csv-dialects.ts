import type { ImportType, NumberFormat } from '@hearth/contracts';
import type { CsvImportSettings } from '../csv-import';

// How each CSV import type's file is laid out and read: the one place the CSV reader (csv-import.ts) learns what
// tells one type's file from another's. A new CSV-shaped type is one entry here (and its format in the API's registry).

/** What a CSV row becomes. */
export type CsvRowKind = 'transaction' | 'trade' | 'account' | 'category' | 'merchant' | 'rule';

/** A column a file cannot do without: its configured label, the names it may have instead, and the name an error gives it. */
export type RequiredColumn = [label: string | null, aliases: string[], name?: string];

export interface CsvDialect {
  rows: CsvRowKind;
  /** Columns the file cannot do without; one lacking refuses the file as a whole. */
  requiredColumns(imp: CsvImportSettings): RequiredColumn[];
  /** Whether amount_type_strategy custom_column signs the amounts (a type column's value marks money in). */
  signedByMarker?: boolean;
  /** The number format the exporting app always writes, whatever number_format says. */
  numberFormat?: NumberFormat;
  /**
   * outflow_inflow: the app writes Outflow and Inflow columns beside (or instead of) a signed Amount (YNAB);
   * detected_debit_credit: without an amount column, a bank's Debit/Credit-like columns hold the amount as magnitudes.
   */
  moneyColumns?: 'outflow_inflow' | 'detected_debit_credit';
  /** The column whose value `credit` marks money in, amounts being magnitudes (Mint's Transaction Type). */
  creditColumn?: string;
  /** Whether the notes carry Actual's split markers: its split rows are grouped into a total and its parts. */
  actualSplits?: boolean;
  /** Whether a row without a payee (a reconciliation, a starting balance) is named by its memo. */
  memoNamesPayeeless?: boolean;
  /** Whether a payee `Transfer : <account>` names the other account of a transfer (transfer_account). */
  transferPayees?: boolean;
  /** Where a row's category is read: the app's group and category columns, joined as "Group: Category". */
  categoryGroups?: 'ynab' | 'actual';
}

/** Header names (normalised) of a bank export's money-out and money-in columns: Debit/Credit, Withdrawal/Deposit, Paid out/Paid in. */
export const DEBIT_NAMES = ['debit', 'debits', 'withdrawal', 'withdrawals', 'money_out', 'paid_out', 'outflow'];
export const CREDIT_NAMES = ['credit', 'credits', 'deposit', 'deposits', 'money_in', 'paid_in', 'inflow'];

const named = (...aliases: string[]): RequiredColumn => [null, aliases];

/** A bank export's amount: the configured column, each money-out and money-in column named, or any of the common names. */
function amountColumns(imp: CsvImportSettings): RequiredColumn[] {
  const sides = [imp.outflowColLabel, imp.inflowColLabel].filter((label): label is string => Boolean(label));
  if (sides.length && !imp.amountColLabel) return sides.map((label) => [label, []]);
  return [[imp.amountColLabel, imp.amountColLabel ? ['amount'] : ['amount', ...DEBIT_NAMES, ...CREDIT_NAMES], 'amount']];
}

const CSV_DIALECTS: Partial<Record<ImportType, CsvDialect>> = {
  TransactionImport: {
    rows: 'transaction',
    // Without a configured amount column, a bank export's Debit and Credit columns (either one) stand for it, by the
    // names outflow_col_label and inflow_col_label give or by common names.
    requiredColumns: (imp) => [[imp.dateColLabel, ['date']], ...amountColumns(imp)],
    signedByMarker: true,
    moneyColumns: 'detected_debit_credit',
  },
  MintImport: { rows: 'transaction', requiredColumns: () => [], numberFormat: '1,234.56', creditColumn: 'Transaction Type' },
  ActualImport: { rows: 'transaction', requiredColumns: () => [], signedByMarker: true, numberFormat: '1,234.56', actualSplits: true, memoNamesPayeeless: true, categoryGroups: 'actual' },
  YnabImport: {
    rows: 'transaction',
    requiredColumns: (imp) => [[imp.dateColLabel, ['date']], [imp.amountColLabel, ['amount', 'outflow', 'inflow']]],
    signedByMarker: true,
    moneyColumns: 'outflow_inflow',
    memoNamesPayeeless: true,
    transferPayees: true,
    categoryGroups: 'ynab',
  },
  TradeImport: {
    rows: 'trade',
    requiredColumns: (imp) => [[imp.dateColLabel, ['date']], [imp.tickerColLabel, ['ticker', 'symbol']], [imp.qtyColLabel, ['qty', 'quantity', 'shares']], [imp.priceColLabel, ['price']]],
  },
  AccountImport: { rows: 'account', requiredColumns: (imp) => [[imp.nameColLabel, ['name', 'account_name']], [imp.amountColLabel, ['amount', 'balance']]] },
  CategoryImport: { rows: 'category', requiredColumns: () => [named('name')] },
  MerchantImport: { rows: 'merchant', requiredColumns: () => [named('name')] },
  RuleImport: { rows: 'rule', requiredColumns: () => [named('conditions'), named('actions')] },
};

/** How a file of `type` is read; undefined when the type's content is not CSV. */
export const csvDialectOf = (type: ImportType): CsvDialect | undefined => CSV_DIALECTS[type];
