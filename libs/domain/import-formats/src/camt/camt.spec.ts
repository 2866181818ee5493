import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedImport } from '../csv-import';
import { parseCamt } from './camt';

const options = { maxRows: 1000, defaultCurrency: 'EUR', today: new Date('2026-11-22T12:00:00Z') };
const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures/camt', name), 'utf8');

/** A German savings bank's camt.053.001.02 day statement: a standing order, a salary, a batch of three transfers, a card payment, a fee. */
const SPARKASSE = fixture('sparkasse-053-001-02.xml');
/** A Swiss bank's camt.053.001.08 month statement: a QR-bill, a salary, a card payment, a refund and a pending debit. */
const POSTFINANCE = fixture('postfinance-053-001-08.xml');

const table = (parsed: ParsedImport) => parsed.rows.map((r) => [r.values.date, r.values.amount, r.values.currency, r.values.name, r.values.notes, r.values.external_id]);

/** A CAMT document of the given namespace around statements' XML. */
const document = (body: string, namespace = 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.04', container = 'BkToCstmrStmt') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="${namespace}"><${container}><GrpHdr><MsgId>1</MsgId></GrpHdr>${body}</${container}></Document>`;
const balance = (code: string, amount: string, date: string, indicator = 'CRDT') =>
  `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Dt><Dt>${date}</Dt></Dt></Bal>`;
const entry = (amount: string, indicator: string, date: string, more = '', status = '<Sts>BOOK</Sts>') =>
  `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd>${status}<BookgDt><Dt>${date}</Dt></BookgDt>${more}</Ntry>`;
const statement = (body: string, iban = 'DE02120300000000202051', tag = 'Stmt') =>
  `<${tag}><Id>S1</Id><Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>EUR</Ccy></Acct>${body}</${tag}>`;

describe('parseCamt: camt.053.001.02 of a German bank', () => {
  it('gives a row per booked entry and per transaction of a batch: booking date, outflow positive, counterparty, remittance, bank reference', () => {
    const parsed = parseCamt(SPARKASSE, options);
    expect(parsed.fileErrors).toEqual([]);
    expect(table(parsed)).toEqual([
      ['2024-03-05', '1250.00', 'EUR', 'Hausverwaltung Schmidt GmbH', 'Miete Maerz 2024 Wohnung 3.OG links', '2024030512345678'],
      ['2024-03-05', '-3456.78', 'EUR', 'ACME Maschinenbau AG', 'LOHN/GEHALT 03/2024 PERS.NR. 00042', '2024030512345679'],
      // The batch of three transfers booked as one 119.97 debit: a row each, with the entry's reference and its place.
      ['2024-03-05', '49.99', 'EUR', 'Stadtwerke München GmbH', 'Abschlag Strom 03/2024 Vertragskonto 4711 0815', '2024030512345680/1'],
      ['2024-03-05', '39.99', 'EUR', 'Müller & Söhne OHG', 'Rechnung R-2024-0311', '2024030512345680/2'],
      ['2024-03-05', '29.99', 'EUR', 'Fitnessstudio Muskelkater e.K.', 'Mitgliedsbeitrag Maerz', '2024030512345680/3'],
      ['2024-03-05', '23.45', 'EUR', 'REWE Markt GmbH', 'REWE SAGT DANKE 12345//Muenchen/DE 2024-03-04T18:22:11 KFN 1 VJ 2712', '2024030512345681'],
      // A fee names no party: the bank's text on the entry is its name.
      ['2024-03-05', '4.90', 'EUR', 'Entgelt Kontofuehrung 02/2024', null, '2024030512345682'],
    ]);
    expect(parsed.rows.every((r) => r.errors.length === 0)).toBe(true);
    expect(parsed.rows.map((r) => r.sourceRowNumber)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(parsed.rows[0].values).toMatchObject({ row_kind: 'transaction', category: null, tags: [], account: null });
  });

  it("states the statement's account, period and balances: 2500.00 + 2058.46 of entries = 4558.46", () => {
    expect(parseCamt(SPARKASSE, options).statements).toEqual([
      {
        id: '2024030500047',
        account: { id: 'DE02120300000000202051', iban: 'DE02120300000000202051', bankId: 'BYLADEM1001' },
        currency: 'EUR',
        periodStart: '2024-03-05',
        periodEnd: '2024-03-05',
        // The previous statement's closing balance (PRCD) opens this one.
        openingBalance: { amount: '2500.00', date: '2024-03-04', currency: 'EUR' },
        closingBalance: { amount: '4558.46', date: '2024-03-05', currency: 'EUR' },
        availableBalance: { amount: '5058.46', date: '2024-03-05', currency: 'EUR' },
        rows: { first: 1, last: 7 },
      },
    ]);
  });

  it('refuses a statement whose entries do not lead from the opening to the closing balance, naming both figures', () => {
    const altered = SPARKASSE.replace('<Amt Ccy="EUR">23.45</Amt>', '<Amt Ccy="EUR">32.45</Amt>');
    expect(parseCamt(altered, options)).toEqual({
      rows: [],
      errorCode: 'unbalanced_statement',
      fileErrors: [
        'Statement 1 (2024030500047): the opening balance 2500.00 EUR on 2024-03-04 and the 5 booked entries (net 2049.46) come to 4549.46, but the closing balance is 4558.46 EUR on 2024-03-05: the file is not the whole statement, or not as the bank wrote it',
      ],
    });
  });

  it('refuses a file cut short, naming the element left open', () => {
    const cut = SPARKASSE.slice(0, SPARKASSE.indexOf('Fitnessstudio'));
    expect(parseCamt(cut, options)).toEqual({
      rows: [],
      errorCode: 'invalid_camt',
      fileErrors: [expect.stringMatching(/^The file is not a readable XML statement: the file ends inside <Nm>, which is never closed: it is cut short \(line \d+\)$/)],
    });
    expect(parseCamt(SPARKASSE.slice(0, SPARKASSE.indexOf('<Amt Ccy="EUR">1250') + 8), options).fileErrors).toEqual([
      expect.stringContaining('the file ends inside a tag: it is cut short'),
    ]);
  });

  it('refuses more rows than an import holds, counting every transaction of a batch', () => {
    expect(parseCamt(SPARKASSE, { ...options, maxRows: 6 })).toEqual({
      rows: [],
      errorCode: 'too_many_rows',
      fileErrors: ['The file has 7 rows; at most 6 can be stored for one import'],
    });
    expect(parseCamt(SPARKASSE, { ...options, maxRows: 7 }).rows).toHaveLength(7);
  });
});

describe('parseCamt: camt.053.001.08 of a Swiss bank', () => {
  it('reads Sts/Cd, Pty/Nm, a date-time booking date and structured remittance; pending entries are left out', () => {
    const parsed = parseCamt(POSTFINANCE, options);
    expect(parsed.fileErrors).toEqual([]);
    expect(table(parsed)).toEqual([
      ['2024-07-01', '1980.00', 'CHF', 'Verwaltung Seeblick AG', 'Miete Juli 2024 210000000003139471430009017', '240701CH0A1B2C3D'],
      // The payer (Dbtr) of a credit, not its ultimate payer.
      ['2024-07-25', '-7850.35', 'CHF', 'Helvetia Software GmbH', 'Lohn Juli 2024', '240725CH9Z8Y7X6W'],
      // No remittance: the bank's text on the transaction is the notes.
      ['2024-07-27', '112.40', 'CHF', 'Migros Zuerich HB', 'Debitkarte 26.07.2024 18:41 Karte Nr. XXXX1234', '240727CH5V4U3T2S'],
      // A reversal booked as a credit is money in, as CdtDbtInd says.
      ['2024-07-29', '-45.00', 'CHF', 'Digitec Galaxus AG', 'Gutschrift Retoure 77881', '240729CH1R2Q3P4O'],
    ]);
    expect(parsed.statements).toEqual([
      {
        id: '20240801375204000000002',
        account: { id: 'CH9300762011623852957', iban: 'CH9300762011623852957', bankId: 'POFICHBEXXX', type: 'CACC' },
        currency: 'CHF',
        periodStart: '2024-07-01',
        periodEnd: '2024-07-31',
        openingBalance: { amount: '12345.60', date: '2024-06-30', currency: 'CHF' },
        closingBalance: { amount: '18148.55', date: '2024-07-31', currency: 'CHF' },
        rows: { first: 1, last: 4 },
      },
    ]);
  });

  it('reads a document whose elements carry a namespace prefix', () => {
    const prefixed = POSTFINANCE.replace(/<(\/?)(?=[A-Za-z])/g, '<$1c:').replace('xmlns=', 'xmlns:c=');
    expect(table(parseCamt(prefixed, options))).toEqual(table(parseCamt(POSTFINANCE, options)));
  });
});

describe('parseCamt: what it refuses', () => {
  it('refuses another ISO 20022 message or an unknown CAMT version, naming the namespace', () => {
    const pain = document('<PmtInf/>', 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03', 'CstmrCdtTrfInitn');
    expect(parseCamt(pain, options)).toEqual({
      rows: [],
      errorCode: 'invalid_camt',
      fileErrors: [
        "The file is an XML message of namespace 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03', not a CAMT statement: Hearth reads camt.053.001.02 to .001.08 statements (camt.052 reports and camt.054 notifications alike)",
      ],
    });
    expect(parseCamt(document('', 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.99'), options).fileErrors).toEqual([
      "The file is camt.053.001.99 (namespace 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.99'), a version Hearth does not read: it reads camt.053.001.02 to .001.08 statements (camt.052 reports and camt.054 notifications alike)",
    ]);
    expect(parseCamt('<Document><BkToCstmrStmt/></Document>', options).fileErrors).toEqual([
      'The XML file names no ISO 20022 namespace on its <Document>, so its message and version are unknown',
    ]);
    expect(parseCamt('<OFX><BANKMSGSRSV1/></OFX>', options).fileErrors).toEqual(['The file is not a CAMT statement: its root element is <OFX>, not <Document>']);
    expect(parseCamt('Date,Amount\n2024-01-01,5', options).fileErrors).toEqual(['The file is not a readable XML statement: text before the root element (line 1)']);
  });

  it('refuses a DOCTYPE (billion laughs, external entities) unread, and any entity it would define', () => {
    const laughs = `<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">${Array.from({ length: 8 }, (_, k) => `<!ENTITY lol${k + 3} "${`&lol${k + 2};`.repeat(10)}">`).join('')}]>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt>&lol9;</BkToCstmrStmt></Document>`;
    expect(parseCamt(laughs, options)).toEqual({
      rows: [],
      errorCode: 'invalid_camt',
      fileErrors: [
        'The file is not a readable XML statement: the file has a <!DOCTYPE declaration, which is refused: a statement needs none, and one can define entities that expand without end or read other files (line 2)',
      ],
    });
    const external = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">&xxe;</Document>';
    expect(parseCamt(external, options).fileErrors).toEqual([expect.stringContaining('<!DOCTYPE declaration, which is refused')]);
    // Without its declaration, a reference to an entity is refused as well, never left as text.
    const undeclared = document(statement(entry('1.00', 'DBIT', '2024-01-02', '<AddtlNtryInf>&xxe;</AddtlNtryInf>')));
    expect(parseCamt(undeclared, options).fileErrors).toEqual([
      "The file is not a readable XML statement: '&xxe;' is not a character the file may name: only &amp; &lt; &gt; &quot; &apos; and &#...; are read, and a file may not declare its own entities (line 2)",
    ]);
  });

  it('refuses a file of statements of several accounts, a file without statements and one without booked entries', () => {
    const two = document(statement(entry('1.00', 'DBIT', '2024-01-02')) + statement(entry('2.00', 'DBIT', '2024-01-02'), 'CH9300762011623852957'));
    expect(parseCamt(two, options).fileErrors).toEqual([
      "The CAMT file holds statements of 2 accounts ('DE02120300000000202051', 'CH9300762011623852957'); export each account to its own file and import it into its account",
    ]);
    expect(parseCamt(document(''), options).fileErrors).toEqual(['The CAMT file holds no statement (<Stmt>)']);
    expect(parseCamt(document(statement(entry('1.00', 'DBIT', '2024-01-02', '', '<Sts>PDNG</Sts>'))), options).fileErrors).toEqual([
      'The CAMT file has no booked entries: its 1 entries are not booked yet (pending or for information)',
    ]);
  });
});

describe('parseCamt: entries', () => {
  it("gives rows errors for what cannot be stored: an unreadable amount, a date out of range, finer than the currency's minor unit", () => {
    const body = statement(
      entry('12,50', 'DBIT', '2024-01-02') +
        entry('5.00', 'DBIT', '2027-01-02') +
        entry('1.005', 'DBIT', '2024-01-03') +
        entry('7.00', 'XXXX', '2024-01-04') +
        entry('8.00', 'DBIT', '2024-02-30'),
    );
    expect(parseCamt(document(body), options).rows.map((r) => r.errors)).toEqual([
      ["Row 1 (line 2): amount '12,50' (Amt) is missing or not a number"],
      ['Row 2 (line 2): date 2027-01-02 must be between 1996-11-22 and 2026-11-22'],
      ["Row 3 (line 2): amount '1.005' is finer than the EUR minor unit: EUR amounts have 2 decimals"],
      ["Row 4 (line 2): CdtDbtInd 'XXXX' is neither DBIT (money out) nor CRDT (money in)"],
      ["Row 5 (line 2): booking date '2024-02-30' (BookgDt) is missing or not a date"],
    ]);
  });

  it('keeps a batch whose transactions do not state their amounts as one row, and flags parts that do not add up', () => {
    const tx = (name: string, amount = '') => `<TxDtls>${amount}<RltdPties><Cdtr><Nm>${name}</Nm></Cdtr></RltdPties><RmtInf><Ustrd>for ${name}</Ustrd></RmtInf></TxDtls>`;
    const unsplit = entry('30.00', 'DBIT', '2024-01-02', `<AcctSvcrRef>B1</AcctSvcrRef><NtryDtls><Btch><NbOfTxs>2</NbOfTxs></Btch>${tx('A')}${tx('B')}</NtryDtls>`);
    const amounts = (a: string) => `<Amt Ccy="EUR">${a}</Amt><CdtDbtInd>DBIT</CdtDbtInd>`;
    const unequal = entry('30.00', 'DBIT', '2024-01-03', `<NtryDtls>${tx('C', amounts('10.00'))}${tx('D', amounts('15.00'))}</NtryDtls>`);
    const parsed = parseCamt(document(statement(balance('OPBD', '100.00', '2024-01-01') + unsplit + unequal + balance('CLBD', '40.00', '2024-01-03'))), options);
    expect(parsed.fileErrors).toEqual([]);
    expect(parsed.rows.map((r) => [r.values.amount, r.values.name, r.values.notes, r.values.external_id, r.errors])).toEqual([
      ['30.00', 'Batch of 2 transactions', 'for A; for B', 'B1', []],
      ['10.00', 'C', 'for C', null, ["Row 2 (line 2): the batch's 2 transactions (TxDtls) add up to 25.00, not the entry's amount 30.00"]],
      ['15.00', 'D', 'for D', null, ["Row 3 (line 2): the batch's 2 transactions (TxDtls) add up to 25.00, not the entry's amount 30.00"]],
    ]);
  });

  it('leaves out a bank reference that several rows share or that is a placeholder', () => {
    const ref = (r: string) => `<AcctSvcrRef>${r}</AcctSvcrRef>`;
    const body = statement(entry('1.00', 'DBIT', '2024-01-02', ref('SAME')) + entry('2.00', 'DBIT', '2024-01-02', ref('SAME')) + entry('3.00', 'DBIT', '2024-01-02', ref('NONREF')) + entry('4.00', 'DBIT', '2024-01-02', ref('OWN')));
    expect(parseCamt(document(body), options).rows.map((r) => r.values.external_id)).toEqual([null, null, null, 'OWN']);
  });

  it('reads camt.052 reports and camt.054 notifications alike; a notification states no balances', () => {
    const report = statement(balance('OPBD', '10.00', '2024-01-01') + entry('4.00', 'DBIT', '2024-01-02') + entry('9.00', 'DBIT', '2024-01-02', '', '<Sts>PDNG</Sts>') + balance('CLBD', '6.00', '2024-01-02'), undefined, 'Rpt');
    const parsed052 = parseCamt(document(report, 'urn:iso:std:iso:20022:tech:xsd:camt.052.001.02', 'BkToCstmrAcctRpt'), options);
    expect([parsed052.fileErrors, parsed052.rows.map((r) => r.values.amount)]).toEqual([[], ['4.00']]);
    const notification = statement(entry('4.00', 'CRDT', '2024-01-02', '<NtryDtls><TxDtls><RltdPties><Dbtr><Nm>Payer</Nm></Dbtr></RltdPties></TxDtls></NtryDtls>'), undefined, 'Ntfctn');
    const parsed054 = parseCamt(document(notification, 'urn:iso:std:iso:20022:tech:xsd:camt.054.001.08', 'BkToCstmrDbtCdtNtfctn'), options);
    expect(table(parsed054)).toEqual([['2024-01-02', '-4.00', 'EUR', 'Payer', null, null]]);
    expect(parsed054.statements![0]).not.toHaveProperty('openingBalance');
    // In a report, a mismatch is named as the report's.
    const wrong = report.replace('6.00', '7.00');
    expect(parseCamt(document(wrong, 'urn:iso:std:iso:20022:tech:xsd:camt.052.001.02', 'BkToCstmrAcctRpt'), options).fileErrors).toEqual([
      expect.stringMatching(/^Account report 1 \(S1\): the opening balance 10\.00 EUR on 2024-01-01 and the 1 booked entries \(net -4\.00\) come to 6\.00, but the closing balance is 7\.00 EUR/),
    ]);
  });

  it('reads a statement of many entries in one pass: 10,000 entries give 10,000 rows and balance', () => {
    const entries = Array.from({ length: 10_000 }, (_, k) => entry('1.25', 'DBIT', '2024-01-02', `<AcctSvcrRef>R${k}</AcctSvcrRef>`)).join('\n');
    const parsed = parseCamt(document(statement(balance('OPBD', '20000.00', '2024-01-01') + entries + balance('CLBD', '7500.00', '2024-01-02'))), { ...options, maxRows: 100_000 });
    expect([parsed.fileErrors, parsed.rows.length, parsed.rows.at(-1)!.values.external_id, parsed.statements![0].rows]).toEqual([[], 10_000, 'R9999', { first: 1, last: 10_000 }]);
  });
});
