import { IMPORT_FORMAT_FACTS } from '@hearth/contracts';
import { parseCamt, parseMt940, parseOfx, severalAccounts, type ParsedImport } from '@hearth/domain/import-formats';
import { statementPublisher } from '../../publishing/statement.publisher';
import { defineFormat } from '../import-format';
import { leaveOutSkipped } from '../statement-rows';

/**
 * One rule for every bank statement file: an import publishes into one account, so a file holding statements of
 * several accounts is refused, naming them (the CAMT and MT940 parsers refuse so themselves; an OFX file of a bank's
 * every account is refused here alike).
 */
function ofOneAccount(parsed: ParsedImport, standard: string): ParsedImport {
  const several = parsed.statements && severalAccounts(parsed.statements, standard);
  return several ? { rows: [], fileErrors: [several], errorCode: 'invalid_file' } : parsed;
}

/**
 * What the three statement standards share: one account's statement (account_id required), rows published as QIF's
 * (transactions; an OFX investment statement's trades and splits), duplicates found by the bank's own transaction id
 * (FITID, AcctSvcrRef/EndToEndId, :61: reference) with the content policy for rows that have none, and the account's
 * opening balance moved before the file's earliest row. A statement of transactions only publishes two chunks at a
 * time, as a CSV's; its last chunk waits for the others to commit before the balances.
 */
const statementFormat = {
  publish: statementPublisher({ openingBalanceBeforeRows: true }),
  duplicates: 'external_id',
  mappings: [],
  concurrentChunks: 'transaction rows',
} as const;

/** OFX 1.x (SGML) and 2.x (XML), and Quicken's QFX: bank, credit card and investment statements. */
export const ofxImport = defineFormat({
  ...statementFormat,
  type: 'OfxImport',
  facts: IMPORT_FORMAT_FACTS.OfxImport,
  rows: { parse: (_imp, content, options) => leaveOutSkipped(ofOneAccount(parseOfx(content.text, options), 'OFX'), options) },
  stockSplits: true,
});

/** ISO 20022 CAMT.053 statements, and CAMT.052 reports and CAMT.054 notifications: booked entries, batches split. */
export const camtImport = defineFormat({
  ...statementFormat,
  type: 'CamtImport',
  facts: IMPORT_FORMAT_FACTS.CamtImport,
  rows: { parse: (_imp, content, options) => leaveOutSkipped(ofOneAccount(parseCamt(content.text, options), 'CAMT'), options) },
});

/** SWIFT MT940 statements: :61: lines with their :86: details (the German and Dutch banks' subfields). */
export const mt940Import = defineFormat({
  ...statementFormat,
  type: 'Mt940Import',
  facts: IMPORT_FORMAT_FACTS.Mt940Import,
  rows: { parse: (_imp, content, options) => leaveOutSkipped(ofOneAccount(parseMt940(content.text, options), 'MT940'), options) },
});
