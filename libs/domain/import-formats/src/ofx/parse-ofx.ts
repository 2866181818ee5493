import { isCurrencyCode } from '@hearth/domain/money';
import type { BankStatementOptions } from '../bank-statement';
import { shownValue } from '../cells';
import type { ParsedImport, ParsedRow } from '../csv-import';
import type { StatementAccount, StatementBalance, StatementFacts } from '../statement';
import { investmentRowCount, investmentRows, securityTickers } from './investment';
import { childNamed, lineFinder, type OfxNode, readOfxTree } from './ofx-tree';
import { bankRow, ofxAmount, ofxDate, type RowContext } from './rows';

// OFX (Open Financial Exchange) statements, 1.x SGML and 2.x XML, and Quicken's QFX (OFX with Intuit's INTU.*
// elements): bank (STMTRS), credit card (CCSTMTRS) and investment (INVSTMTRS) statements, any number in one file.
// Rows come out in the service's conventions, as QIF's do: ISO dates, decimal strings with positive = money leaving
// the account (OFX's TRNAMT is the other way round), the FITID as the row's external_id. What each statement says of
// itself (account, currency, period, balances) is returned beside the rows, for the publisher to check.

const STATEMENTS = new Set(['STMTRS', 'CCSTMTRS', 'INVSTMTRS']);
const invalid = (message: string): ParsedImport => ({ rows: [], fileErrors: [message], errorCode: 'invalid_ofx' });

/**
 * Where the markup starts: after an OFX 1.x header (`OFXHEADER:100` and its KEY:VALUE lines), or at the start of an
 * OFX 2.x document (`<?xml ...?>`, `<?OFX ...?>`) or of bare markup (`<OFX>`). Anything else is not OFX.
 */
function markupStart(text: string): { start: number } | { refused: ParsedImport } {
  const start = /^[\uFEFF\s]*/.exec(text)![0].length;
  if (/^OFXHEADER\s*:/i.test(text.slice(start, start + 20))) {
    const lt = text.indexOf('<', start);
    return lt < 0 ? { refused: invalid('The OFX file cannot be read: it has an OFX header but no <OFX> element after it') } : { start: lt };
  }
  if (text.startsWith('<', start)) return { start };
  return { refused: invalid('The file is not OFX: it starts with neither an OFX header (OFXHEADER:100) nor OFX markup (<?OFX ...?>, <OFX>)') };
}

