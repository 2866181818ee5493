import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ParsedImport } from '../csv-import';
import { parseMt940 } from './mt940';

const options = { maxRows: 1000, defaultCurrency: 'EUR', today: new Date('2026-11-22T12:00:00Z') };
const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures/mt940', name), 'utf8');

/** A German savings bank's export: two day statements split by `-`, CRLF, :86: with ?-subfields wrapped at 65 characters. */
const SPARKASSE = fixture('sparkasse.sta');
/** ING Netherlands: SWIFT blocks, :25: IBAN with currency, bank references, :86: /EREF/ /CNTP/ /REMI/USTD// fields. */
const ING = fixture('ing-nl.sta');
/** ABN AMRO: header lines above :20:, :28:, no bank references, free-text and /TRTP/ /NAME/ /REMI/ details. */
const ABN_AMRO = fixture('abn-amro.sta');

const table = (parsed: ParsedImport) => parsed.rows.map((r) => [r.values.date, r.values.amount, r.values.name, r.values.notes, r.values.external_id]);

/** A statement of the given :61:/:86: lines between balances. */
const statement = (lines: string[], opening = 'C240101EUR100,00', closing = 'C240131EUR100,00', account = 'DE44500105175407324931') =>
  [':20:REF', `:25:${account}`, ':28C:1/1', `:60F:${opening}`, ...lines, `:62F:${closing}`, '-'].join('\n');

describe('parseMt940: German banks', () => {
  it('reads ?-subfields: ?32/?33 as the name, the SVWZ+ purpose of ?20-?29 as notes, ?00 when no name', () => {
    const parsed = parseMt940(SPARKASSE, options);
    expect(parsed.fileErrors).toEqual([]);
    expect(table(parsed)).toEqual([
      ['2024-03-05', '45.00', 'Stadtwerke Muenchen GmbH', 'Abschlag Strom Maerz 2024 Vertragskonto 4711', null],
      // ?32 is full (27 characters) and ?33 goes on without a space; so does a full ?20 into ?21.
      ['2024-03-05', '-2500.00', 'Muster Consulting GmbH & Co. KG', 'Rechnung Nr. 2024-03115 vom 01.03.2024', null],
      ['2024-03-06', '23.45', 'REWE Markt GmbH', '2024-03-05T18.22 Debitk. 1 2027-12', null],
      ['2024-03-07', '500.00', 'Erika Mustermann', 'Sparen', null],
      ['2024-03-08', '100.00', 'BARGELDAUSZAHLUNG', 'Geldautomat Marienplatz', null],
      // RD reverses a debit: the direct debit of the 5th comes back.
      ['2024-03-08', '-45.00', 'Stadtwerke Muenchen GmbH', 'Ruecklastschrift Abschlag Strom', null],
    ]);
    expect(parsed.rows.every((r) => r.errors.length === 0 && r.values.currency === 'EUR' && r.values.row_kind === 'transaction')).toBe(true);
  });

  it("states each statement's account (bank code and number), balances and rows", () => {
    const account = { id: '0123456789', bankId: '10050000' };
    expect(parseMt940(SPARKASSE, options).statements).toEqual([
      {
        id: 'STARTUMSE 00045/001',
        account,
        currency: 'EUR',
        periodStart: '2024-03-04',
        periodEnd: '2024-03-06',
        openingBalance: { amount: '1234.56', date: '2024-03-04', currency: 'EUR' },
        closingBalance: { amount: '3666.11', date: '2024-03-06', currency: 'EUR' },
        rows: { first: 1, last: 3 },
      },
      {
        id: 'STARTUMSE 00046/001',
        account,
        currency: 'EUR',
        periodStart: '2024-03-06',
        periodEnd: '2024-03-08',
        openingBalance: { amount: '3666.11', date: '2024-03-06', currency: 'EUR' },
        closingBalance: { amount: '3111.11', date: '2024-03-08', currency: 'EUR' },
        availableBalance: { amount: '3111.11', date: '2024-03-08', currency: 'EUR' },
        rows: { first: 4, last: 6 },
      },
    ]);
  });

  it('reads SWIFT blocks, the bank reference after // and the entry date across a year end', () => {
    const text = [
      '{1:F01DEUTDEFFXXXX0000000000}{2:I940DEUTDEFFXXXXN}{4:',
      ':20:DEUTDEFF',
      ':25:DEUTDEFF/DE89370400440532013000',
      ':28C:00001/001',
      ':60F:C241230EUR500,00',
      ':61:2412310102D20,00NMSCNONREF//DB0000000001',
      ':86:177?00SEPA-UEBERWEISUNG?20SVWZ+Spende?32Tierheim e.V.',
      // RC reverses a credit: money out.
      ':61:2501021231RC5,00NMSCNONREF//DB0000000002',
      ':86:159?00RUECKUEBERWEISUNG?32Versandhaus GmbH',
      ':62F:C250102EUR475,00',
      '-}{5:{CHK:123456789ABC}}',
    ].join('\r\n');
    const parsed = parseMt940(text, options);
    expect(parsed.fileErrors).toEqual([]);
    expect(table(parsed)).toEqual([
      ['2025-01-02', '20.00', 'Tierheim e.V.', 'Spende', 'DB0000000001'],
      ['2024-12-31', '5.00', 'Versandhaus GmbH', 'RUECKUEBERWEISUNG', 'DB0000000002'],
    ]);
    expect(parsed.statements![0].account).toEqual({ id: 'DE89370400440532013000', iban: 'DE89370400440532013000', bankId: 'DEUTDEFF' });
  });
});

