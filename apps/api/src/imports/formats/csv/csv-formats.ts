import { IMPORT_FORMAT_FACTS } from '@hearth/contracts';
import { readImportContent } from '@hearth/domain/import-formats';
import type { Import } from '../../import.entity';
import { publishAccounts } from '../../publishing/accounts.publisher';
import { publishTrades } from '../../publishing/investments.publisher';
import { withRows } from '../../publishing/publish-context';
import { publishCategories, publishMerchants, rulePublisher } from '../../publishing/taxonomy.publisher';
import { publishTransactions } from '../../publishing/transactions.publisher';
import { defineFormat, type ImportFormat } from '../import-format';

// The CSV types: each file's layout is read by the CSV dialect of its type (libs/domain/import-formats/src/formats).

const csvRows: ImportFormat['rows'] = { parse: (imp, content, options) => readImportContent(imp, content.text, options) };

/**
 * Rows that become transactions, two chunks at a time (each inserts only its own rows), claiming the transactions
 * they repeat: bank exports re-imported with overlapping dates, and app exports holding the whole history each time.
 */
const transactionRows = { rows: csvRows, publish: publishTransactions, concurrentChunks: true, duplicates: 'content' } as const;

/** Layouts whose column labels the exporting app fixes (docs/api/import-formats.md#mint-actual-and-ynab); their date format is a default (the contracts' layoutDateFormat). */
const layout = (labels: Partial<Import>): Partial<Import> => ({ ...labels, signageConvention: 'inflows_positive', hasHeader: true, headerRow: null });

export const transactionImport = defineFormat({
  type: 'TransactionImport',
  facts: IMPORT_FORMAT_FACTS.TransactionImport,
  ...transactionRows,
  mappings: ['account', 'category', 'tag'],
});

export const mintImport = defineFormat({
  type: 'MintImport',
  facts: IMPORT_FORMAT_FACTS.MintImport,
  ...transactionRows,
  mappings: ['account', 'category', 'tag'],
  fixedLayout: layout({
    dateColLabel: 'Date', nameColLabel: 'Description', amountColLabel: 'Amount', currencyColLabel: 'Currency', accountColLabel: 'Account Name',
    categoryColLabel: 'Category', tagsColLabel: 'Labels', notesColLabel: 'Notes', entityTypeColLabel: 'Transaction Type',
  }),
});

export const actualImport = defineFormat({
  type: 'ActualImport',
  facts: IMPORT_FORMAT_FACTS.ActualImport,
  ...transactionRows,
  mappings: ['account', 'category'],
  splitParts: true,
  fixedLayout: layout({ dateColLabel: 'Date', nameColLabel: 'Payee', amountColLabel: 'Amount', accountColLabel: 'Account', categoryColLabel: 'Category', notesColLabel: 'Notes' }),
});

export const ynabImport = defineFormat({
  type: 'YnabImport',
  facts: IMPORT_FORMAT_FACTS.YnabImport,
  ...transactionRows,
  mappings: ['account', 'category'],
  fixedLayout: layout({ dateColLabel: 'Date', nameColLabel: 'Payee', accountColLabel: 'Account', categoryColLabel: 'Category', notesColLabel: 'Memo' }),
});

/** Broker exports re-imported with overlapping dates must not double the holdings; their new accounts hold investments. */
export const tradeImport = defineFormat({
  type: 'TradeImport',
  facts: IMPORT_FORMAT_FACTS.TradeImport,
  rows: csvRows,
  publish: withRows(publishTrades),
  duplicates: 'content',
  mappings: ['account'],
  createdAccounts: 'Investment',
});

/** Accounts are imported 50 at a time, as in Sure. */
export const accountImport = defineFormat({
  type: 'AccountImport',
  facts: IMPORT_FORMAT_FACTS.AccountImport,
  rows: csvRows,
  publish: withRows(publishAccounts),
  mappings: ['account_type'],
  rowLimit: { max: (configured) => Math.min(50, configured), reason: 'accounts are imported 50 at a time' },
});

export const categoryImport = defineFormat({ type: 'CategoryImport', facts: IMPORT_FORMAT_FACTS.CategoryImport, rows: csvRows, publish: withRows(publishCategories) });

export const merchantImport = defineFormat({ type: 'MerchantImport', facts: IMPORT_FORMAT_FACTS.MerchantImport, rows: csvRows, publish: withRows(publishMerchants) });

/** A rule file replaces the family's rule of the same name and resource type. */
export const ruleImport = defineFormat({ type: 'RuleImport', facts: IMPORT_FORMAT_FACTS.RuleImport, rows: csvRows, publish: withRows(rulePublisher({ replacesNamed: true })) });
