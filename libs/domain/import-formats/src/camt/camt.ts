import { negateDecimal, parseDate, sameNumber, shownValue, sumOf } from '../cells';
import type { ParsedImport, ParsedRow } from '../csv-import';
import {
  balanceMismatch,
  type BankStatementOptions,
  dropRepeatedIds,
  referenceId,
  refusedFile,
  severalAccounts,
  type StatementEntry,
  statementRow,
  tooManyRows,
} from '../bank-statement';
import type { StatementAccount, StatementBalance, StatementFacts } from '../statement';
import { childOf, childrenOf, elementAt, lineCounter, readXml, textAt, type XmlElement, XmlRefused } from './xml';

// CAMT (ISO 20022 cash management) bank-to-customer messages: camt.053 statements, and camt.052 account reports and
// camt.054 debit/credit notifications, which hold entries in the same shape. Each booked entry (Ntry) becomes a
// transaction row; a batch entry whose transactions (TxDtls) each state their amount becomes a row per transaction.
// A statement's opening balance plus its booked entries must give its closing balance, or the file is refused.


/** The message kinds read, by the namespace's message name. */
/** A message kind: the element holding its reports, each report's element, and what a report is called. */
interface MessageKind {
  container: string;
  report: string;
  what: string;
}

const MESSAGES: Record<string, MessageKind> = {
  'camt.052': { container: 'BkToCstmrAcctRpt', report: 'Rpt', what: 'account report' },
  'camt.053': { container: 'BkToCstmrStmt', report: 'Stmt', what: 'statement' },
  'camt.054': { container: 'BkToCstmrDbtCdtNtfctn', report: 'Ntfctn', what: 'notification' },
};
/** Versions whose entries have the shape read here (2009's .001.02 to 2019's .001.08). */
const VERSIONS = ['02', '03', '04', '05', '06', '07', '08'];
const NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:(camt\.\d{3})\.001\.(\d+)$/;

/** An ISO 20022 amount: up to 18 digits, at most 5 of them decimals, no sign (CdtDbtInd says the direction). */
const AMOUNT = /^\d{1,18}(?:\.\d{1,5})?$/;

const INVALID = 'invalid_camt';

/** Why the file cannot be read as a CAMT message; thrown from the reader's handlers to stop it. */
class CamtRefused extends Error {}

/** A namespace as a message shows it: whole, unless it is longer than any real one. */
const shownNamespace = (namespace: string) => (namespace.length > 100 ? `${namespace.slice(0, 100)}…` : namespace);

/** The message kind a root element declares, or why it is not one read here. */
function messageOf(root: XmlElement): MessageKind {
  if (root.name !== 'Document') throw new CamtRefused(`The file is not a CAMT statement: its root element is <${root.tag}>, not <Document>`);
  const prefix = root.tag.includes(':') ? root.tag.slice(0, root.tag.indexOf(':')) : '';
  const namespace = root.attributes?.[prefix ? `xmlns:${prefix}` : 'xmlns'];
  if (!namespace) throw new CamtRefused('The XML file names no ISO 20022 namespace on its <Document>, so its message and version are unknown');
  const [, message, version] = NAMESPACE.exec(namespace) ?? [];
  const supported = 'camt.053.001.02 to .001.08 statements (camt.052 reports and camt.054 notifications alike)';
  if (!message || !Object.hasOwn(MESSAGES, message)) {
    throw new CamtRefused(`The file is an XML message of namespace '${shownNamespace(namespace)}', not a CAMT statement: Hearth reads ${supported}`);
  }
  if (!VERSIONS.includes(version)) {
    throw new CamtRefused(`The file is ${message}.001.${version} (namespace '${shownNamespace(namespace)}'), a version Hearth does not read: it reads ${supported}`);
  }
  return MESSAGES[message];
}

/** An entry or transaction's amount element, as an unsigned decimal, or null when it is none. */
const amountOf = (element: XmlElement | undefined): string | null => {
  const text = element?.text.trim() ?? '';
  return AMOUNT.test(text) ? text : null;
};

/** A date or date-time element's day (`Dt` or `DtTm`, the day as written before any time). */
const dayOf = (element: XmlElement | undefined): string => textAt(element, 'Dt') || textAt(element, 'DtTm').slice(0, 10);

/** A party's name: `Nm` (up to .001.07) or `Pty/Nm` (.001.08). */
const partyName = (party: XmlElement | undefined): string => textAt(party, 'Nm') || textAt(party, 'Pty/Nm');

