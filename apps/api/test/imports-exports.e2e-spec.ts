import request from 'supertest';
import { createImport, newAccount, publishAndWait, revertAndWait } from './support/imports';
import { Household, startTestApp, TestApp } from './support/test-app';

// Exports of other apps (Mint, Actual, YNAB) and the taxonomy files (categories, merchants, rules) end to end:
// what reaches the database, what is refused, and what revert puts back.

describe('imports: export layouts and taxonomy files', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const q = (sql: string, params: unknown[] = []) => t.dataSource.query(sql, params);
  const long = (c: string, n: number) => c.repeat(n);
  /** A JSON value as one CSV cell, quotes doubled. */
  const cell = (value: unknown) => `"${JSON.stringify(value).replace(/"/g, '""')}"`;
  async function rowErrors(h: Household, id: string): Promise<string[][]> {
    const res = await request(t.server).get(`/api/v1/imports/${id}/rows`).set('X-Api-Key', h.apiKey).expect(200);
    return res.body.data.map((r: { errors: string[] }) => r.errors);
  }
  const familyRecords = async (h: Household) => {
    const [row] = await q(
      `SELECT (SELECT count(*) FROM categories WHERE family_id = $1)::int AS categories, (SELECT count(*) FROM merchants WHERE family_id = $1)::int AS merchants,
              (SELECT count(*) FROM rules WHERE family_id = $1)::int AS rules, (SELECT count(*) FROM tags WHERE family_id = $1)::int AS tags,
              (SELECT count(*) FROM entries WHERE family_id = $1)::int AS entries, (SELECT count(*) FROM accounts WHERE family_id = $1)::int AS accounts`,
      [h.familyId],
    );
    return row;
  };

  describe('values longer than the database holds', () => {
    it('are row errors naming row and column, and the publish is refused with nothing written', async () => {
      const h = await t.newHousehold();
      const before = await familyRecords(h);
      const action = [{ action_type: 'set_transaction_category', value: long('c', 201) }];
      const conditions = [{ condition_type: 'transaction_name', operator: 'like', value: 'uber' }];
      const files: Array<[string, string, string[][]]> = [
        [
          'CategoryImport',
          `name,color,parent_category,lucide_icon\n${long('c', 201)},,,\nKid,,${long('p', 201)},${long('i', 51)}`,
          [
            [`Row 1: name '${long('c', 40)}…' is too long: category names can have at most 200 characters`],
            [`Row 2: parent_category '${long('p', 40)}…' is too long: category names can have at most 200 characters`, `Row 2: lucide_icon '${long('i', 40)}…' is too long: icon names can have at most 50 characters`],
          ],
        ],
        ['MerchantImport', `name,color,website_url\n${long('m', 201)},,`, [[`Row 1: name '${long('m', 40)}…' is too long: merchant names can have at most 200 characters`]]],
        [
          'RuleImport',
          `name,resource_type,active,effective_date,conditions,actions\n${long('r', 201)},transaction,true,,${cell(conditions)},${cell(conditions)}\nTaxi,transaction,true,,${cell(conditions)},${cell(action)}`,
          [
            [`Row 1: name '${long('r', 40)}…' is too long: rule names can have at most 200 characters`],
            [`Row 2: actions value '${long('c', 40)}…' is too long: category names can have at most 200 characters`],
          ],
        ],
        [
          'MintImport',
          `Date,Description,Original Description,Amount,Transaction Type,Category,Account Name,Labels,Notes\n01/05/2024,${long('d', 501)},X,5.00,debit,,Visa,,`,
          [[`Row 1: Description '${long('d', 40)}…' is too long: transaction names can have at most 500 characters`]],
        ],
      ];
      for (const [type, csv, errors] of files) {
        const res = await createImport(t.server, h.apiKey, { type, raw_file_content: csv, publish: 'true' }).expect(422);
        expect({ type, body: res.body }).toMatchObject({ type, body: { error: 'not_publishable', import_id: expect.any(String) } });
        expect({ type, errors: await rowErrors(h, res.body.import_id) }).toEqual({ type, errors });
      }
      expect(await familyRecords(h)).toEqual(before);
    });
  });

  describe('currency of rows that name their account', () => {
    it("gives a Mint row without a currency the currency of the account it names, not the family's", async () => {
      const h = await t.newHousehold(); // family currency USD
      await newAccount(t, h, 'Girokonto', 'EUR');
      // Mint's export has no Currency column; the second file has one, blank on one row.
      const mint = [
        'Date,Description,Original Description,Amount,Transaction Type,Category,Account Name,Labels,Notes',
        '01/05/2024,Bakery,BAECKEREI,5.00,debit,,Girokonto,,',
        '01/06/2024,Diner,DINER,12.00,debit,,Amex,,',
      ].join('\n');
      const withColumn = 'Date,Description,Amount,Transaction Type,Account Name,Currency\n01/07/2024,Kiosk,2.00,debit,Girokonto,\n01/08/2024,Pub,3.00,debit,Girokonto,GBP';
      for (const csv of [mint, withColumn]) expect((await publishAndWait(t, h, { type: 'MintImport', raw_file_content: csv })).status).toBe('complete');
      const rows = await q(
        `SELECT e.name, e.currency, e.amount_minor::int AS amount, a.name AS account FROM entries e JOIN accounts a ON a.id = e.account_id WHERE e.family_id = $1 ORDER BY e.date`,
        [h.familyId],
      );
      expect(rows).toEqual([
        { name: 'Bakery', currency: 'EUR', amount: 500, account: 'Girokonto' },
        { name: 'Diner', currency: 'USD', amount: 1200, account: 'Amex' },
        { name: 'Kiosk', currency: 'EUR', amount: 200, account: 'Girokonto' },
        { name: 'Pub', currency: 'GBP', amount: 300, account: 'Girokonto' },
      ]);
    });
  });

  describe('reverting a CategoryImport', () => {
    const categories = (h: Household) =>
      q(
        `SELECT c.name, c.color, c.lucide_icon AS icon, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id WHERE c.family_id = $1 ORDER BY c.name`,
        [h.familyId],
      );

    it('puts back the colour, icon and parent it changed in existing categories and removes the parent it created', async () => {
      const h = await t.newHousehold();
      await q(
        `INSERT INTO categories (family_id, name, color, lucide_icon) VALUES ($1, 'Groceries', '#111111', 'apple'), ($1, 'Travel', '#333333', 'plane'), ($1, 'Rent', '#444444', 'house')`,
        [h.familyId],
      );
      const before = await categories(h);
      // A Sure categories.csv: Groceries moves under a new Food, Travel gets a colour and icon, Rent is as it was.
      const csv = 'name,color,parent_category,lucide_icon\nFood,#f97316,,utensils\nGroceries,#222222,Food,cart\nTravel,#555555,,bus\nRent,,,';
      const imp = await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: csv });
      expect(imp.status).toBe('complete');
      expect(await categories(h)).toEqual([
        { name: 'Food', color: '#f97316', icon: 'utensils', parent: null },
        { name: 'Groceries', color: '#f97316', icon: 'cart', parent: 'Food' },
        { name: 'Rent', color: '#444444', icon: 'house', parent: null },
        { name: 'Travel', color: '#555555', icon: 'bus', parent: null },
      ]);
      // Changed by the user since: kept.
      await q(`UPDATE categories SET lucide_icon = 'train' WHERE family_id = $1 AND name = 'Travel'`, [h.familyId]);

      expect((await revertAndWait(t, h, imp.id)).status).toBe('pending');
      expect(await categories(h)).toEqual(before.map((c: { name: string }) => (c.name === 'Travel' ? { ...c, icon: 'train' } : c)));
    });

    it('leaves a category without a parent when the parent it had was deleted since, as the delete would have', async () => {
      const h = await t.newHousehold();
      await q(`INSERT INTO categories (family_id, name, color, lucide_icon) VALUES ($1, 'Household', '#111111', 'house')`, [h.familyId]);
      await q(
        `INSERT INTO categories (family_id, name, color, lucide_icon, parent_id) SELECT $1, 'Groceries', '#111111', 'apple', id FROM categories WHERE family_id = $1 AND name = 'Household'`,
        [h.familyId],
      );
      const imp = await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: 'name,color,parent_category,lucide_icon\nGroceries,,Food,' });
      expect(imp.status).toBe('complete');
      await q(`DELETE FROM categories WHERE family_id = $1 AND name = 'Household'`, [h.familyId]);

      expect((await revertAndWait(t, h, imp.id)).status).toBe('pending');
      expect(await categories(h)).toEqual([{ name: 'Groceries', color: '#111111', icon: 'apple', parent: null }]);
    });
  });
});