describe('parseMt940: statements over several messages', () => {
  it('checks each message of a statement continued by :60M:/:62M: from its own opening to its own closing balance', () => {
    const part = (n: number, opening: string, closing: string, line: string) =>
      [':20:CONT', ':25:DE44500105175407324931', `:28C:7/${n}`, `:${n === 1 ? '60F' : '60M'}:${opening}`, line, ':86:Shop', `:${n === 2 ? '62F' : '62M'}:${closing}`, '-'].join('\n');
    const text = part(1, 'C240101EUR10,00', 'C240102EUR7,00', ':61:240102D3,00NMSCNONREF') + '\n' + part(2, 'C240102EUR7,00', 'D240103EUR2,00', ':61:240103D9,00NMSCNONREF');
    const parsed = parseMt940(text, options);
    expect([parsed.fileErrors, parsed.rows.map((r) => r.values.amount)]).toEqual([[], ['3.00', '9.00']]);
    expect(parsed.statements!.map((s) => [s.id, s.openingBalance!.amount, s.closingBalance!.amount, s.rows])).toEqual([
      ['CONT 7/1', '10.00', '7.00', { first: 1, last: 1 }],
      ['CONT 7/2', '7.00', '-2.00', { first: 2, last: 2 }],
    ]);
  });
});

