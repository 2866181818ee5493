import { IMPORT_FORMAT_FACTS } from '@hearth/contracts';
import { parsePdfStatement, type PositionedText } from '@hearth/domain/import-formats';
import { ApiError } from '../../../common/api-error';
import { extractPdfText } from '../../pdf-text';
import { statementPublisher } from '../../publishing/statement.publisher';
import { defineFormat } from '../import-format';
import { leaveOutSkipped } from '../statement-rows';

/**
 * A PDF bank statement of one account. Its text layer is stored (the PDF is not), so that PATCH skip_rows can read
 * its rows again; its rows are read once, not on other changes.
 */
export const pdfImport = defineFormat({
  type: 'PdfImport',
  facts: IMPORT_FORMAT_FACTS.PdfImport,
  bytes: {
    async store(content) {
      const statement = await extractPdfText(content.bytes!);
      content.decoded = statement;
      return JSON.stringify(statement);
    },
    read: (stored, fileName) => ({ text: '', fileName, decoded: JSON.parse(stored) as PositionedText[] }),
  },
  reparsedOnChange: false,
  rows: {
    parse(_imp, content, options) {
      if (!content.decoded) throw new ApiError(422, 'missing_content', 'Upload the PDF statement as a file.');
      return leaveOutSkipped(parsePdfStatement(content.decoded as PositionedText[], options), options);
    },
  },
  publish: statementPublisher({ openingBalanceBeforeRows: false }),
  duplicates: 'content',
});
