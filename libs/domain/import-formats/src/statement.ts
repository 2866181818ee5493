// What a bank statement file says about itself, besides its rows: the account it is of, its currency, the period it
// covers and the balances the bank states. OFX, CAMT.053 and MT940 parsers fill the same shape, so the publisher can
// check an import against its account (is it this account's statement? does the closing balance match?) without
// knowing the format. Every field is optional but `rows`: a parser gives only what the file states, never a guess.

/** The account a statement is of, as the file identifies it. */
export interface StatementAccount {
  /** The account's number as the file gives it: OFX ACCTID, CAMT Acct/Id (IBAN or Othr/Id), MT940 :25: account part. */
  id: string;
  /** The IBAN, when the identifier is one (CAMT Acct/Id/IBAN, an MT940 :25: or OFX ACCTID that is an IBAN). */
  iban?: string;
  /** The bank or broker: OFX BANKID (US routing number) or BROKERID, CAMT Acct/Svcr BIC, MT940 :25: bank code. */
  bankId?: string;
  /** OFX BRANCHID, when given. */
  branchId?: string;
  /**
   * What kind of account: OFX ACCTTYPE (CHECKING, SAVINGS, MONEYMRKT, CREDITLINE, CD), 'CREDITCARD' for an OFX
   * CCACCTFROM, 'INVESTMENT' for an OFX INVACCTFROM, CAMT Acct/Tp/Cd (CACC, SVGS, ...). Upper case, as the file has it.
   */
  type?: string;
}

/** A balance the bank states. */
export interface StatementBalance {
  /**
   * Decimal string ('1234.56', '-80.00') as the bank states it: positive is in the holder's favour (a credit balance),
   * negative is owed (an overdraft, a credit card's debt). Note: the opposite sign of a row's `amount`, which is
   * positive for money leaving the account.
   */
  amount: string;
  /** YYYY-MM-DD the balance is as of, or null when the file does not say or says it unreadably. */
  date: string | null;
  /** ISO 4217 code, when the balance names its own currency (CAMT Amt/@Ccy; MT940 :62F:). */
  currency?: string;
}

/** One statement of a file: a file may hold several (OFX STMTRS per account, CAMT Stmt, MT940 messages). */
export interface StatementFacts {
  /** The statement's own identifier, when it has one: CAMT Stmt/Id, MT940 :20: (with :28C: number). */
  id?: string;
  account?: StatementAccount;
  /** ISO 4217 code of the account: OFX CURDEF, CAMT Acct/Ccy, MT940 balance currency. */
  currency?: string;
  /** YYYY-MM-DD, first and last day the statement covers (OFX DTSTART/DTEND, CAMT FrToDt, MT940 balance dates). */
  periodStart?: string;
  periodEnd?: string;
  /** Balance before the first row: CAMT OPBD/PRCD, MT940 :60F:/:60M:. OFX states none. */
  openingBalance?: StatementBalance;
  /** Booked balance after the last row: OFX LEDGERBAL, CAMT CLBD, MT940 :62F:/:62M:. */
  closingBalance?: StatementBalance;
  /** Balance available to spend: OFX AVAILBAL, CAMT CLAV, MT940 :64:. */
  availableBalance?: StatementBalance;
  /** Cash held in an investment account: OFX INVBAL/AVAILCASH. */
  cashBalance?: StatementBalance;
  /**
   * sourceRowNumber of the statement's first and last rows in ParsedImport.rows (a statement's rows are consecutive,
   * first <= last), or null when the statement holds no row.
   */
  rows: { first: number; last: number } | null;
}
