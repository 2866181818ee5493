import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { Import } from '../src/imports/import.entity';
import { ImportsProcessor } from '../src/imports/imports.processor';
import { ImportPublisher } from '../src/imports/publishing/import-publisher';
import { resolveMappables } from '../src/imports/publishing/mappables';
import { ImportMappings } from '../src/imports/import-mappings';
import { PublishingRepository } from '../src/imports/publishing/publishing.repository';
import { Transaction, Transactions } from '../src/database/transactions';
import { Ledger } from '../src/ledger/ledger';
import { addOpeningBalance, bankQifWithout, createImport, newAccount, openingBalances, publishAndWait, revertAndWait, waitForImport } from './support/imports';
import { Household, startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';

const QIF = readFileSync(join(__dirname, '../../../libs/domain/import-formats/fixtures/checking.qif'), 'utf8');

// Publishing and reverting against the family's other data: messages a user can act on, records shared with other
// imports, mappings gone stale before publish, and what a re-import changes.

describe('imports: publishing and reverting alongside other data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const q = (sql: string, params: unknown[] = []) => t.dataSource.query(sql, params);
  // What a publish's worker does before its first chunk: resolve the import's mappings, in `tx`.
  const resolve = (tx: Transaction, imp: Import) =>
    resolveMappables(tx, imp, 'USD', '2024-06-01', { ledger: t.app.get(Ledger), publishing: t.app.get(PublishingRepository) }, t.app.get(ImportMappings));
  const resolveAlone = (imp: Import) => t.app.get(Transactions).run((tx) => resolve(tx, imp));

  describe('errors', () => {
    it("shows a publisher's own message in error, and only the generic one for anything else", async () => {
      const h = await t.newHousehold();
      const selfParent = await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: 'name,parent_category\nA,A' });
      expect({ status: selfParent.status, error: selfParent.error }).toEqual({ status: 'failed', error: "Row 1: category 'A' cannot be its own parent" });

      await q(`CREATE OR REPLACE FUNCTION hearth_test_fail_merchant() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.family_id = '${h.familyId}' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
      await q(`CREATE TRIGGER hearth_test_fail_merchant BEFORE INSERT ON merchants FOR EACH ROW EXECUTE FUNCTION hearth_test_fail_merchant()`);
      try {
        const internal = await publishAndWait(t, h, { type: 'MerchantImport', raw_file_content: 'name\nShop' });
        expect(internal.status).toBe('failed');
        expect(internal.error).toMatch(/^Publishing stopped on an internal error/);
      } finally {
        await q(`DROP TRIGGER hearth_test_fail_merchant ON merchants`);
        await q(`DROP FUNCTION hearth_test_fail_merchant()`);
      }
    });
  });

  describe('a publish that fails before any row is published', () => {
    /** The family's accounts, categories (with their parent), tags and merchants, by name. */
    const familyRecords = async (h: Household) => ({
      accounts: await q(`SELECT name, import_id FROM accounts WHERE family_id = $1 ORDER BY name`, [h.familyId]),
      categories: await q(`SELECT c.name, p.name AS parent, c.import_id FROM categories c LEFT JOIN categories p ON p.id = c.parent_id WHERE c.family_id = $1 ORDER BY c.name`, [h.familyId]),
      tags: await q(`SELECT name, import_id FROM tags WHERE family_id = $1 ORDER BY name`, [h.familyId]),
      merchants: await q(`SELECT name, import_id FROM merchants WHERE family_id = $1 ORDER BY name`, [h.familyId]),
    });

    it('leaves the accounts, categories and tags its mappings created out of the family, and publishing again creates them once', async () => {
      const h = await t.newHousehold();
      await newAccount(t, h, 'Checking');
      await q(`INSERT INTO categories (family_id, name) VALUES ($1, 'Groceries')`, [h.familyId]);
      await q(`INSERT INTO tags (family_id, name) VALUES ($1, 'mine')`, [h.familyId]);
      const before = await familyRecords(h);
      // A fault in the database itself: the entry of row 2 cannot be written while the trigger exists (chunk 1 of 1).
      const fault = `poison_${h.familyId.replace(/-/g, '')}`;
      await q(`CREATE FUNCTION ${fault}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`);
      await q(`CREATE TRIGGER ${fault} BEFORE INSERT ON entries FOR EACH ROW WHEN (NEW.name = '${fault}') EXECUTE FUNCTION ${fault}()`);
      const csv = [
        'date,amount,name,account,category,tags',
        '2024-05-01,-1.00,Bread,Savings,Groceries,mine|weekly',
        `2024-05-02,-2.00,${fault},Checking,Home:Power,once`,
      ].join('\n');
      try {
        const failed = await publishAndWait(t, h, { raw_file_content: csv, date_col_label: 'date', amount_col_label: 'amount' });
        expect(await familyRecords(h)).toEqual(before);
        expect({ status: failed.status, error: failed.error, revertable: failed.status_detail.revertable }).toEqual({
          status: 'failed',
          error: expect.stringMatching(/^Publishing stopped on an internal error.*nothing was published/),
          revertable: false,
        });
        // Its mappings are as at upload: what they would create is created again on the next publish.
        const mappings = await q(`SELECT type, key, mappable_id IS NOT NULL AS mapped, create_when_empty FROM import_mappings WHERE import_id = $1 ORDER BY type, key`, [failed.id]);
        expect(mappings).toEqual([
          { type: 'account', key: 'Checking', mapped: true, create_when_empty: false },
          { type: 'account', key: 'Savings', mapped: false, create_when_empty: true },
          { type: 'category', key: 'Groceries', mapped: true, create_when_empty: false },
          { type: 'category', key: 'Home:Power', mapped: false, create_when_empty: true },
          { type: 'tag', key: 'mine', mapped: true, create_when_empty: false },
          { type: 'tag', key: 'once', mapped: false, create_when_empty: true },
          { type: 'tag', key: 'weekly', mapped: false, create_when_empty: true },
        ]);

        await q(`DROP TRIGGER ${fault} ON entries`);
        await request(t.server).post(`/api/v1/imports/${failed.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
        expect(await waitForImport(t.server, h.apiKey, failed.id)).toMatchObject({ status: 'complete', error: null });
        const id = failed.id;
        expect(await familyRecords(h)).toEqual({
          accounts: [{ name: 'Checking', import_id: null }, { name: 'Savings', import_id: id }],
          categories: [
            { name: 'Groceries', parent: null, import_id: null },
            { name: 'Home', parent: null, import_id: id },
            { name: 'Power', parent: 'Home', import_id: id },
          ],
          tags: [{ name: 'mine', import_id: null }, { name: 'once', import_id: id }, { name: 'weekly', import_id: id }],
          merchants: [],
        });
      } finally {
        await q(`DROP TRIGGER IF EXISTS ${fault} ON entries`);
        await q(`DROP FUNCTION ${fault}()`);
      }
    });

    it('is reaped as it fails: a vanished worker that resolved the mappings and committed no row leaves the family as it was', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h, 'Checking');
      const before = await familyRecords(h);
      const csv = ['date,amount,name,category,tags', '2024-05-01,-1.00,Bread,Food: Bakery,weekly'].join('\n');
      const created = await createImport(t.server, h.apiKey, { raw_file_content: csv, account_id: account }).expect(201);
      const imp = await t.dataSource.getRepository(Import).findOneByOrFail({ id: created.body.data.id });
      await resolveAlone(imp);
      await q(`UPDATE imports SET status = 'importing', updated_at = now() - interval '1 hour' WHERE id = $1`, [imp.id]);

      await t.app.get(ImportsProcessor).reap();
      const reaped = await request(t.server).get(`/api/v1/imports/${imp.id}`).set('X-Api-Key', h.apiKey).expect(200);
      expect(reaped.body.data).toMatchObject({ status: 'failed', status_detail: { revertable: false, publishable: true } });
      expect(await familyRecords(h)).toEqual(before);

      await request(t.server).post(`/api/v1/imports/${imp.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      expect((await waitForImport(t.server, h.apiKey, imp.id)).status).toBe('complete');
      const { categories, tags } = await familyRecords(h);
      expect({ categories, tags }).toEqual({
        categories: [
          { name: 'Bakery', parent: 'Food', import_id: imp.id },
          { name: 'Food', parent: null, import_id: imp.id },
        ],
        tags: [{ name: 'weekly', import_id: imp.id }],
      });
    });

    it('keeps, as the family\'s own, what it created that another import has come to use meanwhile', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      const fault = `poison_${h.familyId.replace(/-/g, '')}`;
      const csv = (rows: string[]) => ({ raw_file_content: ['date,amount,name,category,tags', ...rows].join('\n'), account_id: account, date_col_label: 'date', amount_col_label: 'amount' });
      const a = await createImport(t.server, h.apiKey, csv(['2024-05-01,-1.00,Bread,Food,weekly', `2024-05-02,-2.00,${fault},Solo,once`])).expect(201);
      // A worker that vanished after resolving A's mappings (the reaper marks such an import failed) left Food, Solo,
      // weekly and once, A's; B, uploaded then, maps Food and weekly to them and publishes.
      const imp = await t.dataSource.getRepository(Import).findOneByOrFail({ id: a.body.data.id });
      await resolveAlone(imp);
      const b = await publishAndWait(t, h, csv(['2024-05-03,-3.00,Milk,Food,weekly']));
      expect(b.status).toBe('complete');

      await q(`CREATE FUNCTION ${fault}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`);
      await q(`CREATE TRIGGER ${fault} BEFORE INSERT ON entries FOR EACH ROW WHEN (NEW.name = '${fault}') EXECUTE FUNCTION ${fault}()`);
      try {
        await request(t.server).post(`/api/v1/imports/${imp.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
        expect(await waitForImport(t.server, h.apiKey, imp.id)).toMatchObject({ status: 'failed' });
      } finally {
        await q(`DROP TRIGGER ${fault} ON entries`);
        await q(`DROP FUNCTION ${fault}()`);
      }
      const { categories, tags } = await familyRecords(h);
      expect({ categories, tags }).toEqual({ categories: [{ name: 'Food', parent: null, import_id: null }], tags: [{ name: 'weekly', import_id: null }] });
      const [milk] = await q(
        `SELECT c.name AS category, (SELECT string_agg(g.name, '|') FROM taggings tg JOIN tags g ON g.id = tg.tag_id WHERE tg.entry_id = e.id) AS tags
           FROM entries e JOIN transactions tr ON tr.entry_id = e.id LEFT JOIN categories c ON c.id = tr.category_id WHERE e.import_id = $1`,
        [b.id],
      );
      expect(milk).toEqual({ category: 'Food', tags: 'weekly' });
    });
  });

  describe('two imports of one family resolving their mappings at the same moment', () => {
    (process.env.DATABASE_URL ? it : it.skip)('create one account, category and tag of each new name, which both then use', async () => {
      const h = await t.newHousehold();
      const csv = (name: string) => ({ raw_file_content: `date,amount,name,account,category,tags\n2024-05-01,-1.00,${name},Joint,Food,weekly` });
      const [a, b] = await Promise.all(['Bread', 'Milk'].map(async (name) => {
        const created = await createImport(t.server, h.apiKey, csv(name)).expect(201);
        return t.dataSource.getRepository(Import).findOneByOrFail({ id: created.body.data.id });
      }));
      // A's worker has created Joint, Food and weekly and not committed yet when B's resolves its own mappings.
      const first = t.dataSource.createQueryRunner();
      await first.connect();
      try {
        await first.startTransaction();
        await resolve(first.manager as unknown as Transaction, a); // held open by this test's own query runner
        const [{ pid }] = await first.query(`SELECT pg_backend_pid() AS pid`);
        const second = resolveAlone(b);
        const waiting = until('B waiting on A', async () => Number((await q(`SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [pid]))[0].count));
        await Promise.race([waiting, second]);
        await first.commitTransaction();
        await second;
      } finally {
        await first.release();
      }
      const named = async (table: string) => (await q(`SELECT id FROM ${table} WHERE family_id = $1`, [h.familyId])).map((r: { id: string }) => r.id);
      const [accounts, categories, tags] = [await named('accounts'), await named('categories'), await named('tags')];
      expect([accounts.length, categories.length, tags.length]).toEqual([1, 1, 1]);
      const mapped = await q(`SELECT DISTINCT type, mappable_id FROM import_mappings WHERE import_id = ANY($1::uuid[]) ORDER BY type`, [[a.id, b.id]]);
      expect(mapped).toEqual([
        { type: 'account', mappable_id: accounts[0] },
        { type: 'category', mappable_id: categories[0] },
        { type: 'tag', mappable_id: tags[0] },
      ]);
    });
  });

  describe('revert', () => {
    const names = async (table: string, h: Household) =>
      (await q(`SELECT name, import_id FROM ${table} WHERE family_id = $1 ORDER BY name`, [h.familyId])).map((r: { name: string; import_id: string | null }) => [r.name, r.import_id]);

    it('keeps the account, category and tag it created that another import uses, and removes the ones only it used', async () => {
      const h = await t.newHousehold();
      const csv = (rows: string[]) => ['date,amount,name,account,category,tags', ...rows].join('\n');
      const a = await publishAndWait(t, h, { raw_file_content: csv(['2024-05-01,-1.00,A1,Savings,Food,weekly|once', '2024-05-01,-1.00,A2,Spare,Solo,']), date_col_label: 'date', amount_col_label: 'amount' });
      const b = await publishAndWait(t, h, { raw_file_content: csv(['2024-05-02,-2.00,B1,Savings,Food,weekly']), date_col_label: 'date', amount_col_label: 'amount' });
      expect([a.status, b.status]).toEqual(['complete', 'complete']);

      expect((await revertAndWait(t, h, a.id)).status).toBe('pending');
      const left = await q(
        `SELECT e.name, a.name AS account, c.name AS category, (SELECT string_agg(g.name, '|') FROM taggings tg JOIN tags g ON g.id = tg.tag_id WHERE tg.entry_id = e.id) AS tags
           FROM entries e JOIN accounts a ON a.id = e.account_id JOIN transactions tr ON tr.entry_id = e.id LEFT JOIN categories c ON c.id = tr.category_id
          WHERE e.family_id = $1`,
        [h.familyId],
      );
      expect(left).toEqual([{ name: 'B1', account: 'Savings', category: 'Food', tags: 'weekly' }]);
      // Kept as the family's own: without import_id, no later revert of A removes them.
      expect([await names('accounts', h), await names('categories', h), await names('tags', h)]).toEqual([[['Savings', null]], [['Food', null]], [['weekly', null]]]);
    });

    it("keeps what the user's own data uses: a budget amount, a subcategory (with the parents above it), a rule, a merchant", async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      const categories = await publishAndWait(t, h, {
        type: 'CategoryImport',
        raw_file_content: 'name,parent_category\nBudgeted,\nTop,\nMiddle,Top\nRuled,\nUnused,',
      });
      const merchants = await publishAndWait(t, h, { type: 'MerchantImport', raw_file_content: 'name\nShop\nNobody' });
      expect([categories.status, merchants.status]).toEqual(['complete', 'complete']);
      const id = async (table: string, name: string) => (await q(`SELECT id FROM ${table} WHERE family_id = $1 AND name = $2`, [h.familyId, name]))[0].id;
      // A budget lists every category at 0 by itself; only the amount set on Budgeted is a use.
      const budget = await request(t.server).post('/api/v1/budgets').set('X-Api-Key', h.apiKey).send({ start_date: '2025-01-15' }).expect(201);
      await q(`UPDATE budget_categories SET budgeted_spending_minor = 5000 WHERE budget_id = $1 AND category_id = $2`, [budget.body.id, await id('categories', 'Budgeted')]);
      await q(`INSERT INTO categories (family_id, name, parent_id) VALUES ($1, 'Mine', $2)`, [h.familyId, await id('categories', 'Middle')]);
      await q(`INSERT INTO rules (family_id, name, actions) VALUES ($1, 'Mine', $2)`, [
        h.familyId,
        JSON.stringify([{ action_type: 'set_transaction_category', value: await id('categories', 'Ruled') }]),
      ]);
      await q(
        `WITH e AS (INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency) VALUES ($1, $2, 'Transaction', '2024-05-01', 'Coffee', 350, 'USD') RETURNING id)
         INSERT INTO transactions (entry_id, merchant_id) SELECT id, $3 FROM e`,
        [h.familyId, account, await id('merchants', 'Shop')],
      );

      await revertAndWait(t, h, categories.id);
      await revertAndWait(t, h, merchants.id);
      expect(await names('categories', h)).toEqual([['Budgeted', null], ['Middle', null], ['Mine', null], ['Ruled', null], ['Top', null]]);
      expect(await names('merchants', h)).toEqual([['Shop', null]]);
      const [mine] = await q(`SELECT p.name AS parent, g.name AS grandparent FROM categories c JOIN categories p ON p.id = c.parent_id JOIN categories g ON g.id = p.parent_id WHERE c.family_id = $1 AND c.name = 'Mine'`, [h.familyId]);
      expect(mine).toEqual({ parent: 'Middle', grandparent: 'Top' });
    });

    it('puts back what a row changed in the transaction it duplicated (notes, category, tags), unless changed since', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      const [coffee] = await q(`INSERT INTO categories (family_id, name) VALUES ($1, 'Coffee') RETURNING id`, [h.familyId]);
      const [mine] = await q(`INSERT INTO tags (family_id, name) VALUES ($1, 'mine') RETURNING id`, [h.familyId]);
      const enter = async (name: string) => {
        const [e] = await q(
          `WITH e AS (INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency, notes) VALUES ($1, $2, 'Transaction', '2024-05-01', $3, 350, 'USD', 'mine') RETURNING id)
           INSERT INTO transactions (entry_id, category_id) SELECT id, $4 FROM e RETURNING entry_id AS id`,
          [h.familyId, account, name, coffee.id],
        );
        await q(`INSERT INTO taggings (tag_id, entry_id) VALUES ($1, $2)`, [mine.id, e.id]);
        return e.id;
      };
      const [kept, edited] = [await enter('Kept'), await enter('Edited')];
      const imp = await publishAndWait(t, h, {
        raw_file_content: 'date,amount,name,category,tags,notes\n2024-05-01,-3.50,Kept,Food,weekly|mine,theirs\n2024-05-01,-3.50,Edited,Food,,theirs',
        account_id: account,
        date_col_label: 'date',
        amount_col_label: 'amount',
      });
      expect(imp.status).toBe('complete');
      await q(`UPDATE entries SET notes = 'edited later' WHERE id = $1`, [edited]);

      await revertAndWait(t, h, imp.id);
      const state = await q(
        `SELECT e.id, e.notes, c.name AS category, (SELECT string_agg(g.name, '|' ORDER BY g.name) FROM taggings tg JOIN tags g ON g.id = tg.tag_id WHERE tg.entry_id = e.id) AS tags
           FROM entries e JOIN transactions tr ON tr.entry_id = e.id LEFT JOIN categories c ON c.id = tr.category_id WHERE e.family_id = $1 ORDER BY e.name`,
        [h.familyId],
      );
      expect(state).toEqual([
        { id: edited, notes: 'edited later', category: 'Coffee', tags: 'mine' },
        { id: kept, notes: 'mine', category: 'Coffee', tags: 'mine' },
      ]);
      // Food and weekly, created for the rows, went with the revert once nothing used them.
      expect((await q(`SELECT name FROM categories WHERE family_id = $1 UNION ALL SELECT name FROM tags WHERE family_id = $1 ORDER BY 1`, [h.familyId])).map((r: { name: string }) => r.name)).toEqual(['Coffee', 'mine']);
    });
  });

  describe('revert of records another import holds too', () => {
    const ledger = (account: string, imports: Record<string, string>) =>
      q(`SELECT e.date::text AS date, e.name, e.import_id FROM entries e WHERE e.account_id = $1 ORDER BY e.date, e.name`, [account]).then((rows) =>
        rows.map((r: { date: string; name: string; import_id: string | null }) => [r.date, r.name, Object.keys(imports).find((k) => imports[k] === r.import_id) ?? r.import_id]),
      );

    it("passes a transaction another import duplicated, and an opening balance another moved, to that import, whose revert then takes them", async () => {
      const h = await t.newHousehold();
      const accounts = await publishAndWait(t, h, { type: 'AccountImport', raw_file_content: 'Account type,Name,Balance,Balance Date\nChecking,Main,500.00,2024-06-01' });
      const [{ id: account }] = await q(`SELECT id FROM accounts WHERE family_id = $1`, [h.familyId]);
      // first moves the opening balance to before 03/01; second duplicates Shop 0 and moves it again, to before 01/15.
      const first = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: bankQifWithout(['03/01/2024', '03/02/2024']), account_id: account });
      const second = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: bankQifWithout(['03/01/2024', '01/15/2024']), account_id: account });
      expect([accounts.status, first.status, second.status]).toEqual(['complete', 'complete', 'complete']);
      const imports = { accounts: accounts.id, first: first.id, second: second.id };
      expect(await ledger(account, imports)).toEqual([
        ['2024-01-14', 'Opening balance', 'accounts'],
        ['2024-01-15', 'Shop 1', 'second'],
        ['2024-03-01', 'Shop 0', 'first'],
        ['2024-03-02', 'Shop 1', 'first'],
      ]);

      // The account stays (the QIF entries use it) and so does its opening balance, now first's, as it stands.
      await revertAndWait(t, h, accounts.id);
      expect(await q(`SELECT name, import_id FROM accounts WHERE family_id = $1`, [h.familyId])).toEqual([{ name: 'Main', import_id: null }]);
      expect(await ledger(account, imports)).toEqual([
        ['2024-01-14', 'Opening balance', 'first'],
        ['2024-01-15', 'Shop 1', 'second'],
        ['2024-03-01', 'Shop 0', 'first'],
        ['2024-03-02', 'Shop 1', 'first'],
      ]);
      expect(await openingBalances(t, account)).toEqual([{ date: '2024-01-14', amount: 50000 }]);

      // second's file holds Shop 0 and moved the opening balance: both pass to it; first's own Shop 1 goes.
      await revertAndWait(t, h, first.id);
      expect(await ledger(account, imports)).toEqual([
        ['2024-01-14', 'Opening balance', 'second'],
        ['2024-01-15', 'Shop 1', 'second'],
        ['2024-03-01', 'Shop 0', 'second'],
      ]);

      expect((await revertAndWait(t, h, second.id)).status).toBe('pending');
      expect(await ledger(account, imports)).toEqual([]);
      const [{ claims }] = await q(`SELECT count(*)::int AS claims FROM import_rows WHERE import_id = ANY($1::uuid[]) AND duplicate_of IS NOT NULL`, [Object.values(imports)]);
      expect(claims).toBe(0);
    });

    (process.env.DATABASE_URL ? it : it.skip)('waits for a chunk of another import in flight, then passes on what it claimed', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      const body = { raw_file_content: 'date,amount,name\n2024-05-01,-1.00,Shop', account_id: account, date_col_label: 'date', amount_col_label: 'amount' };
      const first = await publishAndWait(t, h, body);
      const [{ id: entry }] = await q(`SELECT id FROM entries WHERE import_id = $1`, [first.id]);
      // A second import of the same row, publishing: its chunk holds the import row and claims the entry.
      const second = (await createImport(t.server, h.apiKey, body).expect(201)).body.data.id;
      await q(`UPDATE imports SET status = 'importing' WHERE id = $1`, [second]);
      const chunk = t.dataSource.createQueryRunner();
      await chunk.connect();
      try {
        await chunk.startTransaction();
        await chunk.query(`SELECT 1 FROM imports WHERE id = $1 FOR KEY SHARE`, [second]);
        const [{ pid }] = await chunk.query(`SELECT pg_backend_pid() AS pid`);
        await request(t.server).post(`/api/v1/imports/${first.id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
        await until('the revert waiting on the chunk', async () => Number((await q(`SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [pid]))[0].count));
        await chunk.query(`UPDATE import_rows SET duplicate_of = $2 WHERE import_id = $1 AND source_row_number = 1`, [second, entry]);
        await chunk.commitTransaction();
      } finally {
        await chunk.release();
      }
      expect((await waitForImport(t.server, h.apiKey, first.id)).status).toBe('pending');
      expect(await q(`SELECT id, import_id FROM entries WHERE account_id = $1`, [account])).toEqual([{ id: entry, import_id: second }]);
    });

    (process.env.DATABASE_URL ? it : it.skip)('reverts two imports holding claims at the same moment: one waits for the other, neither fails', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      await q(
        `WITH e AS (INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency)
                    VALUES ($1, $2, 'Transaction', '2024-05-01', 'Shop 0', -100, 'USD') RETURNING id)
         INSERT INTO transactions (entry_id) SELECT id FROM e`,
        [h.familyId, account],
      );
      const body = (...rows: string[]) => ({ raw_file_content: ['date,amount,name', ...rows].join('\n'), account_id: account, date_col_label: 'date', amount_col_label: 'amount' });
      const [shop0, shop1] = ['2024-05-01,1.00,Shop 0', '2024-05-02,2.00,Shop 1'];
      // Each holds a claim: holder and first on the hand-entered Shop 0, second on first's Shop 1.
      const holder = await publishAndWait(t, h, body(shop0));
      const first = await publishAndWait(t, h, body(shop0, shop1));
      const second = await publishAndWait(t, h, body(shop1));
      const [{ claims }] = await q(`SELECT count(*)::int AS claims FROM import_rows WHERE import_id = ANY($1::uuid[]) AND duplicate_of IS NOT NULL`, [[holder.id, first.id, second.id]]);
      expect(claims).toBe(3);

      await q(`UPDATE imports SET status = 'reverting' WHERE id = ANY($1::uuid[])`, [[first.id, second.id]]);
      // Holding holder's row keeps both reverts waiting until each has taken what it can: with each import locked
      // first and the others after, each then held its own and waited for the other's.
      const blocker = t.dataSource.createQueryRunner();
      await blocker.connect();
      const publisher = t.app.get(ImportPublisher);
      let reverts: Array<Promise<unknown>> = [];
      try {
        await blocker.startTransaction();
        await blocker.query(`SELECT 1 FROM imports WHERE id = $1 FOR UPDATE`, [holder.id]);
        reverts = [first, second].map((i) => publisher.revert({ importId: i.id, familyId: h.familyId }));
        await until('both reverts waiting for their locks', async () =>
          Number((await q(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%duplicate_of IS NOT NULL%FOR UPDATE%'`))[0].count) === 2,
        );
        await blocker.commitTransaction();
      } finally {
        await blocker.release();
        await Promise.all(reverts);
      }
      const statuses = await q(`SELECT status, error FROM imports WHERE id = ANY($1::uuid[])`, [[first.id, second.id]]);
      expect(statuses).toEqual([{ status: 'pending', error: null }, { status: 'pending', error: null }]);
      expect(await q(`SELECT name, import_id FROM entries WHERE account_id = $1`, [account])).toEqual([{ name: 'Shop 0', import_id: null }]);
    });

    it('passes a category, merchant or rule another import lists too to that import', async () => {
      const h = await t.newHousehold();
      const quoted = (operands: object[]) => `"${JSON.stringify(operands).replace(/"/g, '""')}"`;
      const rule = (name: string, like: string) =>
        `${name},transaction,true,,${quoted([{ condition_type: 'transaction_name', operator: 'like', value: like }])},${quoted([{ action_type: 'exclude_transaction' }])}`;
      const rules = (rows: string[]) => ['name,resource_type,active,effective_date,conditions,actions', ...rows].join('\n');
      const first = [
        await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: 'name,color\nFood,#111111\nFun,' }),
        await publishAndWait(t, h, { type: 'MerchantImport', raw_file_content: 'name\nShop\nOnly' }),
        await publishAndWait(t, h, { type: 'RuleImport', raw_file_content: rules([rule('Rides', 'uber'), rule('Solo', 'x')]) }),
      ];
      // Food unchanged, Shop listed twice, Rides replaced.
      const second = [
        await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: 'name\nFood' }),
        await publishAndWait(t, h, { type: 'MerchantImport', raw_file_content: 'name\nShop\nOther\nShop' }),
        await publishAndWait(t, h, { type: 'RuleImport', raw_file_content: rules([rule('Rides', 'taxi')]) }),
      ];
      expect([...first, ...second].map((i) => i.status)).toEqual(Array(6).fill('complete'));
      const state = async () => {
        const owner = (id: string | null) => (first.some((i) => i.id === id) ? 'first' : second.some((i) => i.id === id) ? 'second' : id);
        const rows = await q(
          `SELECT 'category' AS kind, name, import_id, color AS detail FROM categories WHERE family_id = $1
           UNION ALL SELECT 'merchant', name, import_id, NULL FROM merchants WHERE family_id = $1
           UNION ALL SELECT 'rule', name, import_id, conditions->0->>'value' FROM rules WHERE family_id = $1 ORDER BY 1, 2`,
          [h.familyId],
        );
        return rows.map((r: { kind: string; name: string; import_id: string | null; detail: string | null }) => [r.kind, r.name, owner(r.import_id), r.detail]);
      };

      for (const imp of first) await revertAndWait(t, h, imp.id);
      expect(await state()).toEqual([
        ['category', 'Food', 'second', '#111111'],
        ['merchant', 'Other', 'second', null],
        ['merchant', 'Shop', 'second', null],
        ['rule', 'Rides', 'second', 'taxi'],
      ]);
      for (const imp of second) await revertAndWait(t, h, imp.id);
      expect(await state()).toEqual([]);
    });
  });

  describe('trade duplicates', () => {
    const trades = (h: Household) =>
      q(
        `SELECT e.date::text AS date, e.name, e.amount_minor::int AS amount, e.import_id FROM entries e JOIN trades t ON t.entry_id = e.id
          WHERE e.family_id = $1 ORDER BY e.date, e.created_at, e.amount_minor`,
        [h.familyId],
      );

    it('links a re-imported broker export to the trades it holds, the n-th identical row to the n-th trade, and revert keeps them', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h, 'Brokerage');
      const csv = (rows: string[]) => ['date,ticker,qty,price', ...rows].join('\n');
      const first = await publishAndWait(t, h, { type: 'TradeImport', account_id: account, raw_file_content: csv(['2024-05-01,AAPL,1,190', '2024-05-01,AAPL,1,190', '2024-05-02,MSFT,-2,400']) });
      // Overlapping: both AAPL buys and the MSFT sell again, a third identical AAPL buy, a buy at another price.
      const second = await publishAndWait(t, h, {
        type: 'TradeImport',
        account_id: account,
        raw_file_content: csv(['2024-05-01,AAPL,1,190', '2024-05-01,AAPL,1,190', '2024-05-01,AAPL,1,190', '2024-05-01,AAPL,1,191', '2024-05-02,MSFT,-2,400']),
      });
      expect([first.status, second.status]).toEqual(['complete', 'complete']);
      const owner = (id: string | null) => (id === first.id ? 'first' : id === second.id ? 'second' : id);
      const ledger = async () => (await trades(h)).map((r: { date: string; name: string; amount: number; import_id: string }) => [r.date, r.name, r.amount, owner(r.import_id)]);
      expect(await ledger()).toEqual([
        ['2024-05-01', 'Buy AAPL', 19000, 'first'],
        ['2024-05-01', 'Buy AAPL', 19000, 'first'],
        ['2024-05-01', 'Buy AAPL', 19000, 'second'],
        ['2024-05-01', 'Buy AAPL', 19100, 'second'],
        ['2024-05-02', 'Sell MSFT', -80000, 'first'],
      ]);

      // The first's trades the second holds too pass to it; reverting the second then takes everything.
      await revertAndWait(t, h, first.id);
      expect((await ledger()).map((r: unknown[]) => r[3])).toEqual(['second', 'second', 'second', 'second', 'second']);
      await revertAndWait(t, h, second.id);
      expect(await ledger()).toEqual([]);
    });

    it('links a re-imported QIF investment export: trades and cash actions alike', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h, 'Brokerage');
      const qif = '!Type:Invst\nD03/01/2024\nNBuy\nYAAPL\nI100\nQ10\nT1009.95\nO9.95\n^\nD03/02/2024\nNSell\nYAAPL\nQ2\nT210.05\nO9.95\n^\nD03/03/2024\nNDiv\nYAAPL\nT5\n^\n';
      const first = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: qif, account_id: account });
      const again = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: qif, account_id: account });
      expect([first.status, again.status]).toEqual(['complete', 'complete']);
      const [{ created, linked }] = await q(
        `SELECT (SELECT count(*)::int FROM entries WHERE import_id = $1) AS created,
                (SELECT count(*)::int FROM import_rows WHERE import_id = $1 AND duplicate_of IS NOT NULL) AS linked`,
        [again.id],
      );
      expect({ created, linked }).toEqual({ created: 0, linked: 3 });
      await revertAndWait(t, h, again.id);
      expect((await trades(h)).map((r: { name: string }) => r.name)).toEqual(['Buy 10 AAPL', 'Sell 2 AAPL']);
    });
  });

  describe('mappings gone stale before publish', () => {
    async function publishLater(h: Household, id: string) {
      await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      return waitForImport(t.server, h.apiKey, id);
    }

    it('resolves again by name (or creates) the account, category and tag mapped at upload and deleted since', async () => {
      const h = await t.newHousehold();
      const savings = await newAccount(t, h, 'Savings');
      await q(`INSERT INTO categories (family_id, name) VALUES ($1, 'Food'), ($1, 'Fun')`, [h.familyId]);
      await q(`INSERT INTO tags (family_id, name) VALUES ($1, 'weekly')`, [h.familyId]);
      const created = await createImport(t.server, h.apiKey, {
        raw_file_content: 'date,amount,name,account,category,tags\n2024-05-01,-1.00,X,Savings,Food,weekly\n2024-05-02,-1.00,Y,Savings,Fun,',
        date_col_label: 'date',
        amount_col_label: 'amount',
      }).expect(201);
      await q(`DELETE FROM accounts WHERE id = $1`, [savings]);
      await q(`DELETE FROM categories WHERE family_id = $1 AND name = 'Food'`, [h.familyId]);
      await q(`DELETE FROM tags WHERE family_id = $1`, [h.familyId]);
      const [weekly] = await q(`INSERT INTO tags (family_id, name) VALUES ($1, 'weekly') RETURNING id`, [h.familyId]);
      // Fun was renamed and a new category took its name: the mapping's record still exists, so it stays.
      await q(`UPDATE categories SET name = 'Fun (old)' WHERE family_id = $1`, [h.familyId]);
      await q(`INSERT INTO categories (family_id, name) VALUES ($1, 'Fun')`, [h.familyId]);

      const done = await publishLater(h, created.body.data.id);
      expect({ status: done.status, error: done.error }).toEqual({ status: 'complete', error: null });
      const rows = await q(
        `SELECT e.name, a.name AS account, c.name AS category, (SELECT string_agg(g.name, '|') FROM taggings tg JOIN tags g ON g.id = tg.tag_id WHERE tg.entry_id = e.id) AS tags
           FROM entries e JOIN accounts a ON a.id = e.account_id JOIN transactions tr ON tr.entry_id = e.id LEFT JOIN categories c ON c.id = tr.category_id
          WHERE e.family_id = $1 ORDER BY e.name`,
        [h.familyId],
      );
      expect(rows).toEqual([
        { name: 'X', account: 'Savings', category: 'Food', tags: 'weekly' },
        { name: 'Y', account: 'Savings', category: 'Fun (old)', tags: null },
      ]);
      expect(await q(`SELECT tag_id FROM taggings g JOIN tags t ON t.id = g.tag_id WHERE t.family_id = $1`, [h.familyId])).toEqual([{ tag_id: weekly.id }]);
    });

    it('publishes into the category of an import reverted since, created again', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      const csv = (name: string) => ({ raw_file_content: `date,amount,name,category\n2024-05-01,-1.00,${name},Food`, account_id: account, date_col_label: 'date', amount_col_label: 'amount' });
      const a = await publishAndWait(t, h, csv('A'));
      const b = await createImport(t.server, h.apiKey, csv('B')).expect(201);
      await revertAndWait(t, h, a.id);
      expect(await publishLater(h, b.body.data.id)).toMatchObject({ status: 'complete', error: null });
      const [row] = await q(`SELECT c.name, c.import_id FROM transactions tr JOIN categories c ON c.id = tr.category_id JOIN entries e ON e.id = tr.entry_id WHERE e.family_id = $1`, [h.familyId]);
      expect(row).toEqual({ name: 'Food', import_id: b.body.data.id });
    });

    it("says so when the import's own account is gone", async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      const created = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name\n2024-05-01,-1.00,X', account_id: account, date_col_label: 'date', amount_col_label: 'amount' }).expect(201);
      await q(`DELETE FROM accounts WHERE id = $1`, [account]);
      expect(await publishLater(h, created.body.data.id)).toMatchObject({ status: 'failed', error: "The import's account no longer exists: set account_id to another account" });
    });
  });

  describe('currency', () => {
    it("gives a row without a currency column its account's currency, and one with the column its own", async () => {
      const h = await t.newHousehold();
      await newAccount(t, h, 'Euro', 'EUR');
      const named = await publishAndWait(t, h, { raw_file_content: 'date,amount,name,account\n2024-05-01,-10.00,Cafe,Euro\n2024-05-02,-1.00,Bus,Dollars', date_col_label: 'date', amount_col_label: 'amount' });
      const given = await publishAndWait(t, h, {
        raw_file_content: 'date,amount,name,account,currency\n2024-05-03,-5.00,Shop,Euro,GBP',
        date_col_label: 'date',
        amount_col_label: 'amount',
        currency_col_label: 'currency',
      });
      expect([named.status, given.status]).toEqual(['complete', 'complete']);
      const rows = await q(`SELECT e.name, e.currency, a.name AS account, a.currency AS account_currency FROM entries e JOIN accounts a ON a.id = e.account_id WHERE e.family_id = $1 ORDER BY e.date`, [h.familyId]);
      expect(rows).toEqual([
        { name: 'Cafe', currency: 'EUR', account: 'Euro', account_currency: 'EUR' },
        { name: 'Bus', currency: 'USD', account: 'Dollars', account_currency: 'USD' },
        { name: 'Shop', currency: 'GBP', account: 'Euro', account_currency: 'EUR' },
      ]);
    });
  });

  describe('trade currency', () => {
    it("gives a trade routed to an account by name, without a currency of its own, that account's currency", async () => {
      const h = await t.newHousehold();
      await newAccount(t, h, 'Depot', 'EUR');
      const imp = await publishAndWait(t, h, { type: 'TradeImport', raw_file_content: 'date,ticker,qty,price,account,currency\n2024-05-01,SAP,2,150,Depot,\n2024-05-02,AAPL,1,190,Depot,USD' });
      expect(imp.status).toBe('complete');
      const trades = await q(`SELECT s.ticker, t.currency, e.currency AS entry_currency FROM trades t JOIN entries e ON e.id = t.entry_id JOIN securities s ON s.id = t.security_id WHERE e.family_id = $1 ORDER BY e.date`, [h.familyId]);
      expect(trades).toEqual([
        { ticker: 'SAP', currency: 'EUR', entry_currency: 'EUR' },
        { ticker: 'AAPL', currency: 'USD', entry_currency: 'USD' },
      ]);
    });
  });

  describe('accounts a trade file names', () => {
    it('creates an account it names that the family lacks as an investment account, and finds an existing one of any type', async () => {
      const h = await t.newHousehold();
      await newAccount(t, h, 'Cash box', 'USD');
      const imp = await publishAndWait(t, h, { type: 'TradeImport', raw_file_content: 'date,ticker,qty,price,account\n2024-05-01,SAP,2,150,New broker\n2024-05-02,AAPL,1,190,Cash box' });
      expect(imp.status).toBe('complete');
      expect(await q(`SELECT name, accountable_type, classification FROM accounts WHERE family_id = $1 ORDER BY name`, [h.familyId])).toEqual([
        { name: 'Cash box', accountable_type: 'Depository', classification: 'asset' },
        { name: 'New broker', accountable_type: 'Investment', classification: 'asset' },
      ]);
    });
  });

  describe('QIF opening balance', () => {
    it("keeps one per account, the file's, and revert puts back the one it replaced", async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      await addOpeningBalance(t, h, account, '2020-01-01', 5000);
      const anchors = () => openingBalances(t, account);
      const first = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: QIF, account_id: account });
      const second = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: QIF, account_id: account });
      expect([first.status, second.status]).toEqual(['complete', 'complete']);
      expect(await anchors()).toEqual([{ date: '2023-12-31', amount: 100000 }]);

      await revertAndWait(t, h, second.id);
      expect(await anchors()).toEqual([{ date: '2023-12-31', amount: 100000 }]);
      await revertAndWait(t, h, first.id);
      expect(await anchors()).toEqual([{ date: '2020-01-01', amount: 5000 }]);
    });


    it("without one in the file, moves the account's to the day before the earliest row, keeping its amount, and revert puts its date back", async () => {
      const h = await t.newHousehold();
      const accounts = await publishAndWait(t, h, { type: 'AccountImport', raw_file_content: 'Account type,Name,Balance,Balance Date\nChecking,Main,500.00,2024-06-01' });
      expect(accounts.status).toBe('complete');
      const [{ id: account }] = await q(`SELECT id FROM accounts WHERE family_id = $1`, [h.familyId]);

      // The earliest row is not the file's first.
      const moved = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: bankQifWithout(['03/05/2024', '02/10/2024', '07/01/2024']), account_id: account });
      expect(moved.status).toBe('complete');
      expect(await openingBalances(t, account)).toEqual([{ date: '2024-02-09', amount: 50000 }]);
      expect((await revertAndWait(t, h, moved.id)).status).toBe('pending');
      expect(await openingBalances(t, account)).toEqual([{ date: '2024-06-01', amount: 50000 }]);

      // Rows from the opening balance's own day on leave it where it is.
      const later = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: bankQifWithout(['06/01/2024', '06/02/2024']), account_id: account });
      expect(later.status).toBe('complete');
      expect(await openingBalances(t, account)).toEqual([{ date: '2024-06-01', amount: 50000 }]);
      await revertAndWait(t, h, later.id);

      // A date the user changed since the publish is theirs: revert keeps it.
      const again = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: bankQifWithout(['02/10/2024']), account_id: account });
      expect(await openingBalances(t, account)).toEqual([{ date: '2024-02-09', amount: 50000 }]);
      await q(`UPDATE entries SET date = '2024-01-01' WHERE account_id = $1 AND entryable_type = 'Valuation'`, [account]);
      await revertAndWait(t, h, again.id);
      expect(await openingBalances(t, account)).toEqual([{ date: '2024-01-01', amount: 50000 }]);
    });

    it("moves it to before an earliest row that duplicates the account's own transaction, and revert leaves that transaction", async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      await addOpeningBalance(t, h, account, '2024-06-01', 5000);
      await q(
        `WITH e AS (INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency) VALUES ($1, $2, 'Transaction', '2024-01-05', 'Shop 0', 100, 'USD') RETURNING id)
         INSERT INTO transactions (entry_id) SELECT id FROM e`,
        [h.familyId, account],
      );
      const imp = await publishAndWait(t, h, { type: 'QifImport', raw_file_content: bankQifWithout(['01/05/2024', '03/01/2024']), account_id: account });
      expect(imp.status).toBe('complete');
      const [{ count }] = await q(`SELECT count(*)::int AS count FROM import_rows WHERE import_id = $1 AND duplicate_of IS NOT NULL`, [imp.id]);
      expect(count).toBe(2); // row 1 claims the transaction, row 2 records the move
      expect(await openingBalances(t, account)).toEqual([{ date: '2024-01-04', amount: 5000 }]);
      await revertAndWait(t, h, imp.id);
      expect(await openingBalances(t, account)).toEqual([{ date: '2024-06-01', amount: 5000 }]);
      expect(await q(`SELECT date::text AS date, name FROM entries WHERE account_id = $1 AND entryable_type = 'Transaction'`, [account])).toEqual([{ date: '2024-01-05', name: 'Shop 0' }]);
    });
  });

  describe('CategoryImport', () => {
    const categories = (h: Household) =>
      q(`SELECT c.name, c.color, c.lucide_icon AS icon, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id WHERE c.family_id = $1 ORDER BY c.name`, [h.familyId]);

    it('takes a name given twice as one category, later rows overriding what they give', async () => {
      const h = await t.newHousehold();
      const imp = await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: 'name,color,lucide_icon,parent_category\nFood,#111111,apple,\nFood,#222222,,\nFun,,,Food\nFun,,,' });
      expect({ status: imp.status, error: imp.error }).toEqual({ status: 'complete', error: null });
      expect(await categories(h)).toEqual([
        { name: 'Food', color: '#222222', icon: 'apple', parent: null },
        { name: 'Fun', color: '#222222', icon: 'shapes', parent: 'Food' },
      ]);
    });

    it("keeps an existing category's colour and icon when the file gives none", async () => {
      const h = await t.newHousehold();
      await q(`INSERT INTO categories (family_id, name, color, lucide_icon) VALUES ($1, 'Food', '#123456', 'apple'), ($1, 'Fun', '#654321', 'dice')`, [h.familyId]);
      const imp = await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: 'name,color,lucide_icon\nFood,,\nFun,#222222,\nNew,,' });
      expect(imp.status).toBe('complete');
      expect(await categories(h)).toEqual([
        { name: 'Food', color: '#123456', icon: 'apple', parent: null },
        { name: 'Fun', color: '#222222', icon: 'dice', parent: null },
        { name: 'New', color: '#737373', icon: 'shapes', parent: null },
      ]);
    });

    it('makes an existing subcategory top-level when no row gives it a parent, and revert puts the parent back', async () => {
      const h = await t.newHousehold();
      await q(`WITH top AS (INSERT INTO categories (family_id, name) VALUES ($1, 'Food') RETURNING id) INSERT INTO categories (family_id, name, parent_id) SELECT $1, n, id FROM top, unnest(ARRAY['Snacks', 'Drinks']) AS n`, [h.familyId]);
      const imp = await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: 'name,parent_category\nSnacks,\nDrinks,Food\nDrinks,' });
      expect({ status: imp.status, error: imp.error }).toEqual({ status: 'complete', error: null });
      const parents = async () => (await categories(h)).map((c: { name: string; parent: string | null }) => [c.name, c.parent]);
      expect(await parents()).toEqual([['Drinks', 'Food'], ['Food', null], ['Snacks', null]]);
      await revertAndWait(t, h, imp.id);
      expect(await parents()).toEqual([['Drinks', 'Food'], ['Food', null], ['Snacks', 'Food']]);
    });

    it("creates a parent it only names, and a rule's category, as Sure does: #737373 with the shapes icon, which a child takes", async () => {
      const h = await t.newHousehold();
      const imp = await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: 'name,color,parent_category\nKid,#111111,Named' });
      expect(imp.status).toBe('complete');
      const actions = JSON.stringify([{ action_type: 'set_transaction_category', value: 'Taxi' }]);
      const rules = `name,resource_type,conditions,actions\nRides,transaction,[],"${actions.replace(/"/g, '""')}"`;
      expect((await publishAndWait(t, h, { type: 'RuleImport', raw_file_content: rules })).status).toBe('complete');
      expect(await categories(h)).toEqual([
        { name: 'Kid', color: '#737373', icon: 'shapes', parent: 'Named' },
        { name: 'Named', color: '#737373', icon: 'shapes', parent: null },
        { name: 'Taxi', color: '#737373', icon: 'shapes', parent: null },
      ]);
    });

    it('refuses parents that make a cycle, within the file or through existing categories, and budgets keep working', async () => {
      const h = await t.newHousehold();
      const cycle = await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: 'name,parent_category\nA,B\nB,A' });
      expect({ status: cycle.status, error: cycle.error }).toEqual({ status: 'failed', error: "Row 1: category 'A' cannot have parent 'B': 'B' is itself under 'A'" });
      expect(await categories(h)).toEqual([]);

      await q(`WITH top AS (INSERT INTO categories (family_id, name) VALUES ($1, 'Top') RETURNING id) INSERT INTO categories (family_id, name, parent_id) SELECT $1, 'Low', id FROM top`, [h.familyId]);
      const through = await publishAndWait(t, h, { type: 'CategoryImport', raw_file_content: 'name,parent_category\nNew,\nTop,Low' });
      expect({ status: through.status, error: through.error }).toEqual({ status: 'failed', error: "Row 2: category 'Top' cannot have parent 'Low': 'Low' is itself under 'Top'" });
      expect((await categories(h)).map((c: { name: string; parent: string | null }) => [c.name, c.parent])).toEqual([['Low', 'Top'], ['Top', null]]);
      await request(t.server).post('/api/v1/budgets').set('X-Api-Key', h.apiKey).send({ start_date: '2025-01-15' }).expect(201);
    });
  });

  describe('RuleImport', () => {
    const ruleCsv = (rows: Array<[string, boolean, string]>) =>
      [
        'name,resource_type,active,effective_date,conditions,actions',
        ...rows.map(([name, active, like]) => {
          const conditions = JSON.stringify([{ condition_type: 'transaction_name', operator: 'like', value: like }]);
          const actions = JSON.stringify([{ action_type: 'set_transaction_category', value: 'Taxi' }]);
          return `${name},transaction,${active},2024-01-01,"${conditions.replace(/"/g, '""')}","${actions.replace(/"/g, '""')}"`;
        }),
      ].join('\n');
    const rules = (h: Household) =>
      q(`SELECT name, active, conditions->0->>'value' AS matches, import_id IS NOT NULL AS imported FROM rules WHERE family_id = $1 ORDER BY name, created_at`, [h.familyId]);

    it('replaces the rule of the same name and resource type instead of adding one, and revert puts it back', async () => {
      const h = await t.newHousehold();
      const first = await publishAndWait(t, h, { type: 'RuleImport', raw_file_content: ruleCsv([['Rides', true, 'uber'], ['Rides', false, 'lyft']]) });
      expect(first.status).toBe('complete');
      expect(await rules(h)).toEqual([{ name: 'Rides', active: false, matches: 'lyft', imported: true }]);

      await q(`INSERT INTO rules (family_id, name, conditions) VALUES ($1, 'Mine', '[{"value": "own"}]')`, [h.familyId]);
      const second = await publishAndWait(t, h, { type: 'RuleImport', raw_file_content: ruleCsv([['Rides', true, 'taxi'], ['Mine', true, 'theirs']]) });
      expect(second.status).toBe('complete');
      expect(await rules(h)).toEqual([
        { name: 'Mine', active: true, matches: 'theirs', imported: false },
        { name: 'Rides', active: true, matches: 'taxi', imported: true },
      ]);

      await revertAndWait(t, h, second.id);
      expect(await rules(h)).toEqual([
        { name: 'Mine', active: false, matches: 'own', imported: false },
        { name: 'Rides', active: false, matches: 'lyft', imported: true },
      ]);
    });
  });

  describe('names longer than the database holds', () => {
    it('are row errors that keep account, trade and QIF imports from publishing, instead of an internal error', async () => {
      const h = await t.newHousehold();
      const account = await newAccount(t, h);
      const long = (n: number) => 'n'.repeat(n);
      const attempts = [
        { type: 'AccountImport', raw_file_content: `Account type,Name,Balance\nChecking,${long(201)},5`, error: `Row 1: name '${long(40)}…' is too long: account names can have at most 200 characters` },
        { type: 'TradeImport', account_id: account, raw_file_content: `date,ticker,qty,price,name\n2024-05-01,AAPL,1,2,${long(501)}`, error: `Row 1: name '${long(40)}…' is too long: trade names can have at most 500 characters` },
        { type: 'QifImport', account_id: account, raw_file_content: `!Type:Bank\nD01/05/2024\nT-10\nP${long(501)}\n^\n`, error: `Row 1 (line 2): name '${long(40)}…' is too long: transaction names can have at most 500 characters` },
      ];
      for (const { error, ...body } of attempts) {
        const res = await createImport(t.server, h.apiKey, { ...body, publish: 'true' });
        expect({ type: body.type, status: res.status, body: res.body }).toEqual({
          type: body.type,
          status: 422,
          body: expect.objectContaining({ error: 'not_publishable', errors: ['1 rows are invalid', error] }),
        });
      }
      expect(await q(`SELECT name FROM accounts WHERE family_id = $1`, [h.familyId])).toEqual([{ name: 'Checking' }]);
      expect(await q(`SELECT id FROM entries WHERE family_id = $1`, [h.familyId])).toEqual([]);
    });
  });
});
