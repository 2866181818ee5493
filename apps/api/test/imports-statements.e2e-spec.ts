import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { budgetSpending, createImport, newAccount, publishAndWait, revertAndWait, waitForImport } from './support/imports';
import { scannedPdf, statementPdf, wordByWordStatementPdf } from './support/statement-pdfs';
import { Household, startTestApp, TestApp } from './support/test-app';

// Statement formats that publish into one account: QIF files (and PDF statements).

const QIF = readFileSync(join(__dirname, '../../../libs/domain/import-formats/fixtures/checking.qif'), 'utf8');

describe('imports: QIF', () => {
  let t: TestApp;
  let h: Household;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestApp();
    h = await t.newHousehold();
    accountId = await newAccount(t, h);
  });
  afterAll(() => t.close());

  /** Each split transaction of the family: its total, whether it is excluded, and its parts' amounts. */
  const splits = () =>
    t.dataSource.query(
      `SELECT e.amount_minor::int AS amount, e.excluded, array_agg(c.amount_minor::int ORDER BY c.amount_minor DESC) AS parts
         FROM entries e JOIN entries c ON c.parent_entry_id = e.id WHERE e.family_id = $1 GROUP BY e.id ORDER BY e.date, e.id`,
      [h.familyId],
    );

  const ledger = () =>
    t.dataSource.query(
      `SELECT e.date::text AS date, e.entryable_type AS type, e.name, e.amount_minor::int AS amount, t.kind, c.name AS category, p.name AS parent,
              (SELECT string_agg(g.name, '|' ORDER BY g.name) FROM taggings tg JOIN tags g ON g.id = tg.tag_id WHERE tg.entry_id = e.id) AS tags
         FROM entries e LEFT JOIN transactions t ON t.entry_id = e.id
         LEFT JOIN categories c ON c.id = t.category_id LEFT JOIN categories p ON p.id = c.parent_id
        WHERE e.family_id = $1 ORDER BY e.date, e.amount_minor`,
      [h.familyId],
    );

  it('publishes a bank QIF into its account (splits, transfers, classes, opening balance), dedups a re-import and reverts', async () => {
    const created = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: QIF, account_id: accountId, publish: 'true' }).expect(201);
    expect(created.body.data).toMatchObject({ type: 'QifImport', status: 'importing', stats: { rows_count: 7, valid_rows_count: 7 } });
    expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
    const expected = [
      { date: '2023-12-31', type: 'Valuation', name: 'Opening balance', amount: 100000, kind: null, category: null, parent: null, tags: null },
      { date: '2024-01-02', type: 'Transaction', name: 'Rent Co', amount: 123456, kind: 'standard', category: 'Rent', parent: 'Housing', tags: 'fixed|home' },
      { date: '2024-01-15', type: 'Transaction', name: 'Employer', amount: -250000, kind: 'standard', category: 'Income', parent: null, tags: null },
      { date: '2024-01-20', type: 'Transaction', name: 'Transfer', amount: 30000, kind: 'funds_movement', category: null, parent: null, tags: null },
      { date: '2024-01-25', type: 'Transaction', name: 'Costco', amount: 4000, kind: 'standard', category: 'Household', parent: null, tags: null },
      { date: '2024-01-25', type: 'Transaction', name: 'Costco', amount: 6000, kind: 'standard', category: 'Groceries', parent: 'Food', tags: null },
      { date: '2024-01-25', type: 'Transaction', name: 'Costco', amount: 10000, kind: 'standard', category: null, parent: null, tags: null },
    ];
    expect(await ledger()).toEqual(expected);
    // The split is one transaction of its total, excluded (as an Actual split's parent is), with its parts under it.
    expect(await splits()).toEqual([{ amount: 10000, excluded: true, parts: [6000, 4000] }]);
    // Budgets count each part in its category and the purchase once (rent 1,234.56 and Costco 100.00; the transfer is left out).
    expect(await budgetSpending(t, h, '2024-01-01', ['Groceries', 'Household', 'Food'])).toEqual({ total: 133456, byCategory: [6000, 4000, 6000] });
    // The account's balance: the opening 1,000.00, less rent, the transfer and Costco once, plus pay.
    const balance = async () => (await request(t.server).get(`/api/v1/accounts/${accountId}`).set('X-Api-Key', h.apiKey).expect(200)).body.balance_cents;
    expect(await balance()).toBe(100000 - 123456 + 250000 - 30000 - 10000);

    const again = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: QIF, account_id: accountId, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, again.body.data.id)).status).toBe('complete');
    const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM entries WHERE import_id = $1 AND entryable_type = 'Transaction'`, [again.body.data.id]);
    expect(count).toBe(0);
    expect(await splits()).toEqual([{ amount: 10000, excluded: true, parts: [6000, 4000] }]);
    expect(await balance()).toBe(186544);

    await request(t.server).post(`/api/v1/imports/${again.body.data.id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await revertAndWait(t, h, created.body.data.id)).status).toBe('pending');
    expect(await ledger()).toEqual([]);
    expect(await balance()).toBe(0);
  });

  it('re-imports a split made otherwise without adding to it: each row names what it matched, the left-out parts their split transaction', async () => {
    const first = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: QIF, account_id: accountId });
    // The same purchase, its 40.00 now split in two: the transaction already has its parts, so those two add nothing.
    const resplit = QIF.replace('SHousehold\n$-40.00\n', 'SHousehold\n$-25.00\nSGifts\n$-15.00\n');
    expect(resplit).not.toBe(QIF);
    const again = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: resplit, account_id: accountId });
    expect([first.status, again.status]).toEqual(['complete', 'complete']);
    expect(await splits()).toEqual([{ amount: 10000, excluded: true, parts: [6000, 4000] }]);
    const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM entries WHERE import_id = $1`, [again.id]);
    expect(count).toBe(0);

    const costco = async () => {
      const [parent] = await t.dataSource.query(`SELECT id FROM entries WHERE family_id = $1 AND name = 'Costco' AND parent_entry_id IS NULL`, [h.familyId]);
      const [part] = await t.dataSource.query(`SELECT id FROM entries WHERE parent_entry_id = $1 AND amount_minor = 6000`, [parent.id]);
      return { parent: parent.id as string, part: part.id as string };
    };
    const { parent, part } = await costco();
    const rows = (await request(t.server).get(`/api/v1/imports/${again.id}/rows?per_page=100`).set('X-Api-Key', h.apiKey).expect(200)).body.data;
    const costcoRows = rows
      .filter((r: { fields: { name?: string } }) => r.fields.name === 'Costco')
      .map((r: { fields: { amount: string }; duplicate_of: string | null }) => ({ amount: r.fields.amount, duplicate_of: r.duplicate_of }));
    expect(costcoRows).toEqual([
      { amount: '100.00', duplicate_of: parent },
      { amount: '60.00', duplicate_of: part },
      { amount: '25.00', duplicate_of: parent },
      { amount: '15.00', duplicate_of: parent },
    ]);
    const rent = rows.find((r: { fields: { name?: string } }) => r.fields.name === 'Rent Co');
    const [{ id: rentId }] = await t.dataSource.query(`SELECT id FROM entries WHERE family_id = $1 AND name = 'Rent Co'`, [h.familyId]);
    expect(rent.duplicate_of).toBe(rentId);
    // Before publishing, and after a revert, no row has matched anything.
    const created = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: resplit, account_id: accountId }).expect(201);
    const unpublished = (await request(t.server).get(`/api/v1/imports/${created.body.data.id}/rows`).set('X-Api-Key', h.apiKey).expect(200)).body.data;
    expect(unpublished.map((r: { duplicate_of: string | null }) => r.duplicate_of)).toEqual(unpublished.map(() => null));

    expect((await revertAndWait(t, h, again.id)).status).toBe('pending');
    const reverted = (await request(t.server).get(`/api/v1/imports/${again.id}/rows?per_page=100`).set('X-Api-Key', h.apiKey).expect(200)).body.data;
    expect(reverted.filter((r: { duplicate_of: string | null }) => r.duplicate_of !== null)).toEqual([]);
    expect(await splits()).toEqual([{ amount: 10000, excluded: true, parts: [6000, 4000] }]);
    expect((await revertAndWait(t, h, first.id)).status).toBe('pending');
    expect(await ledger()).toEqual([]);
  });

  it("lets a bank line of a QIF split's total claim its parent, either way round, never a part", async () => {
    const bank = (amount: string) => ({ raw_file_content: `date,amount,name\n2024-01-25,${amount},Costco`, account_id: accountId, date_col_label: 'date', amount_col_label: 'amount' });
    const claims = () =>
      t.dataSource.query(
        `SELECT i.type, e.amount_minor::int AS amount FROM import_rows r JOIN imports i ON i.id = r.import_id JOIN entries e ON e.id = r.duplicate_of
          WHERE e.family_id = $1 AND e.entryable_type = 'Transaction' ORDER BY i.created_at, r.source_row_number`,
        [h.familyId],
      );
    const costco = () => t.dataSource.query(`SELECT count(*)::int AS count FROM entries WHERE family_id = $1 AND name = 'Costco'`, [h.familyId]);

    // The QIF first: the bank's 100.00 is the split's parent; its 60.00 is a purchase of its own (a part is no bank line).
    const qif = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: QIF, account_id: accountId });
    const whole = await publishAndWait(t, h, bank('-100.00'));
    const part = await publishAndWait(t, h, bank('-60.00'));
    expect([qif.status, whole.status, part.status]).toEqual(['complete', 'complete', 'complete']);
    expect(await claims()).toEqual([{ type: 'TransactionImport', amount: 10000 }]);
    expect(await costco()).toEqual([{ count: 4 }]);
    expect(await splits()).toEqual([{ amount: 10000, excluded: true, parts: [6000, 4000] }]);
    for (const id of [part.id, whole.id, qif.id]) expect((await revertAndWait(t, h, id)).status).toBe('pending');
    expect(await ledger()).toEqual([]);

    // The bank line first: the QIF's total claims it, and the QIF's parts split it, counted once.
    const line = await publishAndWait(t, h, bank('-100.00'));
    const split = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: QIF, account_id: accountId });
    expect([line.status, split.status]).toEqual(['complete', 'complete']);
    expect(await claims()).toEqual([{ type: 'QifImport', amount: 10000 }]);
    expect(await costco()).toEqual([{ count: 3 }]);
    expect(await splits()).toEqual([{ amount: 10000, excluded: true, parts: [6000, 4000] }]);
    // Reverting the QIF takes its parts and leaves the bank line as it was, counted again.
    expect((await revertAndWait(t, h, split.id)).status).toBe('pending');
    expect(await t.dataSource.query(`SELECT amount_minor::int AS amount, excluded, import_id FROM entries WHERE family_id = $1`, [h.familyId])).toEqual([
      { amount: 10000, excluded: false, import_id: line.id },
    ]);
    expect((await revertAndWait(t, h, line.id)).status).toBe('pending');
    expect(await ledger()).toEqual([]);
  });

  it('needs an account to publish, and refuses text that is not QIF', async () => {
    const stored = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: QIF, publish: 'true' }).expect(422);
    expect(stored.body).toMatchObject({ error: 'not_publishable', import_id: expect.any(String), errors: expect.arrayContaining(['account_id is required for this import type']) });
    const refused = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: 'Date,Amount\n2024-01-01,1', account_id: accountId });
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 422, error: 'invalid_qif' });
  });

  it('reports a security whose name is longer than a ticker as a row error instead of failing the publish', async () => {
    const name = 'Vanguard Total Stock Market Index Fund Admiral Shares';
    const qif = `!Type:Invst\nD03/01/2024\nNBuy\nY${name}\nI100\nQ10\nT1000\n^\n`;
    const res = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: accountId, publish: 'true' }).expect(422);
    expect(res.body).toMatchObject({
      error: 'not_publishable',
      errors: ['1 rows are invalid', expect.stringMatching(/^Row 1 \(line 2\): security 'VANGUARD TOTAL STOCK MARKET INDEX FUND A…' is too long: tickers can have at most 30 characters/)],
    });
    expect(await ledger()).toEqual([]);
    // Listed with its ticker, the same trade publishes.
    const listed = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: `!Type:Security\nN${name}\nSVTSAX\n^\n${qif}`, account_id: accountId, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, listed.body.data.id)).status).toBe('complete');
    expect(await ledger()).toEqual([expect.objectContaining({ type: 'Trade', name: 'Buy 10 VTSAX', amount: 100000 })]);
    expect((await revertAndWait(t, h, listed.body.data.id)).status).toBe('pending');
  });

  it('signs QIF trades by their action whatever signage_convention the import was given', async () => {
    const qif = '!Type:Invst\nD03/01/2024\nNBuy\nYAAPL\nI100\nQ10\nT1000\n^\nD03/02/2024\nNSell\nYAAPL\nI110\nQ2\nT220\n^\nD03/03/2024\nNDiv\nYAAPL\nT5\n^\n';
    const created = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: accountId, signage_convention: 'inflows_negative', publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
    expect((await ledger()).map(({ type, name, amount }: { type: string; name: string; amount: number }) => ({ type, name, amount }))).toEqual([
      { type: 'Trade', name: 'Buy 10 AAPL', amount: 100000 },
      { type: 'Trade', name: 'Sell 2 AAPL', amount: -22000 },
      { type: 'Transaction', name: 'Dividend: AAPL', amount: -500 },
    ]);
    expect((await revertAndWait(t, h, created.body.data.id)).status).toBe('pending');
    expect(await ledger()).toEqual([]);
  });

  it("books a QIF trade at the cash its total (T) states, commission included, and at qty x price without one", async () => {
    const qif = [
      '!Type:Invst',
      'D03/01/2024', 'NBuy', 'YAAPL', 'I100', 'Q10', 'T1009.95', 'O9.95', '^',
      'D03/02/2024', 'NSell', 'YAAPL', 'I110', 'Q2', 'T210.05', 'O9.95', '^',
      'D03/03/2024', 'NBuy', 'YAAPL', 'I50', 'Q3', '^',
      '',
    ].join('\n');
    const created = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: accountId, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
    expect((await ledger()).map(({ name, amount }: { name: string; amount: number }) => ({ name, amount }))).toEqual([
      { name: 'Buy 10 AAPL', amount: 100995 },
      { name: 'Sell 2 AAPL', amount: -21005 },
      { name: 'Buy 3 AAPL', amount: 15000 },
    ]);
    expect((await revertAndWait(t, h, created.body.data.id)).status).toBe('pending');
    expect(await ledger()).toEqual([]);
  });

  it('publishes a QIF ReinvDiv as the buy and the dividend that paid for it, which leave the cash as it was', async () => {
    const qif = '!Type:Invst\nD03/01/2024\nNReinvDiv\nYAAPL\nI150\nQ0.5\nT75.00\n^\n';
    const created = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: accountId, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
    expect((await ledger()).map(({ type, name, amount }: { type: string; name: string; amount: number }) => ({ type, name, amount }))).toEqual([
      { type: 'Transaction', name: 'Dividend: AAPL', amount: -7500 },
      { type: 'Trade', name: 'Buy 0.5 AAPL', amount: 7500 },
    ]);
    expect((await revertAndWait(t, h, created.body.data.id)).status).toBe('pending');
    expect(await ledger()).toEqual([]);
  });

  it("publishes QIF X forms as their action and the transfer from or to the account named, leaving the account's cash as it was", async () => {
    const qif = '!Type:Invst\nD03/01/2024\nNBuyX\nYAAPL\nI150\nQ2\nT300.00\nL[Checking]\n$300.00\n^\nD03/02/2024\nNDivX\nYAAPL\nT2.40\nL[Checking]\n$2.40\n^\n';
    const created = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: accountId, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
    expect((await ledger()).map(({ type, name, amount, kind }: { type: string; name: string; amount: number; kind: string | null }) => ({ type, name, amount, kind }))).toEqual([
      { type: 'Transaction', name: 'Cash Transfer In', amount: -30000, kind: 'funds_movement' },
      { type: 'Trade', name: 'Buy 2 AAPL', amount: 30000, kind: null },
      { type: 'Transaction', name: 'Dividend: AAPL', amount: -240, kind: 'standard' },
      { type: 'Transaction', name: 'Cash Transfer Out', amount: 240, kind: 'funds_movement' },
    ]);
    expect((await revertAndWait(t, h, created.body.data.id)).status).toBe('pending');
    expect(await ledger()).toEqual([]);
  });

  it('publishes QIF ShrsIn and ShrsOut as trades of no cash at their cost per share, labelled Transfer', async () => {
    const qif = '!Type:Invst\nD03/01/2024\nNShrsIn\nYAAPL\nI150\nQ10\n^\nD03/02/2024\nNShrsOut\nYAAPL\nQ4\nT600\n^\n';
    const created = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: accountId, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
    const trades = await t.dataSource.query(
      `SELECT e.name, e.amount_minor::int AS amount, tr.qty::text AS qty, tr.price::float AS price, tr.fee_minor::int AS fee, tr.investment_activity_label AS label
         FROM entries e JOIN trades tr ON tr.entry_id = e.id WHERE e.family_id = $1 ORDER BY e.date`,
      [h.familyId],
    );
    expect(trades).toEqual([
      { name: 'Shares in 10 AAPL', amount: 0, qty: expect.stringMatching(/^10(\.0+)?$/), price: 150, fee: 0, label: 'Transfer' },
      { name: 'Shares out 4 AAPL', amount: 0, qty: expect.stringMatching(/^-4(\.0+)?$/), price: 150, fee: 0, label: 'Transfer' },
    ]);
    expect((await revertAndWait(t, h, created.body.data.id)).status).toBe('pending');
    expect(await ledger()).toEqual([]);
  });

  it('publishes a QIF StkSplit as a trade of the shares it adds or removes at no cost, the same again on re-import', async () => {
    const qif = [
      '!Type:Invst',
      'D03/01/2024\nNBuy\nYAAPL\nI100\nQ10\nT1000\n^',
      'D03/02/2024\nNBuy\nYAAPL\nI110\nQ5\nT550\n^',
      'D03/05/2024\nNStkSplit\nYAAPL\nQ20\n^',
      'D03/06/2024\nNSell\nYAAPL\nI60\nQ6\nT360\n^',
      'D03/09/2024\nNStkSplit\nYAAPL\nQ5\n^',
      // Not held: the split adds nothing.
      'D03/10/2024\nNStkSplit\nYVTI\nQ20\n^',
      '',
    ].join('\n');
    const body = { type: 'QifImport', raw_file_content: qif, account_id: accountId, publish: 'true' };
    const trades = () =>
      t.dataSource.query(
        `SELECT e.date::text AS date, e.name, e.amount_minor::int AS amount, tr.qty::float AS qty, tr.price::float AS price, tr.investment_activity_label AS label
           FROM entries e JOIN trades tr ON tr.entry_id = e.id WHERE e.family_id = $1 ORDER BY e.date`,
        [h.familyId],
      );
    const first = (await createImport(t.server, h.apiKey, body).expect(201)).body.data.id;
    expect((await waitForImport(t.server, h.apiKey, first)).status).toBe('complete');
    const published = [
      { date: '2024-03-01', name: 'Buy 10 AAPL', amount: 100000, qty: 10, price: 100, label: 'Buy' },
      { date: '2024-03-02', name: 'Buy 5 AAPL', amount: 55000, qty: 5, price: 110, label: 'Buy' },
      // 15 held, 2 for 1: 15 more.
      { date: '2024-03-05', name: 'Split 2 for 1 AAPL', amount: 0, qty: 15, price: 0, label: 'Other' },
      { date: '2024-03-06', name: 'Sell 6 AAPL', amount: -36000, qty: -6, price: 60, label: 'Sell' },
      // 24 held, 1 for 2: 12 fewer.
      { date: '2024-03-09', name: 'Split 0.5 for 1 AAPL', amount: 0, qty: -12, price: 0, label: 'Other' },
    ];
    expect(await trades()).toEqual(published);

    // A buy from another file before the first split; then the file again: each trade is found and claimed, the
    // splits too, though the holding before them has changed since.
    const extra = (await createImport(t.server, h.apiKey, { ...body, raw_file_content: '!Type:Invst\nD03/03/2024\nNBuy\nYAAPL\nI100\nQ1\nT100\n^\n' }).expect(201)).body.data.id;
    expect((await waitForImport(t.server, h.apiKey, extra)).status).toBe('complete');
    const second = (await createImport(t.server, h.apiKey, body).expect(201)).body.data.id;
    expect((await waitForImport(t.server, h.apiKey, second)).status).toBe('complete');
    const withExtra = [...published.slice(0, 2), { date: '2024-03-03', name: 'Buy 1 AAPL', amount: 10000, qty: 1, price: 100, label: 'Buy' }, ...published.slice(2)];
    expect(await trades()).toEqual(withExtra);
    const [{ claims }] = await t.dataSource.query(`SELECT count(*)::int AS claims FROM import_rows WHERE import_id = $1 AND duplicate_of IS NOT NULL`, [second]);
    expect(claims).toBe(5);

    expect((await revertAndWait(t, h, second)).status).toBe('pending');
    expect((await revertAndWait(t, h, extra)).status).toBe('pending');
    expect((await revertAndWait(t, h, first)).status).toBe('pending');
    expect(await ledger()).toEqual([]);
  });

  it('refuses a QIF trade at a negative price (I) as a row error, storing nothing', async () => {
    const qif = '!Type:Invst\nD03/01/2024\nNBuy\nYAAPL\nI-100\nQ10\nT1000\n^\n';
    const res = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: accountId, publish: 'true' }).expect(422);
    expect(res.body).toMatchObject({ error: 'not_publishable', errors: ['1 rows are invalid', "Row 1 (line 2): price '-100' must not be negative"] });
    expect(await ledger()).toEqual([]);
  });

  it("stores a QIF trade's commission (O) as its fee in minor units of the trade's currency, 0 without one", async () => {
    const yen = await newAccount(t, h, 'Yen brokerage', 'JPY');
    const fees = (id: string) =>
      t.dataSource.query(
        `SELECT e.name, e.amount_minor::int AS amount, tr.fee_minor::int AS fee, tr.currency FROM trades tr JOIN entries e ON e.id = tr.entry_id WHERE e.import_id = $1 ORDER BY e.date`,
        [id],
      );
    const qif = [
      '!Type:Invst',
      'D03/01/2024', 'NBuy', 'YAAPL', 'I100', 'Q10', 'T1009.95', 'O9.95', '^',
      'D03/02/2024', 'NSell', 'YAAPL', 'I110', 'Q2', 'T210.05', 'O9.95', '^',
      'D03/03/2024', 'NBuy', 'YAAPL', 'I50', 'Q3', '^',
      '',
    ].join('\n');
    const usd = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: accountId, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, usd.body.data.id)).status).toBe('complete');
    expect(await fees(usd.body.data.id)).toEqual([
      { name: 'Buy 10 AAPL', amount: 100995, fee: 995, currency: 'USD' },
      { name: 'Sell 2 AAPL', amount: -21005, fee: 995, currency: 'USD' },
      { name: 'Buy 3 AAPL', amount: 15000, fee: 0, currency: 'USD' },
    ]);
    const jpy = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: '!Type:Invst\nD03/04/2024\nNBuy\nY7203\nI3000\nQ100\nT300500\nO500\n^\n', account_id: yen, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, jpy.body.data.id)).status).toBe('complete');
    expect(await fees(jpy.body.data.id)).toEqual([{ name: 'Buy 100 7203', amount: 300500, fee: 500, currency: 'JPY' }]);

    const invalid = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: '!Type:Invst\nD03/05/2024\nNBuy\nYAAPL\nI100\nQ1\nT110\nOten\n^\n', account_id: accountId, publish: 'true' }).expect(422);
    expect(invalid.body).toMatchObject({ error: 'not_publishable', errors: ['1 rows are invalid', "Row 1 (line 2): commission 'ten' is not a number"] });

    for (const id of [usd.body.data.id, jpy.body.data.id]) {
      await request(t.server).post(`/api/v1/imports/${id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('pending');
    }
    expect(await ledger()).toEqual([]);
  });

  it("refuses a QIF total and commission finer than the currency's minor unit as row errors: nothing is stored or published", async () => {
    const qif = '!Type:Invst\nD03/01/2024\nNBuy\nYAAPL\nI100\nQ10\nT1001.005\nO1.005\n^\n';
    const res = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: accountId, publish: 'true' }).expect(422);
    const error = [
      "Row 1 (line 2): amount (T) '1001.005' is finer than the USD minor unit: USD amounts have 2 decimals",
      "Row 1 (line 2): commission '1.005' is finer than the USD minor unit: USD amounts have 2 decimals",
    ];
    expect(res.body).toMatchObject({ error: 'not_publishable', import_id: expect.any(String), errors: ['1 rows are invalid', ...error] });
    const detail = await waitForImport(t.server, h.apiKey, res.body.import_id);
    expect(detail).toMatchObject({ status: 'pending', stats: { rows_count: 1, valid_rows_count: 0, invalid_rows_count: 1 } });
    const rows = await request(t.server).get(`/api/v1/imports/${res.body.import_id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
    expect(rows.body.data.map((r: { errors: string[] }) => r.errors)).toEqual([error]);
    const [{ trades }] = await t.dataSource.query(`SELECT count(*)::int AS trades FROM trades tr JOIN entries e ON e.id = tr.entry_id WHERE e.family_id = $1`, [h.familyId]);
    expect(trades).toBe(0);
    expect(await ledger()).toEqual([]);
  });

  it('refuses a QIF file holding transactions of several accounts instead of filing them all in the one account', async () => {
    const qif = '!Account\nNChecking\nTBank\n^\n!Type:Bank\nD01/05/2024\nT-10\nPShop\n^\n!Account\nNVisa\nTCCard\n^\n!Type:CCard\nD01/06/2024\nT-20\nPCafe\n^\n';
    const imports = () => t.dataSource.query(`SELECT id FROM imports WHERE family_id = $1 ORDER BY id`, [h.familyId]);
    const before = await imports();
    const res = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: accountId, publish: 'true' }).expect(422);
    expect(res.body).toMatchObject({ error: 'invalid_qif', message: expect.stringContaining("transactions of 2 accounts ('Checking', 'Visa')") });
    expect(await imports()).toEqual(before);
    expect(await ledger()).toEqual([]);
  });

  it('publishes cash moved in or out of an investment account from another one as a transfer, which budgets leave out', async () => {
    const qif = '!Type:Invst\nD03/01/2024\nNXIn\nT1000\nL[Checking]\n^\nD03/03/2024\nNDiv\nYAAPL\nT5\n^\n';
    const created = await createImport(t.server, h.apiKey, { type: 'QifImport', raw_file_content: qif, account_id: accountId, publish: 'true' }).expect(201);
    expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
    expect((await ledger()).map(({ name, amount, kind }: { name: string; amount: number; kind: string }) => ({ name, amount, kind }))).toEqual([
      { name: 'Cash Transfer In', amount: -100000, kind: 'funds_movement' },
      { name: 'Dividend: AAPL', amount: -500, kind: 'standard' },
    ]);
    expect((await revertAndWait(t, h, created.body.data.id)).status).toBe('pending');
    expect(await ledger()).toEqual([]);
  });

  it('accepts a .qif upload', async () => {
    const res = await request(t.server)
      .post('/api/v1/imports')
      .set('X-Api-Key', h.apiKey)
      .field('type', 'QifImport')
      .field('account_id', accountId)
      .attach('file', Buffer.from(QIF), { filename: 'checking.qif', contentType: 'application/octet-stream' })
      .expect(201);
    expect(res.body.data.stats.rows_count).toBe(7);
  });
});

describe('imports: PDF statements', () => {
  let t: TestApp;
  let h: Household;
  let accountId: string;

  beforeAll(async () => {
    t = await startTestApp();
    h = await t.newHousehold({ currency: 'EUR' });
    const [row] = await t.dataSource.query(
      `INSERT INTO accounts (family_id, name, accountable_type, classification, currency) VALUES ($1, 'Giro', 'Depository', 'asset', 'EUR') RETURNING id`,
      [h.familyId],
    );
    accountId = row.id;
  });
  afterAll(() => t.close());

  const uploadPdf = (bytes: Buffer, name = 'statement.pdf', fields: Record<string, string> = {}) => {
    let req = request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey).field('type', 'PdfImport').field('account_id', accountId);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return req.attach('file', bytes, { filename: name, contentType: 'application/pdf' });
  };
  const rowsOf = async (id: string) =>
    (await request(t.server).get(`/api/v1/imports/${id}/rows?per_page=100`).set('X-Api-Key', h.apiKey).expect(200)).body.data.map(
      (r: { fields: Record<string, unknown>; valid: boolean }) => [r.fields.date, r.fields.name, r.fields.amount, r.valid],
    );

  it('reads a debit/credit/balance statement over two pages into rows to review, then publishes them', async () => {
    // A running balance that follows from the rows, printed as German banks print figures.
    let balanceCents = 100_000;
    const rows = Array.from({ length: 45 }, (_, i) => {
      const day = String((i % 28) + 1).padStart(2, '0');
      balanceCents += i % 5 === 0 ? 250_000 : -(i * 100 + 50);
      const balance = (balanceCents / 100).toLocaleString('de-DE', { minimumFractionDigits: 2 });
      return i % 5 === 0 ? [`${day}/01/2024`, `Salary ${i}`, '', '2.500,00', balance] : [`${day}/01/2024`, `Shop ${i}`, `${i},50`, '', balance];
    });
    // Column names that say neither money out from in nor which is the balance, without a balance to tell them: refused
    // clearly rather than guessed.
    const unknown = await statementPdf({ title: 'Taarifa', headers: ['Tarehe', 'Maelezo', 'Kutoa', 'Kuweka'], columns: [40, 110, 330, 400], rows: rows.map((r) => r.slice(0, 4)) });
    const refused = await uploadPdf(unknown);
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 422, error: 'unsupported_pdf' });
    expect(refused.body.message).toContain("'Kutoa', 'Kuweka' could not be told apart");
    const german = await statementPdf({ title: 'Hausbank Kontoauszug', headers: ['Datum', 'Buchungstext', 'Soll', 'Haben', 'Saldo'], columns: [40, 110, 330, 400, 480], rows });
    const germanImport = await uploadPdf(german).expect(201);
    expect(germanImport.body.data).toMatchObject({ stats: { rows_count: 45, valid_rows_count: 45 } });

    const english = await statementPdf({ title: 'Acme Bank statement', headers: ['Date', 'Description', 'Debit', 'Credit', 'Balance'], columns: [40, 110, 330, 400, 480], rows });
    const created = await uploadPdf(english).expect(201);
    expect(created.body.data).toMatchObject({ type: 'PdfImport', status: 'pending', stats: { rows_count: 45, valid_rows_count: 45 } });
    const read = await rowsOf(created.body.data.id);
    expect(read.slice(0, 2)).toEqual([
      ['2024-01-01', 'Salary 0', '-2500.00', true],
      ['2024-01-02', 'Shop 1', '1.50', true],
    ]);
    expect(read[44]).toEqual(['2024-01-17', 'Shop 44', '44.50', true]);

    await request(t.server).post(`/api/v1/imports/${created.body.data.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
    const [{ count, total }] = await t.dataSource.query(
      `SELECT count(*)::int AS count, sum(amount_minor)::int AS total FROM entries WHERE import_id = $1 AND account_id = $2`,
      [created.body.data.id, accountId],
    );
    const expectedTotal = rows.reduce((sum, r) => sum + (r[3] ? -250000 : Math.round(Number(r[2].replace(',', '.')) * 100)), 0);
    expect({ count, total }).toEqual({ count: 45, total: expectedTotal });
  });

  it('keeps every line of a description wrapped over three or more lines, in the row and in the published entry', async () => {
    const pdf = await statementPdf({
      title: 'Acme Bank statement',
      headers: ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
      columns: [40, 110, 330, 400, 480],
      rows: [
        ['13/02/2024', 'Card payment', '45.99', '', '954.01'],
        ['', 'ACME SUPERSTORE', '', '', ''],
        ['', 'LONDON GB', '', '', ''],
        ['', 'REF 0042', '', '', ''],
        ['14/02/2024', 'Rent', '1,200.00', '', '-245.99'],
      ],
    });
    const created = await uploadPdf(pdf).expect(201);
    expect(await rowsOf(created.body.data.id)).toEqual([
      ['2024-02-13', 'Card payment ACME SUPERSTORE LONDON GB REF 0042', '45.99', true],
      ['2024-02-14', 'Rent', '1200.00', true],
    ]);
    await request(t.server).post(`/api/v1/imports/${created.body.data.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
    expect(await t.dataSource.query(`SELECT name, amount_minor::int AS amount FROM entries WHERE import_id = $1 ORDER BY date`, [created.body.data.id])).toEqual([
      { name: 'Card payment ACME SUPERSTORE LONDON GB REF 0042', amount: 4599 },
      { name: 'Rent', amount: 120000 },
    ]);
    expect((await revertAndWait(t, h, created.body.data.id)).status).toBe('pending');
  });

  it('keeps a description that continues at the top of the next page, under the repeated header', async () => {
    // 40 rows fit a page: the 40th transaction's second line is the first line of page 2.
    const rows = Array.from({ length: 40 }, (_, i) => [`${String((i % 28) + 1).padStart(2, '0')}/03/2024`, `Shop ${i}`, '1.00', '', '']);
    rows[39] = ['29/03/2024', 'Card payment', '45.99', '', ''];
    rows.push(['', 'ACME SUPERSTORE LONDON', '', '', ''], ['30/03/2024', 'Rent', '1,200.00', '', '']);
    const pdf = await statementPdf({ title: 'Acme Bank statement', headers: ['Date', 'Description', 'Debit', 'Credit', 'Balance'], columns: [40, 110, 330, 400, 480], rows });
    const created = await uploadPdf(pdf).expect(201);
    expect(created.body.data.stats).toMatchObject({ rows_count: 41, valid_rows_count: 41 });
    expect((await rowsOf(created.body.data.id)).slice(38)).toEqual([
      ['2024-03-11', 'Shop 38', '1.00', true],
      ['2024-03-29', 'Card payment ACME SUPERSTORE LONDON', '45.99', true],
      ['2024-03-30', 'Rent', '1200.00', true],
    ]);
  });

  it('keeps the words of a long description that runs into the empty Debit cell of a credit row', async () => {
    const long = 'Salary ACME Holdings Ltd payroll January 2024 REF 0042';
    const pdf = await statementPdf({
      title: 'Acme Bank statement',
      headers: ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
      columns: [40, 110, 330, 400, 480],
      rows: [
        ['24/01/2024', long, '', '2,500.00', '3,454.01'],
        ['25/01/2024', 'Rent', '1,200.00', '', '2,254.01'],
      ],
    });
    const created = await uploadPdf(pdf).expect(201);
    expect(await rowsOf(created.body.data.id)).toEqual([
      ['2024-01-24', long, '-2500.00', true],
      ['2024-01-25', 'Rent', '1200.00', true],
    ]);
  });

  it("dates rows printed without a date with the day's first row, and reports one with no dated row above it", async () => {
    const pdf = await statementPdf({
      title: 'Acme Bank statement',
      headers: ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
      columns: [40, 110, 330, 400, 480],
      rows: [
        ['', 'Card fee', '2.00', '', ''],
        ['23/01/2024', 'Grocer', '45.99', '', ''],
        ['', 'Bakery', '3.20', '', ''],
        ['', 'Refund', '', '7.00', ''],
        ['24/01/2024', 'Rent', '1,200.00', '', ''],
      ],
    });
    const created = await uploadPdf(pdf).expect(201);
    expect(created.body.data.stats).toMatchObject({ rows_count: 5, valid_rows_count: 4 });
    expect(await rowsOf(created.body.data.id)).toEqual([
      [null, 'Card fee', '2.00', false],
      ['2024-01-23', 'Grocer', '45.99', true],
      ['2024-01-23', 'Bakery', '3.20', true],
      ['2024-01-23', 'Refund', '-7.00', true],
      ['2024-01-24', 'Rent', '1200.00', true],
    ]);
  });

  it('publishes a statement once its unreadable rows are skipped (PATCH skip_rows), and includes them again with []', async () => {
    const pdf = await statementPdf({
      title: 'Acme Bank statement',
      headers: ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
      columns: [40, 110, 330, 400, 480],
      rows: [
        ['', 'Card fee', '2.00', '', ''],
        ['23/01/2024', 'Grocer', '45.99', '', ''],
        ['23/01/2024', 'Smudged', '3.205', '', ''],
        ['24/01/2024', 'Rent', '1,200.00', '', ''],
      ],
    });
    const created = await uploadPdf(pdf).expect(201);
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({ skip_rows: [], stats: { rows_count: 4, valid_rows_count: 2 } });
    const patch = (body: object) => request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send(body);
    const publish = () => request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey);
    expect((await publish().expect(422)).body).toMatchObject({ error: 'not_publishable', errors: expect.arrayContaining(['2 rows are invalid']) });

    // The rows are read again from the statement's text, kept at upload, without the skipped ones.
    const skipped = await patch({ skip_rows: [3, 1] }).expect(200);
    expect(skipped.body.data).toMatchObject({ skip_rows: [1, 3], stats: { rows_count: 2, invalid_rows_count: 0 }, status_detail: { publishable: true } });
    expect(await rowsOf(id)).toEqual([
      ['2024-01-23', 'Grocer', '45.99', true],
      ['2024-01-24', 'Rent', '1200.00', true],
    ]);
    expect((await patch({ skip_rows: [] }).expect(200)).body.data).toMatchObject({ skip_rows: [], stats: { rows_count: 4, invalid_rows_count: 2 } });
    expect((await rowsOf(id)).map((r: unknown[]) => r[1])).toEqual(['Card fee', 'Grocer', 'Smudged', 'Rent']);
    expect((await patch({ skip_rows: [5] }).expect(422)).body.message).toBe('skip_rows names rows this import does not have: 5 (its rows are 1-4)');

    await patch({ skip_rows: [1, 3] }).expect(200);
    await publish().expect(202);
    expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
    expect(await t.dataSource.query(`SELECT name, amount_minor::int AS amount FROM entries WHERE import_id = $1 ORDER BY date`, [id])).toEqual([
      { name: 'Grocer', amount: 4599 },
      { name: 'Rent', amount: 120000 },
    ]);
    expect((await revertAndWait(t, h, id)).status).toBe('pending');
  });

  it('refuses skip_rows for a statement uploaded before its text was kept, changing nothing', async () => {
    const pdf = await statementPdf({
      title: 'Acme Bank statement',
      headers: ['Date', 'Description', 'Debit', 'Credit', 'Balance'],
      columns: [40, 110, 330, 400, 480],
      rows: [['', 'Card fee', '2.00', '', ''], ['24/01/2024', 'Rent', '1,200.00', '', '']],
    });
    const id = (await uploadPdf(pdf).expect(201)).body.data.id;
    // As such imports were stored: no content, only its size.
    await t.dataSource.query(`UPDATE imports SET raw_file_content = '' WHERE id = $1`, [id]);
    const res = await request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ skip_rows: [1] }).expect(422);
    expect(res.body.message).toBe('skip_rows cannot be applied to this PdfImport: it was uploaded before its text was kept; upload the file again as a new import');
    const detail = (await request(t.server).get(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).expect(200)).body.data;
    expect(detail).toMatchObject({ skip_rows: [], stats: { rows_count: 2, invalid_rows_count: 1 } });
    // Other changes work as before: the rows are not read again.
    await request(t.server).patch(`/api/v1/imports/${id}`).set('X-Api-Key', h.apiKey).send({ account_id: accountId }).expect(200);
  });

  it('reads a statement drawn one word per text item, its dates and two-word headers whole', async () => {
    const pdf = await wordByWordStatementPdf({
      title: 'Account transactions from May 30, 2024 to June 30, 2024',
      headers: ['Date', 'Description', 'Money out', 'Money in', 'Balance'],
      columns: [40, 115, 310, 386, 487],
      rows: [
        ['Jun 9, 2024', 'Top-Up by *8888', '', '€19.99', '€20.00'],
        ['Jun 14, 2024', 'Restaurant Awesome, Paris', '€9.99', '', '€10.01'],
        ['Jun 23, 2024', 'Cash at PSG stadium', '€10.01', '', '€0.00'],
      ],
    });
    const created = await uploadPdf(pdf).expect(201);
    expect(await rowsOf(created.body.data.id)).toEqual([
      ['2024-06-09', 'Top-Up by *8888', '-19.99', true],
      ['2024-06-14', 'Restaurant Awesome, Paris', '9.99', true],
      ['2024-06-23', 'Cash at PSG stadium', '10.01', true],
    ]);
  });

  it('reads a credit card statement with one amount column: charges out, CR payments in', async () => {
    const pdf = await statementPdf({
      title: 'Visa Credit Card Statement',
      headers: ['Transaction Date', 'Merchant', 'Amount'],
      columns: [40, 150, 420],
      rows: [
        ['Jan 3, 2024', 'Coffee House', '4.50'],
        ['Jan 9, 2024', 'Payment - thank you', '200.00 CR'],
        ['Jan 12, 2024', 'Airline', '312.99'],
      ],
    });
    const created = await uploadPdf(pdf).expect(201);
    expect(await rowsOf(created.body.data.id)).toEqual([
      ['2024-01-03', 'Coffee House', '4.50', true],
      ['2024-01-09', 'Payment - thank you', '-200.00', true],
      ['2024-01-12', 'Airline', '312.99', true],
    ]);
  });

  it('signs a bank statement with one amount column as printed though a transaction is a credit card payment', async () => {
    const pdf = await statementPdf({
      title: 'Everyday Checking Statement',
      headers: ['Date', 'Description', 'Amount'],
      columns: [40, 150, 420],
      rows: [
        ['01/03/2024', 'Grocer', '-45.99'],
        ['01/09/2024', 'Credit card payment', '-200.00'],
        ['01/12/2024', 'Salary', '2,500.00'],
      ],
    });
    const created = await uploadPdf(pdf).expect(201);
    expect(await rowsOf(created.body.data.id)).toEqual([
      ['2024-01-03', 'Grocer', '45.99', true],
      ['2024-01-09', 'Credit card payment', '200.00', true],
      ['2024-01-12', 'Salary', '-2500.00', true],
    ]);
  });

  it('publishes a statement with CR/DR markers as their own items, a dated balance brought forward, a wrapped amount and a summary', async () => {
    // Column 5 (x 440) holds the marker, a few units right of the amount it signs.
    const pdf = await statementPdf({
      title: 'Acme Bank statement',
      headers: ['Date', 'Description', 'Amount', 'Balance'],
      columns: [40, 110, 400, 480, 440],
      rows: [
        ['13/02/2024', 'Balance brought forward', '', '1,000.00'],
        ['', 'Card payment Grocer', '45.99', '954.01', 'DR'],
        ['14/02/2024', 'Salary ACME Ltd', '2,500.00', '3,454.01', 'CR'],
        ['15/02/2024', 'Transfer to savings', '', ''],
        ['', 'ACCOUNT 87654321', '-200.00', '3,254.01'],
        [],
        ['', 'Interest charged this period', '1.20', ''],
      ],
    });
    const created = await uploadPdf(pdf).expect(201);
    expect(created.body.data.stats).toMatchObject({ rows_count: 3, valid_rows_count: 3 });
    expect(await rowsOf(created.body.data.id)).toEqual([
      ['2024-02-13', 'Card payment Grocer', '45.99', true],
      ['2024-02-14', 'Salary ACME Ltd', '-2500.00', true],
      ['2024-02-15', 'Transfer to savings ACCOUNT 87654321', '200.00', true],
    ]);
    await request(t.server).post(`/api/v1/imports/${created.body.data.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
    expect((await waitForImport(t.server, h.apiKey, created.body.data.id)).status).toBe('complete');
    expect(
      await t.dataSource.query(`SELECT date::text AS date, name, amount_minor::int AS amount FROM entries WHERE import_id = $1 AND account_id = $2 ORDER BY date`, [
        created.body.data.id,
        accountId,
      ]),
    ).toEqual([
      { date: '2024-02-13', name: 'Card payment Grocer', amount: 4599 },
      { date: '2024-02-14', name: 'Salary ACME Ltd', amount: -250000 },
      { date: '2024-02-15', name: 'Transfer to savings ACCOUNT 87654321', amount: 20000 },
    ]);
    expect((await revertAndWait(t, h, created.body.data.id)).status).toBe('pending');
  });

  it('refuses scanned PDFs, files that are not PDFs, and inline content, storing nothing', async () => {
    const before = await t.dataSource.query(`SELECT count(*)::int AS n FROM imports WHERE family_id = $1`, [h.familyId]);
    const scanned = await uploadPdf(await scannedPdf());
    expect({ status: scanned.status, error: scanned.body.error, message: scanned.body.message }).toEqual({
      status: 422,
      error: 'unsupported_pdf',
      message: expect.stringContaining('no text layer'),
    });
    const fake = await uploadPdf(Buffer.from('<html><script>alert(1)</script></html>'));
    expect({ status: fake.status, error: fake.body.error }).toEqual({ status: 422, error: 'invalid_file_type' });
    const broken = await uploadPdf(Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF'));
    expect({ status: broken.status, error: broken.body.error }).toEqual({ status: 422, error: 'unsupported_pdf' });
    const inline = await createImport(t.server, h.apiKey, { type: 'PdfImport', raw_file_content: 'Date,Amount', account_id: accountId });
    expect({ status: inline.status, error: inline.body.error }).toEqual({ status: 422, error: 'missing_content' });
    expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM imports WHERE family_id = $1`, [h.familyId])).toEqual(before);
  });
});
