import { IMPORT_FORMAT_FACTS } from '@hearth/contracts';
import { parseQif } from '@hearth/domain/import-formats';
import { statementPublisher } from '../../publishing/statement.publisher';
import { defineFormat } from '../import-format';
import { leaveOutSkipped } from '../statement-rows';

/**
 * A QIF file of one account: transactions (a split as its total and parts), an investment section's trades and stock
 * splits, and an opening balance, which is moved before the file's earliest row.
 */
export const qifImport = defineFormat({
  type: 'QifImport',
  facts: IMPORT_FORMAT_FACTS.QifImport,
  rows: { parse: (_imp, content, options) => leaveOutSkipped(parseQif(content.text, options), options) },
  publish: statementPublisher({ openingBalanceBeforeRows: true }),
  duplicates: 'content',
  mappings: ['category', 'tag'],
  splitParts: true,
  stockSplits: true,
});