/** The other party of a transaction: who was paid when money left, who paid when it came in. */
function counterparty(transaction: XmlElement | undefined, outflow: boolean): string {
  const parties = childOf(transaction, 'RltdPties');
  if (!parties) return '';
  const [direct, ultimate] = outflow ? ['Cdtr', 'UltmtCdtr'] : ['Dbtr', 'UltmtDbtr'];
  return partyName(childOf(parties, direct)) || partyName(childOf(parties, ultimate));
}

/**
 * What the payer wrote: unstructured lines (Ustrd) and structured additional text, then any structured creditor
 * reference (an RF or Swiss QR reference), which identifies the invoice paid.
 */
function remittanceOf(transaction: XmlElement | undefined): string {
  const info = childOf(transaction, 'RmtInf');
  if (!info) return '';
  const texts = childrenOf(info, 'Ustrd').map((u) => u.text);
  const references: string[] = [];
  for (const structured of childrenOf(info, 'Strd')) {
    texts.push(...childrenOf(structured, 'AddtlRmtInf').map((a) => a.text));
    references.push(textAt(structured, 'CdtrRefInf/Ref'));
  }
  return [...texts, ...references].join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * A transaction's name and notes: the counterparty, else the bank's text on the transaction (AddtlTxInf) or entry
 * (AddtlNtryInf); the remittance as notes, else the bank's text the name did not take.
 */
function described(transaction: XmlElement | undefined, outgoing: boolean, entryInfo: string): { name: string; notes: string | null } {
  const transactionInfo = textAt(transaction, 'AddtlTxInf').replace(/\s+/g, ' ');
  const name = counterparty(transaction, outgoing) || transactionInfo || entryInfo || 'Imported item';
  const notes = remittanceOf(transaction) || [transactionInfo, entryInfo].find((info) => info && info !== name) || null;
  return { name, notes };
}

/** A transaction's own amount in the entry's currency: `Amt` (.001.04 on) or `AmtDtls/TxAmt/Amt`; null when not stated so. */
function transactionAmount(transaction: XmlElement, currency: string): string | null {
  const element = childOf(transaction, 'Amt') ?? elementAt(transaction, 'AmtDtls/TxAmt/Amt');
  return element && (element.attributes?.Ccy ?? currency) === currency ? amountOf(element) : null;
}

/** A balance the report states: its amount signed by CdtDbtInd (DBIT is owed), its date and currency. */
function balanceOf(balance: XmlElement): StatementBalance | null {
  const amountElement = childOf(balance, 'Amt');
  const magnitude = amountOf(amountElement);
  if (magnitude === null) return null;
  const currency = amountElement?.attributes?.Ccy;
  return {
    amount: textAt(balance, 'CdtDbtInd') === 'DBIT' ? negateDecimal(magnitude) : magnitude,
    date: parseDate(dayOf(childOf(balance, 'Dt')), '%Y-%m-%d'),
    ...(currency ? { currency } : {}),
  };
}

/** The report's facts but its rows: id, account, currency, period and the balances by their type codes. */
function reportFacts(report: XmlElement): StatementFacts {
  const account = childOf(report, 'Acct');
  const iban = textAt(account, 'Id/IBAN');
  const facts: StatementFacts = { rows: null };
  const id = textAt(report, 'Id');
  if (id) facts.id = id;
  if (account) {
    const found: StatementAccount = { id: iban || textAt(account, 'Id/Othr/Id') };
    if (iban) found.iban = iban;
    const bank = textAt(account, 'Svcr/FinInstnId/BIC') || textAt(account, 'Svcr/FinInstnId/BICFI');
    if (bank) found.bankId = bank;
    const type = textAt(account, 'Tp/Cd');
    if (type) found.type = type.toUpperCase();
    if (found.id) facts.account = found;
  }
  const balances = new Map<string, StatementBalance>();
  for (const element of childrenOf(report, 'Bal')) {
    const code = (textAt(element, 'Tp/CdOrPrtry/Cd') || textAt(element, 'Tp/CdOrPrtry/Prtry')).toUpperCase();
    const balance = balanceOf(element);
    if (balance && !balances.has(code)) balances.set(code, balance);
  }
  const currency = textAt(account, 'Ccy') || [...balances.values()].find((b) => b.currency)?.currency;
  if (currency) facts.currency = currency;
  const start = textAt(report, 'FrToDt/FrDtTm').slice(0, 10);
  const end = textAt(report, 'FrToDt/ToDtTm').slice(0, 10);
  if (parseDate(start, '%Y-%m-%d')) facts.periodStart = start;
  if (parseDate(end, '%Y-%m-%d')) facts.periodEnd = end;
  // The day's opening booked balance, else the previous statement's closing one, which is the same figure.
  const opening = balances.get('OPBD') ?? balances.get('PRCD');
  if (opening) facts.openingBalance = opening;
  if (balances.has('CLBD')) facts.closingBalance = balances.get('CLBD');
  if (balances.has('CLAV')) facts.availableBalance = balances.get('CLAV');
  return facts;
}

/** An entry's transactions (TxDtls), in all its NtryDtls. */
function transactionsOf(entry: XmlElement): XmlElement[] {
  const transactions: XmlElement[] = [];
  for (const details of entry.children) {
    if (details.name !== 'NtryDtls') continue;
    for (const transaction of details.children) if (transaction.name === 'TxDtls') transactions.push(transaction);
  }
  return transactions;
}

/**
 * The amounts of a batch entry's transactions when every one states its own in the entry's currency, so the entry
 * splits into a row per transaction; else null (one transaction, or amounts not given).
 */
function batchAmounts(transactions: XmlElement[], currency: string): string[] | null {
  if (transactions.length < 2) return null;
  const amounts = transactions.map((t) => transactionAmount(t, currency));
  return amounts.every((a) => a !== null) ? (amounts as string[]) : null;
}

/** An entry's currency: its amount's Ccy, else the report account's (the schema requires Ccy; some files omit it). */
const entryCurrency = (entry: XmlElement, accountCurrency: string): string => (childOf(entry, 'Amt')?.attributes?.Ccy ?? accountCurrency).toUpperCase();

/** The rows one booked entry gives, and its amount as balances count it (money in positive; null when unreadable). */
function entryRows(entry: XmlElement, accountCurrency: string, line: () => number): { entries: StatementEntry[]; credit: string | null } {
  const problems: string[] = [];
  const amountElement = childOf(entry, 'Amt');
  const magnitude = amountOf(amountElement);
  const currency = entryCurrency(entry, accountCurrency);
  if (magnitude === null) problems.push(`amount '${shownValue(amountElement?.text.trim() ?? '')}' (Amt) is missing or not a number`);
  const indicator = textAt(entry, 'CdtDbtInd');
  const directed = indicator === 'DBIT' || indicator === 'CRDT';
  if (!directed) problems.push(`CdtDbtInd '${shownValue(indicator)}' is neither DBIT (money out) nor CRDT (money in)`);
  const outflow = magnitude === null || !directed ? null : indicator === 'DBIT' ? magnitude : negateDecimal(magnitude);
  const rawDate = dayOf(childOf(entry, 'BookgDt')) || dayOf(childOf(entry, 'ValDt'));
  const date = parseDate(rawDate, '%Y-%m-%d');
  if (!date) problems.push(`booking date '${shownValue(rawDate)}' (BookgDt) is missing or not a date`);
  const entryRef = referenceId(textAt(entry, 'AcctSvcrRef')) ?? referenceId(textAt(entry, 'NtryRef'));
  const transactions = transactionsOf(entry);
  const entryInfo = textAt(entry, 'AddtlNtryInf').replace(/\s+/g, ' ');
  const credit = outflow === null ? null : negateDecimal(outflow);

  const parts = batchAmounts(transactions, currency);
  if (parts) {
    // A batch (a collective transfer or direct debit): each transaction with its own amount, party and remittance.
    const signed = transactions.map((t, k) => ((textAt(t, 'CdtDbtInd') || indicator) === 'DBIT' ? parts[k] : negateDecimal(parts[k])));
    const sum = sumOf(signed);
    const unequal = outflow !== null && !sameNumber(sum, outflow) ? [`the batch's ${transactions.length} transactions (TxDtls) add up to ${sum}, not the entry's amount ${outflow}`] : [];
    const entries = transactions.map((transaction, k) => ({
      date,
      rawDate,
      currency,
      line,
      amount: signed[k],
      ...described(transaction, !signed[k].startsWith('-'), entryInfo),
      externalId: entryRef ? `${entryRef}/${k + 1}` : referenceId(textAt(transaction, 'Refs/AcctSvcrRef')),
      problems: [...problems, ...unequal],
    }));
    return { entries, credit };
  }
  // One transaction, or a batch whose transactions do not state amounts: one row of the entry's amount.
  const only = transactions.length === 1 ? transactions[0] : undefined;
  const { name, notes } =
    transactions.length > 1
      ? { name: entryInfo || `Batch of ${transactions.length} transactions`, notes: transactions.map(remittanceOf).filter(Boolean).join('; ') || null }
      : described(only, indicator === 'DBIT', entryInfo);
  const externalId = entryRef ?? referenceId(textAt(only, 'Refs/AcctSvcrRef'));
  return { entries: [{ date, rawDate, currency, line, amount: outflow, name, notes, externalId, problems }], credit };
}

/** The rows an entry gives, counted without building them (past maxRows, only the count is wanted). */
const entryRowCount = (entry: XmlElement, accountCurrency: string): number =>
  batchAmounts(transactionsOf(entry), entryCurrency(entry, accountCurrency))?.length ?? 1;

/** Whether an entry is booked: `Sts` BOOK (up to .001.07) or `Sts/Cd` BOOK (.001.08); pending and information entries are not. */
const isBooked = (entry: XmlElement): boolean => (textAt(entry, 'Sts') || textAt(entry, 'Sts/Cd') || textAt(entry, 'Sts/Prtry')).toUpperCase() === 'BOOK';

interface OpenReport {
  element: XmlElement;
  firstRow: number;
  /** The account's currency (Acct/Ccy), read at the first entry: the account comes before the entries. */
  currency: string | null;
  credits: string[];
  /** Every booked entry's amount was read: only then can the balances be checked. */
  readable: boolean;
}

/**
 * Parses a CAMT.053 statement (or CAMT.052 report, CAMT.054 notification) into transaction rows, one per booked entry
 * or per transaction of a batch, and the statements' facts. File errors: not XML, not CAMT or not a version read,
 * a DOCTYPE, cut short, statements of several accounts, balances that do not agree, no booked entry, too many rows.
 */
export function parseCamt(text: string, opts: BankStatementOptions): ParsedImport {
  let message = null as MessageKind | null;
  const rows: ParsedRow[] = [];
  const statements: StatementFacts[] = [];
  const mismatches: string[] = [];
  const lineOf = lineCounter(text);
  let rowCount = 0;
  let notBooked = 0;
  let report = null as OpenReport | null;
  try {
    readXml(text, {
      open(element, ancestors) {
        if (ancestors.length === 0) message = messageOf(element);
        else if (ancestors.length === 2 && element.name === message!.report && ancestors[1].name === message!.container) {
          report = { element, firstRow: rowCount + 1, currency: null, credits: [], readable: true };
        }
      },
      close(element, ancestors) {
        const open = report;
        if (!open) return true;
        if (ancestors.length === 3 && element.name === 'Ntry') {
          const currency = (open.currency ??= textAt(childOf(open.element, 'Acct'), 'Ccy') || opts.defaultCurrency);
          if (!isBooked(element)) notBooked++;
          // Past maxRows the file is refused: from there entries are only counted, no row built.
          else if (rowCount >= opts.maxRows) rowCount += entryRowCount(element, currency);
          else {
            const { entries, credit } = entryRows(element, currency, () => lineOf(element.offset));
            if (rowCount + entries.length > opts.maxRows) rowCount += entries.length;
            else {
              if (credit === null) open.readable = false;
              else open.credits.push(credit);
              for (const entry of entries) rows.push(statementRow(++rowCount, entry, opts.today));
            }
          }
          return false;
        }
        if (element === open.element) {
          const facts = reportFacts(element);
          facts.rows = rowCount >= open.firstRow ? { first: open.firstRow, last: rowCount } : null;
          const label = `${message!.what[0].toUpperCase()}${message!.what.slice(1)} ${statements.length + 1}${facts.id ? ` (${facts.id})` : ''}`;
          const mismatch = open.readable && rowCount <= opts.maxRows ? balanceMismatch(label, facts, open.credits) : null;
          if (mismatch) mismatches.push(mismatch);
          statements.push(facts);
          report = null;
          return false;
        }
        return true;
      },
    });
  } catch (error) {
    if (error instanceof XmlRefused) return refusedFile(`The file is not a readable XML statement: ${error.message}`, INVALID);
    if (error instanceof CamtRefused) return refusedFile(error.message, INVALID);
    throw error;
  }
  if (rowCount > opts.maxRows) return tooManyRows(rowCount, opts.maxRows);
  if (!statements.length) return refusedFile(`The CAMT file holds no ${message?.what ?? 'statement'} (<${message?.report ?? 'Stmt'}>)`, INVALID);
  const several = severalAccounts(statements, 'CAMT');
  if (several) return refusedFile(several, INVALID);
  if (mismatches.length) return { rows: [], fileErrors: mismatches, errorCode: 'unbalanced_statement' };
  if (!rows.length) {
    const pending = notBooked ? `: its ${notBooked} entries are not booked yet (pending or for information)` : '';
    return refusedFile(`The CAMT file has no booked entries${pending}`, INVALID);
  }
  dropRepeatedIds(rows);
  return { rows, fileErrors: [], statements };
}