describe('parseMt940: Dutch banks', () => {
  it('ING: /CNTP/ name, /REMI/USTD// text, the bank reference, the IBAN without its currency', () => {
    const parsed = parseMt940(ING, options);
    expect(parsed.fileErrors).toEqual([]);
    expect(table(parsed)).toEqual([
      ['2024-04-02', '35.50', 'Albert Heijn 1427 Amsterdam', 'Boodschappen week 14', '00040000123456'],
      ['2024-04-02', '-2750.00', 'Werkgever B.V.', 'Salaris maart 2024 personeelsnr 771', '00040000123457'],
      ['2024-04-03', '1095.00', 'Woonstichting De Linde', 'Huur april 2024 Lindelaan 3B', '00040000123458'],
    ]);
    // The statement's own :86: after its closing balance belongs to no entry.
    expect(parsed.statements).toEqual([
      {
        id: 'P240402000000001 00000',
        account: { id: 'NL69INGB0123456789', iban: 'NL69INGB0123456789' },
        currency: 'EUR',
        periodStart: '2024-04-01',
        periodEnd: '2024-04-03',
        openingBalance: { amount: '5000.00', date: '2024-04-01', currency: 'EUR' },
        closingBalance: { amount: '6619.50', date: '2024-04-03', currency: 'EUR' },
        availableBalance: { amount: '6619.50', date: '2024-04-03', currency: 'EUR' },
        rows: { first: 1, last: 3 },
      },
    ]);
  });

  it('ABN AMRO: header lines and :28:, /NAME/ and /REMI/, a free-text card payment; no bank reference, no external id', () => {
    const parsed = parseMt940(ABN_AMRO, options);
    expect(parsed.fileErrors).toEqual([]);
    expect(table(parsed)).toEqual([
      ['2024-04-02', '12.50', 'BEA NR:5XF2K1 02.04.24/14.02 ALBERT HEIJN 1427,PAS123', null, null],
      ['2024-04-03', '-1500.00', 'WERKGEVER BV', 'SALARIS APRIL 2024', null],
      ['2024-04-05', '89.95', 'Vodafone Libertel B.V.', 'Factuur 2024-04 klantnr 5551234', null],
    ]);
    expect(parsed.statements![0]).toMatchObject({ id: 'ABN AMRO BANK NV 13501/1', account: { id: '417164300' }, closingBalance: { amount: '2397.55', date: '2024-04-05' } });
  });

  it('Rabobank and Triodos: /ORDP//NAME/ and /BENM//NAME/ parties, /REMI/ as structured reference', () => {
    const text = statement(
      [
        ':61:240105C25,00NTRFNONREF//R1',
        ':86:/TRTP/SEPA OVERBOEKING/ORDP//NAME/J. de Vries/ADDR/Utrecht/REMI/USTD//Terugbetaling etentje/',
        ':61:240106D25,00NTRFNONREF//R2',
        ':86:/TRTP/SEPA OVERBOEKING/BENM//NAME/Belastingdienst/REMI/STRD/CUR/1234567890123456/',
      ],
      'C240101EUR100,00',
      'C240106EUR100,00',
    );
    expect(table(parseMt940(text, options))).toEqual([
      ['2024-01-05', '-25.00', 'J. de Vries', 'Terugbetaling etentje', 'R1'],
      ['2024-01-06', '25.00', 'Belastingdienst', '1234567890123456', 'R2'],
    ]);
  });
});

describe('parseMt940: what it refuses', () => {
  it('refuses a statement whose entries do not lead from the opening to the closing balance, naming both figures', () => {
    const altered = SPARKASSE.replace(':61:2403070307DR500,00', ':61:2403070307DR50,00');
    expect(parseMt940(altered, options)).toEqual({
      rows: [],
      errorCode: 'unbalanced_statement',
      fileErrors: [
        'Statement 2 (STARTUMSE 00046/001): the opening balance 3666.11 EUR on 2024-03-06 and the 3 booked entries (net -105.00) come to 3561.11, but the closing balance is 3111.11 EUR on 2024-03-08: the file is not the whole statement, or not as the bank wrote it',
      ],
    });
  });

  it('refuses text that is not MT940, an unreadable balance, several accounts, no entries, too many rows', () => {
    const notMt940 = 'The file is not an MT940 statement: it has no :20: or :61: fields (an MT940 file has lines such as :20:, :25:, :60F:, :61:, :86:, :62F:)';
    expect(parseMt940('Date,Amount\n2024-01-01,5\n', options)).toEqual({ rows: [], errorCode: 'invalid_mt940', fileErrors: [notMt940] });
    expect(parseMt940('<?xml version="1.0"?><Document/>', options).fileErrors).toEqual([notMt940]);
    expect(parseMt940(statement([], 'C2401EUR100'), options).fileErrors).toEqual([
      "Statement 1 (REF 1/1): :60F: 'C2401EUR100' on line 4 is not a balance (C or D, YYMMDD, currency, amount as 1234,56)",
    ]);
    const two = statement([':61:240102D1,00NMSCNONREF'], 'C240101EUR100,00', 'C240131EUR99,00') + '\n' + statement([':61:240102D1,00NMSCNONREF'], 'C240101EUR100,00', 'C240131EUR99,00', 'NL69INGB0123456789');
    expect(parseMt940(two, options).fileErrors).toEqual([
      "The MT940 file holds statements of 2 accounts ('DE44500105175407324931', 'NL69INGB0123456789'); export each account to its own file and import it into its account",
    ]);
    expect(parseMt940(statement([]), options).fileErrors).toEqual(['The MT940 file has no transactions (:61: lines)']);
    expect(parseMt940(SPARKASSE, { ...options, maxRows: 5 })).toEqual({ rows: [], errorCode: 'too_many_rows', fileErrors: ['The file has 6 rows; at most 5 can be stored for one import'] });
  });

  it('gives row errors for a :61: it cannot read or a date out of range, and then checks no balance', () => {
    const parsed = parseMt940(statement([':61:240230D1,00NMSCNONREF', ':61:2401X2D1,00NMSCNONREF', ':61:270102D1,00NMSCNONREF'], 'C240101EUR100,00', 'C240131EUR1,00'), options);
    expect(parsed.fileErrors).toEqual([]);
    expect(parsed.rows.map((r) => [r.values.date, r.values.amount, r.errors])).toEqual([
      [null, '1.00', ['Row 1 (line 5): the date 240230 (:61: value date YYMMDD, entry date MMDD) is not a date']],
      [null, null, ["Row 2 (line 6): :61: '2401X2D1,00NMSCNONREF' is not a statement line (YYMMDD value date, MMDD entry date, C/D/RC/RD, amount as 12,34, type, references)"]],
      ['2027-01-02', '1.00', ['Row 3 (line 7): date 2027-01-02 must be between 1996-11-22 and 2026-11-22']],
    ]);
  });

  it('reads many entries in one pass: 10,000 :61: lines give 10,000 rows and balance', () => {
    const lines = Array.from({ length: 10_000 }, (_, k) => [`:61:240102D1,25NMSCNONREF//R${k}`, ':86:Shop'].join('\n')).flat();
    const parsed = parseMt940(statement(lines, 'C240101EUR20000,00', 'C240102EUR7500,00'), { ...options, maxRows: 100_000 });
    expect([parsed.fileErrors, parsed.rows.length, parsed.rows.at(-1)!.values.external_id]).toEqual([[], 10_000, 'R9999']);
  });
});