/** An IBAN (shape and mod-97 check digits), without spaces, or null: European banks' OFX gives it as ACCTID. */
function ibanOf(id: string): string | null {
  const compact = id.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return null;
  const digits = (compact.slice(4) + compact.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1 ? compact : null;
}

/** Statements in file order, at any depth of the document. */
function statementsOf(node: OfxNode, found: OfxNode[] = []): OfxNode[] {
  for (const child of node.children) {
    if (STATEMENTS.has(child.name)) found.push(child);
    else statementsOf(child, found);
  }
  return found;
}

/** The STATUS aggregates that report an error (sign-on refused, no statement for the account), as text. */
function reportedErrors(node: OfxNode, found: string[] = []): string[] {
  for (const child of node.children) {
    const { CODE: code = '', SEVERITY: severity = '', MESSAGE: message = '' } = child.fields;
    if (child.name === 'STATUS' && code !== '0' && severity.toUpperCase() === 'ERROR') found.push(`error ${code}${message ? ` (${shownValue(message)})` : ''}`);
    else reportedErrors(child, found);
  }
  return found;
}

function accountOf(statement: OfxNode): StatementAccount | undefined {
  const bank = childNamed(statement, 'BANKACCTFROM');
  const card = childNamed(statement, 'CCACCTFROM');
  const broker = childNamed(statement, 'INVACCTFROM');
  const from = bank ?? card ?? broker;
  const id = from?.fields.ACCTID;
  if (!from || !id) return undefined;
  const iban = ibanOf(id);
  const bankId = bank?.fields.BANKID ?? broker?.fields.BROKERID;
  const type = bank ? bank.fields.ACCTTYPE?.toUpperCase() : card ? 'CREDITCARD' : 'INVESTMENT';
  return {
    id,
    ...(iban ? { iban } : {}),
    ...(bankId ? { bankId } : {}),
    ...(bank?.fields.BRANCHID ? { branchId: bank.fields.BRANCHID } : {}),
    ...(type ? { type } : {}),
  };
}

function balanceOf(amount: string | undefined, date: string | undefined): StatementBalance | undefined {
  const value = ofxAmount(amount);
  return value === null ? undefined : { amount: value, date: ofxDate(date) };
}

function factsOf(statement: OfxNode, rows: StatementFacts['rows']): StatementFacts {
  const list = childNamed(statement, 'BANKTRANLIST') ?? childNamed(statement, 'INVTRANLIST');
  const [periodStart, periodEnd] = [ofxDate(list?.fields.DTSTART), ofxDate(list?.fields.DTEND)];
  const ledger = childNamed(statement, 'LEDGERBAL');
  const available = childNamed(statement, 'AVAILBAL');
  const investment = childNamed(statement, 'INVBAL');
  const account = accountOf(statement);
  const closingBalance = balanceOf(ledger?.fields.BALAMT, ledger?.fields.DTASOF);
  const availableBalance = balanceOf(available?.fields.BALAMT, available?.fields.DTASOF);
  const cashBalance = balanceOf(investment?.fields.AVAILCASH, statement.fields.DTASOF);
  return {
    ...(account ? { account } : {}),
    ...(statement.fields.CURDEF ? { currency: statement.fields.CURDEF.toUpperCase() } : {}),
    ...(periodStart ? { periodStart } : {}),
    ...(periodEnd ? { periodEnd } : {}),
    ...(closingBalance ? { closingBalance } : {}),
    ...(availableBalance ? { availableBalance } : {}),
    ...(cashBalance ? { cashBalance } : {}),
    rows,
  };
}

/** The transactions of a bank or card statement's BANKTRANLIST, or of an investment statement's INVTRANLIST. */
const transactionsOf = (statement: OfxNode): OfxNode[] =>
  statement.name === 'INVSTMTRS'
    ? childNamed(statement, 'INVTRANLIST')?.children ?? []
    : (childNamed(statement, 'BANKTRANLIST')?.children ?? []).filter((c) => c.name === 'STMTTRN');

/**
 * Some banks write every TRNAMT as a magnitude and let TRNTYPE (DEBIT, CREDIT) say which way the money went. Only a
 * statement without any negative TRNAMT and with DEBIT transactions is read so; any other is signed as OFX says.
 */
function writesMagnitudes(transactions: OfxNode[]): boolean {
  let debits = false;
  for (const t of transactions) {
    if (t.fields.TRNAMT?.trim().startsWith('-')) return false;
    debits ||= t.fields.TRNTYPE?.toUpperCase() === 'DEBIT';
  }
  return debits;
}

/** Parses an OFX or QFX file (text already decoded: decodeBytes) into rows and the facts of its statements. */
export function parseOfx(text: string, opts: BankStatementOptions): ParsedImport {
  const markup = markupStart(text);
  if ('refused' in markup) return markup.refused;
  const tree = readOfxTree(text, markup.start);
  if ('error' in tree) return invalid(`The OFX file cannot be read: ${tree.error}`);
  const ofx = childNamed(tree.root, 'OFX');
  if (!ofx) return invalid('The file is not OFX: it has no <OFX> element');
  const statements = statementsOf(ofx);
  if (!statements.length) {
    const reported = reportedErrors(ofx);
    const why = reported.length ? `; the bank reported ${reported.join(', ')}` : '';
    return invalid(`The OFX file holds no statement (STMTRS, CCSTMTRS or INVSTMTRS)${why}`);
  }
  for (const statement of statements) {
    const code = statement.fields.CURDEF;
    if (code && !isCurrencyCode(code.toUpperCase())) return invalid(`The OFX file's statement currency '${shownValue(code)}' (CURDEF) is not an ISO 4217 code`);
  }
  // Counted before any row is built: a reinvestment is two rows (the buy and the income that paid for it).
  const lists = statements.map(transactionsOf);
  const rowCount = lists.reduce((sum, list, k) => sum + (statements[k].name === 'INVSTMTRS' ? list.reduce((n, t) => n + investmentRowCount(t), 0) : list.length), 0);
  if (rowCount > opts.maxRows) {
    return { rows: [], fileErrors: [`The file has ${rowCount} rows; at most ${opts.maxRows} can be stored for one import`], errorCode: 'too_many_rows' };
  }
  const lineOf = lineFinder(text);
  const securities = securityTickers(ofx);
  const rows: ParsedRow[] = [];
  const facts = statements.map((statement, k) => {
    const first = rows.length + 1;
    const ctx: RowContext = {
      opts,
      currency: statement.fields.CURDEF?.toUpperCase() || opts.defaultCurrency,
      lineOf,
      securities,
      fitids: new Map(),
      magnitudesOnly: statement.name !== 'INVSTMTRS' && writesMagnitudes(lists[k]),
    };
    for (const transaction of lists[k]) {
      if (statement.name === 'INVSTMTRS') rows.push(...investmentRows(transaction, rows.length + 1, ctx));
      else rows.push(bankRow(transaction, rows.length + 1, ctx));
    }
    return factsOf(statement, rows.length >= first ? { first, last: rows.length } : null);
  });
  return { rows, fileErrors: [], statements: facts };
}
