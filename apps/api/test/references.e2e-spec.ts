import { BudgetFixtures } from './support/budgets';
import { createImport, newAccount } from './support/imports';
import { startTestApp, TestApp } from './support/test-app';
import { until } from './support/until';

/**
 * The references the ledger and import rows keep through statement-level triggers instead of foreign keys
 * (migration StatementReferences) hold as the keys did: a write naming a missing row is refused and leaves
 * nothing, deletes cascade or clear, a referenced key cannot change, and a writer's references cannot be deleted
 * under it before it commits.
 */
describe('references checked per statement', () => {
  let t: TestApp;
  let fx: BudgetFixtures;
  beforeAll(async () => {
    t = await startTestApp();
    fx = new BudgetFixtures(t);
  });
  afterAll(() => t.close());

  const count = async (sql: string, params: unknown[]) => Number((await t.dataSource.query(sql, params))[0].count);
  const entryIn = (familyId: string, accountId: string) =>
    t.dataSource.query(
      `INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency)
       VALUES ($1, $2, 'Transaction', '2024-01-01', 'Stray', 100, 'USD') RETURNING id`,
      [familyId, accountId],
    );
  /** Resolves once a statement of another connection waits on a lock that `holder` (a query runner) holds. */
  const blockedBy = async (holder: { query: (sql: string) => Promise<Array<{ pid: number }>> }) => {
    const [{ pid }] = await holder.query(`SELECT pg_backend_pid() AS pid`);
    await until('a statement waiting on the lock', async () => count(`SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [pid]));
  };
  const merchant = async (familyId: string) =>
    (await t.dataSource.query(`INSERT INTO merchants (family_id, name) VALUES ($1, 'Corner shop') RETURNING id`, [familyId]))[0].id as string;

  it("refuses an entry filed under another family's account, or under no account", async () => {
    const mine = await t.newHousehold();
    const theirAccount = await newAccount(t, await t.newHousehold());
    await expect(entryIn(mine.familyId, theirAccount)).rejects.toThrow(/violates its foreign key to "accounts" \(id, family_id\)/);
    await expect(entryIn(mine.familyId, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ driverError: { code: '23503' } });
    expect(await count(`SELECT count(*) FROM entries WHERE family_id = $1`, [mine.familyId])).toBe(0);
  });

  it('refuses a whole multi-row write when one row names a missing row, and accepts NULL as naming nothing', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const [{ id: entry }] = await entryIn(h.familyId, account);
    const [{ id: other }] = await entryIn(h.familyId, account);
    await expect(
      t.dataSource.query(`INSERT INTO transactions (entry_id) VALUES ($1), (gen_random_uuid())`, [entry]),
    ).rejects.toThrow(/violates its foreign key to "entries"/);
    await expect(
      t.dataSource.query(`INSERT INTO transactions (entry_id, category_id) VALUES ($1, gen_random_uuid())`, [entry]),
    ).rejects.toThrow(/violates its foreign key to "categories"/);
    await expect(
      t.dataSource.query(`INSERT INTO transactions (entry_id, merchant_id) VALUES ($1, gen_random_uuid())`, [entry]),
    ).rejects.toThrow(/violates its foreign key to "merchants"/);
    expect(await count(`SELECT count(*) FROM transactions WHERE entry_id IN ($1, $2)`, [entry, other])).toBe(0);

    await t.dataSource.query(`INSERT INTO transactions (entry_id, category_id, merchant_id) VALUES ($1, NULL, NULL), ($2, NULL, NULL)`, [entry, other]);
    // An update is checked for the keys it changes.
    await expect(t.dataSource.query(`UPDATE transactions SET category_id = gen_random_uuid() WHERE entry_id = $1`, [entry])).rejects.toThrow(
      /violates its foreign key to "categories"/,
    );
    await t.dataSource.query(`UPDATE transactions SET pending = true WHERE entry_id IN ($1, $2)`, [entry, other]);
    expect(await count(`SELECT count(*) FROM transactions WHERE pending AND category_id IS NULL AND entry_id IN ($1, $2)`, [entry, other])).toBe(2);
  });

  it('deletes the entries and transactions of a deleted account, and uncategorises what a deleted category or merchant named', async () => {
    const h = await t.newHousehold();
    const home = { h };
    const checking = await fx.account(h.familyId, { name: 'Checking', currency: 'USD' });
    const savings = await fx.account(h.familyId, { name: 'Savings', currency: 'USD' });
    const food = await fx.category(h.familyId, 'Food');
    const shop = await merchant(h.familyId);
    const gone = await fx.entry(home, { account: checking, date: '2024-02-01', amount: 5, category: food });
    const kept = await fx.entry(home, { account: savings, date: '2024-02-02', amount: 7, category: food });
    await t.dataSource.query(`UPDATE transactions SET merchant_id = $2 WHERE entry_id = $1`, [kept, shop]);

    await t.dataSource.query(`DELETE FROM accounts WHERE id = $1`, [checking]);
    expect(await count(`SELECT count(*) FROM entries WHERE id = $1`, [gone])).toBe(0);
    expect(await count(`SELECT count(*) FROM transactions WHERE entry_id = $1`, [gone])).toBe(0);

    await t.dataSource.query(`DELETE FROM categories WHERE id = $1`, [food]);
    await t.dataSource.query(`DELETE FROM merchants WHERE id = $1`, [shop]);
    expect(await t.dataSource.query(`SELECT category_id, merchant_id FROM transactions WHERE entry_id = $1`, [kept])).toEqual([
      { category_id: null, merchant_id: null },
    ]);

    await t.dataSource.query(`DELETE FROM families WHERE id = $1`, [h.familyId]);
    expect(await count(`SELECT count(*) FROM entries WHERE id = $1`, [kept])).toBe(0);
    expect(await count(`SELECT count(*) FROM transactions WHERE entry_id = $1`, [kept])).toBe(0);
  });

  it("deletes a split's parts with it, and refuses a part of no entry", async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const [{ id: parent }] = await entryIn(h.familyId, account);
    const part = (parentId: string) =>
      t.dataSource.query(
        `INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency, parent_entry_id)
         VALUES ($1, $2, 'Transaction', '2024-01-01', 'Part', 50, 'USD', $3) RETURNING id`,
        [h.familyId, account, parentId],
      );
    const [{ id: first }] = await part(parent);
    const [{ id: nested }] = await part(first);
    await expect(part('00000000-0000-4000-8000-000000000000')).rejects.toThrow(/violates its foreign key to "entries" \(id\)/);
    await t.dataSource.query(`DELETE FROM entries WHERE id = $1`, [parent]);
    expect(await count(`SELECT count(*) FROM entries WHERE id IN ($1, $2)`, [first, nested])).toBe(0);
  });

  it("deletes an entry's taggings, trade, valuation and transfer with it, and a tag's taggings with the tag", async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const [[{ id: spent }], [{ id: received }], [{ id: traded }], [{ id: valued }]] = await Promise.all(
      [1, 2, 3, 4].map(() => entryIn(h.familyId, account)),
    );
    const tag = async (name: string) =>
      (await t.dataSource.query(`INSERT INTO tags (family_id, name) VALUES ($1, $2) RETURNING id`, [h.familyId, name]))[0].id as string;
    const [kept, dropped] = [await tag('Kept'), await tag('Dropped')];
    await t.dataSource.query(`INSERT INTO taggings (tag_id, entry_id) VALUES ($1, $3), ($2, $3), ($1, $4)`, [kept, dropped, spent, received]);
    const [{ id: security }] = await t.dataSource.query(`INSERT INTO securities (ticker) VALUES ($1) RETURNING id`, [`REF${Date.now() % 1e6}`]);
    await t.dataSource.query(`INSERT INTO trades (entry_id, security_id, qty, price, currency) VALUES ($1, $2, 1, 100, 'USD')`, [traded, security]);
    await t.dataSource.query(`INSERT INTO valuations (entry_id) VALUES ($1)`, [valued]);
    await t.dataSource.query(`INSERT INTO transfers (family_id, inflow_entry_id, outflow_entry_id) VALUES ($1, $2, $3)`, [h.familyId, received, spent]);
    await expect(t.dataSource.query(`INSERT INTO taggings (tag_id, entry_id) VALUES (gen_random_uuid(), $1)`, [valued])).rejects.toThrow(
      /violates its foreign key to "tags"/,
    );
    await expect(t.dataSource.query(`INSERT INTO valuations (entry_id) VALUES (gen_random_uuid())`)).rejects.toThrow(/violates its foreign key to "entries"/);

    await t.dataSource.query(`DELETE FROM tags WHERE id = $1`, [dropped]);
    expect(await count(`SELECT count(*) FROM taggings WHERE tag_id = $1`, [dropped])).toBe(0);
    await t.dataSource.query(`DELETE FROM entries WHERE id = ANY($1::uuid[])`, [[spent, traded, valued]]);
    expect(
      await t.dataSource.query(
        `SELECT (SELECT count(*)::int FROM taggings WHERE tag_id = $1) AS taggings, (SELECT count(*)::int FROM trades WHERE entry_id = $2) AS trades,
                (SELECT count(*)::int FROM valuations WHERE entry_id = $3) AS valuations, (SELECT count(*)::int FROM transfers WHERE inflow_entry_id = $4) AS transfers`,
        [kept, traded, valued, received],
      ),
    ).toEqual([{ taggings: 1, trades: 0, valuations: 0, transfers: 0 }]); // the received entry keeps its tag
  });

  it('refuses to change a key other rows refer to', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const food = await fx.category(h.familyId, 'Food');
    await expect(t.dataSource.query(`UPDATE accounts SET id = gen_random_uuid() WHERE id = $1`, [account])).rejects.toThrow(
      /the key of a row in "accounts" cannot change/,
    );
    await expect(t.dataSource.query(`UPDATE categories SET id = gen_random_uuid() WHERE id = $1`, [food])).rejects.toThrow(/cannot change/);
    await t.dataSource.query(`UPDATE accounts SET name = 'Renamed' WHERE id = $1`, [account]);
    expect(await count(`SELECT count(*) FROM accounts WHERE id = $1 AND name = 'Renamed'`, [account])).toBe(1);
  });

  it('ties import rows to their import: no rows for a missing import, none left after it', async () => {
    const h = await t.newHousehold();
    const res = await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount,name\n2024-01-01,-1.00,A\n2024-01-02,-2.00,B\n' }).expect(201);
    const id = res.body.data.id;
    expect(await count(`SELECT count(*) FROM import_rows WHERE import_id = $1`, [id])).toBe(2);
    await expect(
      t.dataSource.query(`INSERT INTO import_rows (import_id, source_row_number, "values") VALUES (gen_random_uuid(), 1, '{}'), ($1, 3, '{}')`, [id]),
    ).rejects.toThrow(/violates its foreign key to "imports"/);
    expect(await count(`SELECT count(*) FROM import_rows WHERE import_id = $1`, [id])).toBe(2);
    await t.dataSource.query(`DELETE FROM imports WHERE id = $1`, [id]);
    expect(await count(`SELECT count(*) FROM import_rows WHERE import_id = $1`, [id])).toBe(0);
  });

  (process.env.DATABASE_URL ? it : it.skip)('keeps an account a writer refers to until the writer commits, then deletes what it wrote', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const writer = t.dataSource.createQueryRunner();
    await writer.connect();
    try {
      await writer.startTransaction();
      const [{ id }] = await writer.query(
        `INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency)
         VALUES ($1, $2, 'Transaction', '2024-01-01', 'In flight', 100, 'USD') RETURNING id`,
        [h.familyId, account],
      );
      const deletion = t.dataSource.query(`DELETE FROM accounts WHERE id = $1`, [account]);
      // The delete waits on the writer's lock on the account...
      await blockedBy(writer);
      await writer.commitTransaction();
      await deletion;
      // ...and once it may go on, it takes the committed entry with it.
      expect(await count(`SELECT count(*) FROM entries WHERE id = $1`, [id])).toBe(0);
    } finally {
      await writer.release();
    }
  });

  (process.env.DATABASE_URL ? it : it.skip)('refuses a write that names an account deleted before the write commits', async () => {
    const h = await t.newHousehold();
    const account = await newAccount(t, h);
    const deleter = t.dataSource.createQueryRunner();
    await deleter.connect();
    try {
      await deleter.startTransaction();
      await deleter.query(`DELETE FROM accounts WHERE id = $1`, [account]);
      const write = entryIn(h.familyId, account).catch((error: Error) => error);
      await blockedBy(deleter);
      await deleter.commitTransaction();
      expect(await write).toMatchObject({ message: expect.stringMatching(/violates its foreign key to "accounts"/) });
      expect(await count(`SELECT count(*) FROM entries WHERE account_id = $1`, [account])).toBe(0);
    } finally {
      await deleter.release();
    }
  });
});