/** The genuine export files of other apps, beside the repository (../shared/realworld), when this machine has them. */
const REALWORLD = (() => {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'shared/realworld/expected.json'))) return join(dir, 'shared/realworld');
  }
  return null;
})();
const ACTUAL_STA = REALWORLD && join(REALWORLD, 'unsupported/actual-data.sta');

(ACTUAL_STA && existsSync(ACTUAL_STA) ? describe : describe.skip)('parseMt940: the genuine MT940 file of Actual Budget (shared/realworld)', () => {
  it('gives its six entries, 1500.00 + 996.71 = 2496.71, with Dutch, German and free-text details', () => {
    const parsed = parseMt940(readFileSync(ACTUAL_STA!, 'utf8'), options);
    expect(parsed.fileErrors).toEqual([]);
    expect(table(parsed)).toEqual([
      ['2025-08-01', '42.50', "Boulangerie L'Étoile", 'Facture 2025-0042', 'BANKREF001'],
      ['2025-08-02', '-1200.00', 'Employeur Acme SARL', 'Salaire août 2025', 'BANKREF002'],
      ['2025-08-03', '89.99', 'MÜLLER GMBH', 'Rechnung 4711', 'BANKREF003'],
      ['2025-08-04', '15.00', 'RETRAIT GUICHET AUTOMATIQUE', null, 'BANKREF004'],
      ['2025-08-05', '24.80', 'A44?Librairie Gibert Joseph', 'Virement en ligne', 'BANKREF005'],
      // The :61: line's supplementary details (its second line) are the notes when :86: has none.
      ['2025-08-06', '31.00', 'B32?TREMBLAY, MARIE Paiement mobile', 'Paiement mobile', 'BANKREF006'],
    ]);
    expect(parsed.rows.every((r) => r.errors.length === 0 && r.values.currency === 'EUR')).toBe(true);
    // The file's own figures: six entries, 1200.00 in and 203.29 out.
    const sumMilli = parsed.rows.reduce((sum, r) => sum - Math.round(Number(r.values.amount) * 1000), 0);
    expect(sumMilli).toBe(996_710);
    expect(parsed.statements).toEqual([
      {
        id: 'STATEMENT001 00001/001',
        account: { id: 'FR7630006000011234567890189', iban: 'FR7630006000011234567890189' },
        currency: 'EUR',
        periodStart: '2025-08-01',
        periodEnd: '2025-08-06',
        openingBalance: { amount: '1500.00', date: '2025-08-01', currency: 'EUR' },
        closingBalance: { amount: '2496.71', date: '2025-08-06', currency: 'EUR' },
        rows: { first: 1, last: 6 },
      },
    ]);
  });
});
