import request from 'supertest';
import { createImport, newAccount, publishAndWait, waitForImport } from './support/imports';
import { Household, startTestApp, TestApp } from './support/test-app';

// ServiceImport (the service's own NDJSON) and family export through the HTTP API on the real database and queue:
// round trip, verification readback, revert + re-import, and the NDJSON cases of the hostile-input harness's group D.

const line = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => JSON.stringify({ type, data, ...extra });

/** A household's history touching every type Hearth stores; opening anchors are explicit, so the readback matches. */
const FAMILY_FILE = [
  line('Account', { id: 'acc-1', name: 'Everyday Checking', balance: '2500.00', currency: 'EUR', accountable_type: 'Depository', accountable: { subtype: 'checking' } }),
  line('Account', { id: 'acc-2', name: 'Visa', balance: '310.45', currency: 'EUR', accountable_type: 'CreditCard', institution_name: 'Bank', notes: 'main card' }),
  line('Account', { id: 'acc-3', name: 'Brokerage', balance: '1000', currency: 'USD', accountable_type: 'Investment' }),
  line('Valuation', { id: 'val-1', account_id: 'acc-1', date: '2024-12-31', amount: '2000.00', kind: 'opening_anchor' }),
  line('Valuation', { id: 'val-2', account_id: 'acc-2', date: '2024-12-31', amount: '0', kind: 'opening_anchor' }),
  line('Valuation', { id: 'val-3', account_id: 'acc-3', date: '2024-12-31', amount: '500', kind: 'opening_anchor', name: 'Start' }),
  line('Category', { id: 'cat-2', name: 'Electricity', parent_id: 'cat-1', color: '#6471eb', lucide_icon: 'zap' }),
  line('Category', { id: 'cat-1', name: 'Utilities', color: '#6471eb', lucide_icon: 'plug' }),
  line('Category', { id: 'cat-3', name: 'Groceries', color: '#4da568', lucide_icon: 'shopping-cart' }),
  line('Tag', { id: 'tag-1', name: 'Monthly', color: '#4da568' }),
  line('Tag', { id: 'tag-2', name: 'Shared', color: '#e99537' }),
  line('Merchant', { id: 'mer-1', name: 'City Power', color: '#db5a54', website_url: 'https://citypower.example' }),
  line('Transaction', { id: 'txn-1', account_id: 'acc-1', date: '2025-01-05', amount: '84.20', name: 'Electricity January', category_id: 'cat-2', merchant_id: 'mer-1', tag_ids: ['tag-1', 'tag-2'], notes: 'meter 4411' }),
  line('Transaction', { id: 'txn-2', account_id: 'acc-1', date: '2025-01-10', amount: '-1500.00', name: 'Salary' }),
  line('Transaction', {
    id: 'txn-3', account_id: 'acc-2', date: '2025-01-12', amount: '120.00', name: 'Market run', tag_ids: ['tag-2'],
    split_lines: [{ id: 'spl-1', amount: '100.00', name: 'Food', category_id: 'cat-3' }, { id: 'spl-2', amount: '20.00', name: 'Power top-up', category_id: 'cat-1', tag_ids: [] }],
  }),
  line('Transaction', { id: 'txn-4', account_id: 'acc-1', date: '2025-01-20', amount: '200.00', name: 'Card payment', kind: 'cc_payment' }),
  line('Transaction', { id: 'txn-5', account_id: 'acc-2', date: '2025-01-20', amount: '-200.00', name: 'Payment received', kind: 'funds_movement' }),
  line('Transfer', { inflow_transaction_id: 'txn-5', outflow_transaction_id: 'txn-4', status: 'confirmed', notes: null }),
  line('Trade', { id: 'trd-1', account_id: 'acc-3', date: '2025-01-15', amount: '1523.40', qty: '10', price: '152.34', ticker: 'aapl', exchange_operating_mic: 'XNAS', currency: 'USD' }),
  line('Budget', { id: 'bud-1', start_date: '2025-01-01', end_date: '2025-01-31', budgeted_spending: '1200', expected_income: '1500', currency: 'EUR' }),
  line('BudgetCategory', { budget_id: 'bud-1', category_id: 'cat-1', budgeted_spending: '150' }),
  line('Rule', { id: 'rule-1', name: 'Power bills', resource_type: 'transaction', active: true, effective_date: '2025-01-01',
    conditions: [{ condition_type: 'transaction_name', operator: 'like', value: 'electric' }],
    actions: [{ action_type: 'set_transaction_category', value: 'Electricity', value_ref: { type: 'Category', id: 'cat-2', name: 'Electricity' } }] }, { version: 1 }),
].join('\n');

const EXPECTED_FAMILY_COUNTS = {
  accounts: 3, balances: 0, categories: 3, tags: 2, merchants: 1, recurring_transactions: 0, transactions: 5, transfers: 1, rejected_transfers: 0,
  trades: 1, holdings: 0, valuations: 3, budgets: 1, budget_categories: 1, rules: 1,
};

describe('ServiceImport and family export', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const get = (h: Household, path: string) => request(t.server).get(`/api/v1${path}`).set('X-Api-Key', h.apiKey);
  const ndjson = (h: Household, text: string, publish = false) =>
    createImport(t.server, h.apiKey, { type: 'ServiceImport', raw_file_content: text, ...(publish ? { publish: 'true' } : {}) });
  async function importAndWait(h: Household, text: string) {
    const res = await ndjson(h, text, true);
    expect({ status: res.status, body: res.status === 201 ? res.body.data.status : res.body }).toEqual({ status: 201, body: 'importing' });
    return waitForImport(t.server, h.apiKey, res.body.data.id);
  }

  /** Everything a ServiceImport can write for a family, counted. */
  const familyData = async (familyId: string) =>
    (
      await t.dataSource.query(
        `SELECT (SELECT count(*)::int FROM accounts WHERE family_id = $1) AS accounts,
                (SELECT count(*)::int FROM entries WHERE family_id = $1) AS entries,
                (SELECT count(*)::int FROM transfers WHERE family_id = $1) AS transfers,
                (SELECT count(*)::int FROM categories WHERE family_id = $1) AS categories,
                (SELECT count(*)::int FROM tags WHERE family_id = $1) AS tags,
                (SELECT count(*)::int FROM merchants WHERE family_id = $1) AS merchants,
                (SELECT count(*)::int FROM budgets WHERE family_id = $1) AS budgets,
                (SELECT count(*)::int FROM rules WHERE family_id = $1) AS rules`,
        [familyId],
      )
    )[0];

  describe('publish and verification', () => {
    it('shows expected counts and not_verified at upload, then publishes every type with a matched readback', async () => {
      const h = await t.newHousehold({ currency: 'EUR' });
      const created = await createImport(t.server, h.apiKey, { type: 'SureImport', raw_file_content: FAMILY_FILE }).expect(201);
      expect(created.body.data).toMatchObject({
        type: 'ServiceImport', status: 'pending',
        stats: { rows_count: 22, valid_rows_count: 22, invalid_rows_count: 0 },
        status_detail: { uploaded: true, publishable: true },
        verification: { expected_record_counts: EXPECTED_FAMILY_COUNTS, readback: { status: 'not_verified', checked_at: null } },
      });
      await request(t.server).post(`/api/v1/imports/${created.body.data.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      const done = await waitForImport(t.server, h.apiKey, created.body.data.id);
      expect(done.status).toBe('complete');
      const zero = Object.fromEntries(Object.keys(EXPECTED_FAMILY_COUNTS).map((k) => [k, 0]));
      expect(done.verification.readback).toMatchObject({
        status: 'matched',
        expected_record_counts: EXPECTED_FAMILY_COUNTS,
        before_counts: zero,
        // Split children are parts of one transaction line: the readback counts top-level transactions.
        after_counts: EXPECTED_FAMILY_COUNTS,
        actual_delta_counts: EXPECTED_FAMILY_COUNTS,
        checked_counts: EXPECTED_FAMILY_COUNTS,
        mismatches: {},
      });
      expect(Date.parse(done.verification.readback.checked_at)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('reports mismatch with the real numbers when the database changes behind the import', async () => {
      const h = await t.newHousehold({ currency: 'EUR' });
      // A trigger stands for a concurrent writer: every account this family gains brings an extra tag with it.
      await t.dataSource.query(`CREATE OR REPLACE FUNCTION hearth_test_extra_tag() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.family_id = '${h.familyId}' THEN INSERT INTO tags (family_id, name) VALUES (NEW.family_id, 'behind ' || NEW.name); END IF;
          RETURN NEW;
        END $$`);
      await t.dataSource.query(`CREATE TRIGGER hearth_test_extra_tag AFTER INSERT ON accounts FOR EACH ROW EXECUTE FUNCTION hearth_test_extra_tag()`);
      try {
        const done = await importAndWait(h, FAMILY_FILE);
        expect(done.status).toBe('complete'); // a mismatch is reported, not fatal
        expect(done.verification.readback).toMatchObject({
          status: 'mismatch',
          before_counts: { tags: 0 },
          after_counts: { tags: 5 },
          actual_delta_counts: { tags: 5, accounts: 3 },
          checked_counts: { tags: 2 },
          mismatches: { tags: { expected: 2, actual: 5 } },
        });
        expect(Object.keys(done.verification.readback.mismatches)).toEqual(['tags']);
      } finally {
        await t.dataSource.query(`DROP TRIGGER hearth_test_extra_tag ON accounts`);
        await t.dataSource.query(`DROP FUNCTION hearth_test_extra_tag()`);
      }
    });

    it('counts the synthesized opening balance as a valuation mismatch, like Sure', async () => {
      const h = await t.newHousehold();
      const file = [
        line('Account', { id: 'a', name: 'Savings', balance: '1000.00', accountable_type: 'Depository', accountable: { subtype: 'savings' } }),
        line('Transaction', { id: 't', account_id: 'a', date: '2025-03-10', amount: '12.00', name: 'Fee' }),
      ].join('\n');
      const done = await importAndWait(h, file);
      expect(done.verification.readback.mismatches).toEqual({ valuations: { expected: 0, actual: 1 } });
      const anchors = await t.dataSource.query(
        `SELECT e.date::text AS date, e.amount_minor::int AS amount, v.kind FROM entries e JOIN valuations v ON v.entry_id = e.id WHERE e.family_id = $1`,
        [h.familyId],
      );
      expect(anchors).toEqual([{ date: '2025-03-09', amount: 100000, kind: 'opening_anchor' }]);
    });

    it('reverts everything it created, taxonomy and budgets included, and the same file imports again', async () => {
      const h = await t.newHousehold({ currency: 'EUR' });
      const empty = await familyData(h.familyId);
      const first = await importAndWait(h, FAMILY_FILE);
      expect(first.status).toBe('complete');
      expect(await familyData(h.familyId)).toEqual({ accounts: 3, entries: 11, transfers: 1, categories: 3, tags: 2, merchants: 1, budgets: 1, rules: 1 });
      await request(t.server).post(`/api/v1/imports/${first.id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
      const reverted = await waitForImport(t.server, h.apiKey, first.id);
      expect(reverted.status).toBe('pending');
      expect(reverted.verification.readback).toEqual({ status: 'reverted', checked_at: expect.any(String) });
      expect(await familyData(h.familyId)).toEqual(empty);
      expect(Number((await t.dataSource.query(`SELECT count(*) FROM budget_categories bc JOIN budgets b ON b.id = bc.budget_id WHERE b.family_id = $1`, [h.familyId]))[0].count)).toBe(0);

      // Publish the same import again, then the same file as a new import is blocked by its own taxonomy.
      await request(t.server).post(`/api/v1/imports/${first.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      const again = await waitForImport(t.server, h.apiKey, first.id);
      expect({ status: again.status, readback: again.verification.readback.status }).toEqual({ status: 'complete', readback: 'matched' });
      await request(t.server).post(`/api/v1/imports/${first.id}/revert`).set('X-Api-Key', h.apiKey).expect(202);
      await waitForImport(t.server, h.apiKey, first.id);
      const second = await importAndWait(h, FAMILY_FILE);
      expect({ status: second.status, readback: second.verification.readback.status }).toEqual({ status: 'complete', readback: 'matched' });
    });

    it('resumes a publish that failed after a committed chunk: no duplicate, no self-collision, readback over both attempts', async () => {
      const h = await t.newHousehold();
      const file = [
        ...Array.from({ length: 5001 }, (_, i) => line('Tag', { id: `t${i}`, name: `Tag ${i}` })),
        line('Budget', { id: 'b1', start_date: '2025-02-01', end_date: '2025-02-28' }),
        line('Rule', { id: 'r1', name: 'Breaks once', active: false }),
      ].join('\n');
      // The rules insert fails once: the first chunk (5,000 tags) is committed, the second rolls back.
      await t.dataSource.query(`CREATE OR REPLACE FUNCTION hearth_test_fail_rule() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.family_id = '${h.familyId}' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`);
      await t.dataSource.query(`CREATE TRIGGER hearth_test_fail_rule BEFORE INSERT ON rules FOR EACH ROW EXECUTE FUNCTION hearth_test_fail_rule()`);
      let failed;
      try {
        failed = await importAndWait(h, file);
      } finally {
        await t.dataSource.query(`DROP TRIGGER hearth_test_fail_rule ON rules`);
        await t.dataSource.query(`DROP FUNCTION hearth_test_fail_rule()`);
      }
      expect(failed.status).toBe('failed');
      expect(failed.error).not.toMatch(/injected|SQL|INSERT/);
      expect(failed.verification.readback).toMatchObject({ status: 'failed', error: expect.any(String) });
      expect(await familyData(h.familyId)).toMatchObject({ tags: 5000, budgets: 0, rules: 0 });

      await request(t.server).post(`/api/v1/imports/${failed.id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      const resumed = await waitForImport(t.server, h.apiKey, failed.id);
      expect(resumed.status).toBe('complete');
      expect(resumed.verification.readback).toMatchObject({ status: 'matched', before_counts: { tags: 0 }, after_counts: { tags: 5001, budgets: 1, rules: 1 } });
      expect(await familyData(h.familyId)).toMatchObject({ tags: 5001, budgets: 1, rules: 1 });
    });

    it('plans again at publish when the family currency changed since upload: records naming none are checked and stored in the new one', async () => {
      const h = await t.newHousehold({ currency: 'USD' });
      const file = [
        line('Account', { id: 'a1', name: 'Wallet', balance: '10', accountable_type: 'Depository', skip_opening_balance_import: true }),
        line('Trade', { id: 'tr1', account_id: 'a1', date: '2025-01-02', amount: '100.50', qty: '1', price: '100', fee: '0.50', ticker: 'AAPL' }),
      ].join('\n');
      const uploaded = await ndjson(h, file).expect(201);
      const id = uploaded.body.data.id;
      const publish = () => request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey);
      const rowCurrencies = async () => (await get(h, `/imports/${id}/rows`).expect(200)).body.data.map((r: { fields: { currency: string } }) => r.fields.currency);
      expect(await rowCurrencies()).toEqual(['USD', 'USD']);

      // The yen has no minor unit: a fee of 0.50 cannot be stored in it.
      await t.dataSource.query(`UPDATE families SET currency = 'JPY' WHERE id = $1`, [h.familyId]);
      const refused = await publish().expect(422);
      expect(refused.body).toMatchObject({ error: 'preflight_failed', errors: expect.arrayContaining([expect.stringContaining('JPY')]) });
      expect(await rowCurrencies()).toEqual(['JPY', 'JPY']);

      await t.dataSource.query(`UPDATE families SET currency = 'EUR' WHERE id = $1`, [h.familyId]);
      await publish().expect(202);
      expect((await waitForImport(t.server, h.apiKey, id)).status).toBe('complete');
      expect(
        await t.dataSource.query(
          `SELECT a.currency AS account, e.currency AS entry, e.amount_minor::int AS amount, t.fee_minor::int AS fee FROM entries e JOIN accounts a ON a.id = e.account_id JOIN trades t ON t.entry_id = e.id WHERE e.family_id = $1`,
          [h.familyId],
        ),
      ).toEqual([{ account: 'EUR', entry: 'EUR', amount: 10050, fee: 50 }]);
    });

    it('stores amounts exactly and links taxonomy, splits, transfers and trades to the new ids', async () => {
      const h = await t.newHousehold({ currency: 'EUR' });
      await importAndWait(h, FAMILY_FILE);
      // The new ids are uuids the API itself accepts (they once failed its own uuid checks: 404 and 422).
      const [budget] = await t.dataSource.query(`SELECT id FROM budgets WHERE family_id = $1`, [h.familyId]);
      await get(h, `/budgets/${budget.id}`).expect(200);
      const [checking] = await t.dataSource.query(`SELECT id FROM accounts WHERE family_id = $1 AND name = 'Everyday Checking'`, [h.familyId]);
      expect((await createImport(t.server, h.apiKey, { raw_file_content: 'date,amount\n2025-02-01,1', account_id: checking.id })).status).toBe(201);
      const rows = await t.dataSource.query(
        `SELECT e.name, e.amount_minor::text AS amount, e.currency, e.excluded, p.name AS parent, c.name AS category, pc.name AS category_parent,
                m.name AS merchant, tr.kind,
                (SELECT string_agg(g.name, '|' ORDER BY g.name) FROM taggings tg JOIN tags g ON g.id = tg.tag_id WHERE tg.entry_id = e.id) AS tags
           FROM entries e JOIN transactions tr ON tr.entry_id = e.id LEFT JOIN entries p ON p.id = e.parent_entry_id
           LEFT JOIN categories c ON c.id = tr.category_id LEFT JOIN categories pc ON pc.id = c.parent_id LEFT JOIN merchants m ON m.id = tr.merchant_id
          WHERE e.family_id = $1 ORDER BY e.date, e.name`,
        [h.familyId],
      );
      expect(rows).toEqual([
        { name: 'Electricity January', amount: '8420', currency: 'EUR', excluded: false, parent: null, category: 'Electricity', category_parent: 'Utilities', merchant: 'City Power', kind: 'standard', tags: 'Monthly|Shared' },
        { name: 'Salary', amount: '-150000', currency: 'EUR', excluded: false, parent: null, category: null, category_parent: null, merchant: null, kind: 'standard', tags: null },
        { name: 'Food', amount: '10000', currency: 'EUR', excluded: false, parent: 'Market run', category: 'Groceries', category_parent: null, merchant: null, kind: 'standard', tags: 'Shared' },
        { name: 'Market run', amount: '12000', currency: 'EUR', excluded: true, parent: null, category: null, category_parent: null, merchant: null, kind: 'standard', tags: 'Shared' },
        { name: 'Power top-up', amount: '2000', currency: 'EUR', excluded: false, parent: 'Market run', category: 'Utilities', category_parent: null, merchant: null, kind: 'standard', tags: null },
        { name: 'Card payment', amount: '20000', currency: 'EUR', excluded: false, parent: null, category: null, category_parent: null, merchant: null, kind: 'cc_payment', tags: null },
        { name: 'Payment received', amount: '-20000', currency: 'EUR', excluded: false, parent: null, category: null, category_parent: null, merchant: null, kind: 'funds_movement', tags: null },
      ]);
      const [transfer] = await t.dataSource.query(
        `SELECT i.name AS inflow, o.name AS outflow, x.status FROM transfers x JOIN entries i ON i.id = x.inflow_entry_id JOIN entries o ON o.id = x.outflow_entry_id WHERE x.family_id = $1`,
        [h.familyId],
      );
      expect(transfer).toEqual({ inflow: 'Payment received', outflow: 'Card payment', status: 'confirmed' });
      const [trade] = await t.dataSource.query(
        `SELECT e.name, e.amount_minor::int AS amount, e.currency, t.qty::float AS qty, s.ticker, s.exchange_operating_mic AS mic
           FROM entries e JOIN trades t ON t.entry_id = e.id JOIN securities s ON s.id = t.security_id WHERE e.family_id = $1`,
        [h.familyId],
      );
      expect(trade).toEqual({ name: 'Buy AAPL', amount: 152340, currency: 'USD', qty: 10, ticker: 'AAPL', mic: 'XNAS' });
      const [rule] = await t.dataSource.query(`SELECT actions FROM rules WHERE family_id = $1`, [h.familyId]);
      const [electricity] = await t.dataSource.query(`SELECT id FROM categories WHERE family_id = $1 AND name = 'Electricity'`, [h.familyId]);
      expect(rule.actions).toEqual([{ action_type: 'set_transaction_category', value: electricity.id }]);
    });
    it('sets the kinds of a transfer\'s transactions by its accounts, as Sure does', async () => {
      const h = await t.newHousehold();
      const acc = (id: string, type: string) => line('Account', { id, name: id, balance: '0', accountable_type: type, skip_opening_balance_import: true });
      const tx = (id: string, account: string, amount: string) => line('Transaction', { id, account_id: account, date: '2025-01-10', amount, name: id });
      const pair = (to: string, type: string) => [acc(to, type), tx(`out-${to}`, 'checking', '50'), tx(`in-${to}`, to, '-50'), line('Transfer', { inflow_transaction_id: `in-${to}`, outflow_transaction_id: `out-${to}` })];
      const done = await importAndWait(h, [
        acc('checking', 'Depository'), ...pair('savings', 'Depository'), ...pair('card', 'CreditCard'), ...pair('mortgage', 'Loan'), ...pair('broker', 'Investment'),
        tx('lunch', 'checking', '12'),
      ].join('\n'));
      expect(done.status).toBe('complete');
      const kinds = await t.dataSource.query(
        `SELECT e.name, t.kind FROM entries e JOIN transactions t ON t.entry_id = e.id WHERE e.family_id = $1 ORDER BY e.name`,
        [h.familyId],
      );
      expect(Object.fromEntries(kinds.map((k: { name: string; kind: string }) => [k.name, k.kind]))).toEqual({
        'in-broker': 'funds_movement', 'in-card': 'funds_movement', 'in-mortgage': 'funds_movement', 'in-savings': 'funds_movement',
        'out-broker': 'investment_contribution', 'out-card': 'cc_payment', 'out-mortgage': 'loan_payment', 'out-savings': 'funds_movement',
        lunch: 'standard',
      });
    });
  });

  describe('family export', () => {
    /** Exports through the API (job) and returns the downloaded NDJSON. */
    async function exportFamily(h: Household): Promise<string> {
      const created = await request(t.server).post('/api/v1/family_exports').set('X-Api-Key', h.apiKey).expect(201);
      expect(created.body.data).toMatchObject({ status: expect.stringMatching(/pending|processing|completed/), file_name: expect.stringMatching(/^hearth_export_\d{8}_\d{6}\.ndjson$/) });
      const deadline = Date.now() + 30_000;
      for (;;) {
        const shown = await get(h, `/family_exports/${created.body.data.id}`).expect(200);
        if (shown.body.data.status === 'completed') break;
        expect(shown.body.data.status).not.toBe('failed');
        if (Date.now() > deadline) throw new Error('export did not complete');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const file = await get(h, `/family_exports/${created.body.data.id}/download`).buffer(true).parse((res, cb) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => cb(null, body));
      }).expect(200);
      expect(file.headers['content-type']).toMatch(/^application\/x-ndjson/);
      return file.body as string;
    }

    /** Replaces every uuid by its order of first appearance: two exports of the same data become identical. */
    const normaliseIds = (ndjson: string) => {
      const seen = new Map<string, string>();
      return ndjson.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
        if (!seen.has(id)) seen.set(id, `id-${seen.size + 1}`);
        return seen.get(id)!;
      });
    };

    it('round trip: export family A, import into empty family B, export B: equal after id normalisation', async () => {
      const a = await t.newHousehold({ currency: 'EUR' });
      const b = await t.newHousehold({ currency: 'EUR' });
      await importAndWait(a, FAMILY_FILE);
      const exportA = await exportFamily(a);
      expect(exportA.split('\n')).toHaveLength(22);

      const imported = await importAndWait(b, exportA);
      expect(imported.status).toBe('complete');
      expect(imported.verification.readback).toMatchObject({ status: 'matched', mismatches: {} });
      const exportB = await exportFamily(b);

      expect(exportB).not.toEqual(exportA); // different ids...
      expect(normaliseIds(exportB)).toEqual(normaliseIds(exportA)); // ...same data
      const types = exportA.split('\n').map((l) => JSON.parse(l).type);
      expect([...new Set(types)]).toEqual(['Account', 'Category', 'Tag', 'Merchant', 'Transaction', 'Transfer', 'Trade', 'Valuation', 'Budget', 'BudgetCategory', 'Rule']);
      const electricity = exportA.split('\n').map((l) => JSON.parse(l)).find((r) => r.type === 'Transaction' && r.data.name === 'Electricity January');
      expect(electricity.data).toMatchObject({ amount: '84.20', currency: 'EUR', date: '2025-01-05', notes: 'meter 4411' });
    });

    it('round trip of an account without an opening balance: the import adds none, the readback matches', async () => {
      const a = await t.newHousehold();
      const b = await t.newHousehold();
      // A CSV import whose account column names a new account: it is created without an opening_anchor valuation.
      const csv = 'Date,Amount,Name,Account\n2025-02-03,-12.50,Cafe,Wallet\n2025-02-04,-3.00,Bus,Wallet';
      const csvImport = { raw_file_content: csv, date_col_label: 'Date', amount_col_label: 'Amount', name_col_label: 'Name', account_col_label: 'Account', date_format: '%Y-%m-%d' };
      expect((await publishAndWait(t, a, csvImport)).status).toBe('complete');
      const valuations = (familyId: string) =>
        t.dataSource.query(`SELECT count(*)::int AS n FROM entries WHERE family_id = $1 AND entryable_type = 'Valuation'`, [familyId]);
      expect(await valuations(a.familyId)).toEqual([{ n: 0 }]);

      const exportA = await exportFamily(a);
      const imported = await importAndWait(b, exportA);
      expect(imported.status).toBe('complete');
      expect(imported.verification.readback).toMatchObject({ status: 'matched', mismatches: {} });
      expect(await valuations(b.familyId)).toEqual([{ n: 0 }]);
      expect(normaliseIds(await exportFamily(b))).toEqual(normaliseIds(exportA));
    });

    it("carries each trade's fee through export and import, in the trade's currency", async () => {
      const a = await t.newHousehold();
      const b = await t.newHousehold();
      const fees = (familyId: string) =>
        t.dataSource.query(
          `SELECT e.name, tr.fee_minor::int AS fee, tr.currency FROM trades tr JOIN entries e ON e.id = tr.entry_id WHERE e.family_id = $1 ORDER BY e.date`,
          [familyId],
        );
      // A's trades come from QIF files (the commission O is the fee), so this test does not lean on the NDJSON reader.
      const trades = [
        [await newAccount(t, a, 'Brokerage'), '!Type:Invst\nD03/01/2024\nNBuy\nYAAPL\nI100\nQ10\nT1009.95\nO9.95\n^\nD03/02/2024\nNSell\nYAAPL\nI110\nQ2\nT210.05\nO9.95\n^\nD03/03/2024\nNBuy\nYAAPL\nI50\nQ3\n^\n'],
        [await newAccount(t, a, 'Yen brokerage', 'JPY'), '!Type:Invst\nD03/04/2024\nNBuy\nY7203\nI3000\nQ100\nT300500\nO500\n^\n'],
      ];
      for (const [accountId, qif] of trades) expect((await publishAndWait(t, a, { type: 'QifImport', raw_file_content: qif, account_id: accountId })).status).toBe('complete');
      const expected = [
        { name: 'Buy 10 AAPL', fee: 995, currency: 'USD' },
        { name: 'Sell 2 AAPL', fee: 995, currency: 'USD' },
        { name: 'Buy 3 AAPL', fee: 0, currency: 'USD' },
        { name: 'Buy 100 7203', fee: 500, currency: 'JPY' },
      ];
      expect(await fees(a.familyId)).toEqual(expected);

      const exported = await exportFamily(a);
      const written = exported.split('\n').map((l) => JSON.parse(l)).filter((r) => r.type === 'Trade').map((r) => [r.data.name, r.data.fee]);
      expect(written).toEqual([['Buy 10 AAPL', '9.95'], ['Sell 2 AAPL', '9.95'], ['Buy 3 AAPL', '0.00'], ['Buy 100 7203', '500']]);
      expect((await importAndWait(b, exported)).status).toBe('complete');
      expect(await fees(b.familyId)).toEqual(expected);
    });

    it("carries each trade's activity label through export and import, and refuses a label outside the list", async () => {
      const a = await t.newHousehold();
      const b = await t.newHousehold();
      const labels = (familyId: string) =>
        t.dataSource.query(
          `SELECT e.name, tr.investment_activity_label AS label FROM trades tr JOIN entries e ON e.id = tr.entry_id WHERE e.family_id = $1 ORDER BY e.date`,
          [familyId],
        );
      const qif = '!Type:Invst\nD03/01/2024\nNShrsIn\nYAAPL\nI100\nQ10\n^\nD03/02/2024\nNStkSplit\nYAAPL\nQ20\n^\nD03/03/2024\nNBuy\nYAAPL\nI50\nQ1\nT50\n^\n';
      expect((await publishAndWait(t, a, { type: 'QifImport', raw_file_content: qif, account_id: await newAccount(t, a, 'Brokerage') })).status).toBe('complete');
      const expected = [
        { name: 'Shares in 10 AAPL', label: 'Transfer' },
        { name: 'Split 2 for 1 AAPL', label: 'Other' },
        { name: 'Buy 1 AAPL', label: 'Buy' },
      ];
      expect(await labels(a.familyId)).toEqual(expected);

      const exported = await exportFamily(a);
      const trades = exported.split('\n').map((l) => JSON.parse(l)).filter((r) => r.type === 'Trade');
      expect(trades.map((r) => r.data.investment_activity_label)).toEqual(['Transfer', 'Other', 'Buy']);
      expect((await importAndWait(b, exported)).status).toBe('complete');
      expect(await labels(b.familyId)).toEqual(expected);

      // Sure's files have no label: qty says Buy or Sell. One outside the list is refused.
      const bogus = exported.replace('"investment_activity_label":"Other"', '"investment_activity_label":"Gift"');
      const refused = await request(t.server).post('/api/v1/imports').set('X-Api-Key', b.apiKey).send({ type: 'ServiceImport', raw_file_content: bogus, publish: 'true' }).expect(422);
      expect(refused.body.errors).toEqual(expect.arrayContaining([expect.stringContaining('investment_activity_label must be one of Buy, Sell, Sweep In')]));
    });

    it('is family-scoped and needs the right scope', async () => {
      const a = await t.newHousehold();
      const other = await t.newHousehold();
      const reader = await t.newHousehold({ scope: 'read' });
      const created = await request(t.server).post('/api/v1/family_exports').set('X-Api-Key', a.apiKey).expect(201);
      await get(other, `/family_exports/${created.body.data.id}`).expect(404);
      await get(other, `/family_exports/${created.body.data.id}/download`).expect(404);
      expect((await get(other, '/family_exports').expect(200)).body.data).toEqual([]);
      await request(t.server).post('/api/v1/family_exports').set('X-Api-Key', reader.apiKey).expect(403);
      await get(reader, '/family_exports').expect(200);
      await get(a, '/family_exports/not-a-uuid').expect(404);
    });

    it("is for admins: a member's read_write key can neither start, list, show nor download an export", async () => {
      const a = await t.newHousehold();
      const member = await t.newHousehold({ role: 'member' });
      const [row] = await t.dataSource.query(
        `INSERT INTO family_exports (family_id, file_name, status, content) VALUES ($1, 'x.ndjson', 'completed', '{}') RETURNING id`,
        [member.familyId],
      );
      const refused = await request(t.server).post('/api/v1/family_exports').set('X-Api-Key', member.apiKey).expect(403);
      expect(refused.body).toEqual({ error: 'forbidden', message: "This action requires the 'admin' role" });
      await get(member, '/family_exports').expect(403);
      await get(member, `/family_exports/${row.id}`).expect(403);
      await get(member, `/family_exports/${row.id}/download`).expect(403);
      expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM family_exports WHERE family_id = $1`, [member.familyId])).toEqual([{ n: 1 }]);
      await request(t.server).post('/api/v1/family_exports').set('X-Api-Key', a.apiKey).expect(201);
    });

    it('answers 409 export_not_ready before the export completes', async () => {
      const h = await t.newHousehold();
      const [row] = await t.dataSource.query(`INSERT INTO family_exports (family_id, file_name) VALUES ($1, 'x.ndjson') RETURNING id`, [h.familyId]);
      const res = await get(h, `/family_exports/${row.id}/download`).expect(409);
      expect(res.body).toMatchObject({ error: 'export_not_ready', message: expect.stringContaining('pending') });
    });
  });

  describe('hostile NDJSON (hostile-input group D)', () => {
    const tag = (id: string, name: string) => line('Tag', { id, name });
    const account = (id = 'a1', extra: Record<string, unknown> = {}) =>
      line('Account', { id, name: `Account ${id}`, balance: '0', accountable_type: 'Depository', skip_opening_balance_import: true, ...extra });

    /** Runs `act` and checks the family's financial data did not change. */
    async function withoutPartialData(h: Household, act: () => Promise<request.Response>, status: number, error: string) {
      const before = await familyData(h.familyId);
      const res = await act();
      expect({ status: res.status, error: res.body.error }).toEqual({ status, error });
      expect(typeof res.body.message).toBe('string');
      expect(res.body.message).not.toMatch(/stack|at \w+ \(|SELECT|INSERT|QueryFailed|RangeError/);
      expect(await familyData(h.familyId)).toEqual(before);
      return res;
    }
    /** Uploads, publishes and expects 422 preflight_failed: the import is kept as failed, errors name the lines. */
    async function preflightFails(h: Household, text: string) {
      const res = await withoutPartialData(h, () => ndjson(h, text, true), 422, 'preflight_failed');
      expect(res.body.errors[0]).toBe('Sure import preflight failed:');
      const detail = (await get(h, `/imports/${res.body.import_id}`).expect(200)).body.data;
      expect({ status: detail.status, error: detail.error.split('\n')[0] }).toEqual({ status: 'failed', error: 'Sure import preflight failed:' });
      return res.body.errors.slice(1) as string[];
    }

    it('D39: invalid JSON on line 3 fails preflight with the line number, import kept as failed', async () => {
      const h = await t.newHousehold();
      const errors = await preflightFails(h, [tag('t1', 'One'), tag('t2', 'Two'), '{"type":"Account",', tag('t3', 'Three')].join('\n'));
      expect(errors).toEqual([expect.stringMatching(/^Line 3 is not valid JSON: /)]);
    });

    it('D40: non-record lines: invalid_ndjson on the first line at create, invalid_ndjson_record with line numbers later', async () => {
      const h = await t.newHousehold();
      const bad = ['[]', '42', '"x"', 'null', '{"type":"Account"}', '{"type":"","data":{}}'];
      for (const first of bad) {
        const res = await withoutPartialData(h, () => ndjson(h, `${first}\n${tag('t', 'x')}`), 422, 'invalid_ndjson');
        expect(res.body.import_id).toBeUndefined();
      }
      expect(Number((await t.dataSource.query(`SELECT count(*) FROM imports WHERE family_id = $1`, [h.familyId]))[0].count)).toBe(0);
      const errors = await preflightFails(h, [tag('t', 'x'), ...bad].join('\n'));
      expect(errors).toEqual([
        'Line 2 must be a JSON object.', 'Line 3 must be a JSON object.', 'Line 4 must be a JSON object.', 'Line 5 must be a JSON object.',
        'Line 6 must include type and data.', 'Line 7 must include type and data.',
      ]);
      // Decided: a leading blank line, CRLF endings and a trailing newline are accepted.
      const done = await importAndWait(h, `\r\n${tag('t1', 'Crlf')}\r\n${tag('t2', 'Lf')}\r\n`);
      expect({ status: done.status, tags: done.verification.expected_record_counts.tags }).toEqual({ status: 'complete', tags: 2 });
    });

    it('D41: unknown or wrongly cased types fail preflight; a file of only unknown types is not publishable', async () => {
      const h = await t.newHousehold();
      const errors = await preflightFails(h, [tag('t', 'x'), line('Kernel', {}), line('account', { id: 'a' })].join('\n'));
      expect(errors).toEqual(['Line 2 has unsupported record type "Kernel".', 'Line 3 has unsupported record type "account".']);
      const res = await withoutPartialData(h, () => ndjson(h, [line('Kernel', {}), line('Shell', {})].join('\n'), true), 422, 'not_publishable');
      expect((await get(h, `/imports/${res.body.import_id}`).expect(200)).body.data.status).toBe('pending');
    });

    it('D42: a 9.9 MB line and 1,000 lines of 10 KB are handled in bounded time; lines over 1 MB are refused with a code', async () => {
      const h = await t.newHousehold();
      const huge = line('Tag', { id: 'big', name: 'Big', notes: 'x'.repeat(9.9 * 1024 * 1024) });
      let started = Date.now();
      await withoutPartialData(h, () => ndjson(h, huge), 422, 'invalid_ndjson');
      const errors = await preflightFails(h, `${tag('t', 'x')}\n${huge}`);
      expect(errors).toEqual(['Line 2 is larger than 1 MB.']);
      expect(Date.now() - started).toBeLessThan(30_000);
      started = Date.now();
      const wide = Array.from({ length: 1000 }, (_, i) => line('Tag', { id: `t${i}`, name: `Tag ${i}`, notes: 'y'.repeat(10_000) })).join('\n');
      const done = await importAndWait(h, wide);
      expect({ status: done.status, readback: done.verification.readback.status }).toEqual({ status: 'complete', readback: 'matched' });
      expect(Date.now() - started).toBeLessThan(60_000);
    });

    it('D43: 100,000 levels of nesting get a 422, never a crash', async () => {
      const h = await t.newHousehold();
      const deep = `{"type":"Tag","data":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
      await withoutPartialData(h, () => ndjson(h, deep), 422, 'invalid_ndjson');
      const errors = await preflightFails(h, `${tag('t', 'x')}\n${deep}`);
      expect(errors).toEqual(['Line 2 nests objects or arrays deeper than 32 levels.']);
      await get(h, '/imports').expect(200); // the process is alive and answering
    });

    it('D44: references to ids outside the file are missing_reference; a RejectedTransfer one is only a warning', async () => {
      const h = await t.newHousehold();
      const errors = await preflightFails(h, [
        account(),
        line('Transaction', { id: 'x1', account_id: 'ghost', date: '2025-01-01', amount: '1', category_id: 'c?', tag_ids: ['t?'] }),
        line('Transaction', { id: 'x2', account_id: 'a1', date: '2025-01-01', amount: '1', split_lines: [{ id: 's1', amount: '1', merchant_id: 'm?' }] }),
        line('Transfer', { inflow_transaction_id: 's1', outflow_transaction_id: 'nope' }),
      ].join('\n'));
      expect(errors).toEqual([
        'Line 2 Transaction references missing account_id "ghost".',
        'Line 2 Transaction references missing category_id "c?".',
        'Line 2 Transaction references missing tag_ids "t?".',
        'Line 3 Transaction split line 1 references missing merchant_id "m?".',
        'Line 4 Transfer references missing outflow_transaction_id "nope".',
      ]);
      const done = await importAndWait(h, [account(), line('RejectedTransfer', { inflow_transaction_id: 'gone', outflow_transaction_id: 'away' })].join('\n'));
      expect(done.status).toBe('complete');
    });

    it('D45: duplicate source ids, duplicate names and existing names are refused', async () => {
      const h = await t.newHousehold();
      await t.dataSource.query(`INSERT INTO categories (family_id, name) VALUES ($1, 'Existing')`, [h.familyId]);
      const errors = await preflightFails(h, [
        account('a1'), account('a1'), tag('t1', 'Same'), tag('t2', 'Same'), line('Category', { id: 'c1', name: 'Existing' }),
      ].join('\n'));
      expect(errors).toEqual([
        'account source id "a1" appears more than once (Line 1 Account, Line 2 Account).',
        'Line 5 Category name "Existing" already exists in this family.',
        'Tag name "Same" appears more than once in the NDJSON on lines 3, 4.',
      ]);
    });

    it('D46: __proto__ and constructor keys are dropped; no prototype pollution in the API or the worker', async () => {
      const h = await t.newHousehold();
      const text = [
        '{"type":"Account","data":{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"id":"a1","name":"Proto","balance":"1","accountable_type":"Depository","accountable":{"__proto__":{"isAdmin":true},"subtype":"checking"}}}',
        '{"type":"Transaction","data":{"id":"t1","account_id":"a1","date":"2025-01-01","amount":"1","split_lines":[{"__proto__":{"x":1},"amount":"1"}]}}',
      ].join('\n');
      const done = await importAndWait(h, text);
      expect(done.status).toBe('complete');
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined(); // API and worker share this process in tests
      expect(({} as Record<string, unknown>).x).toBeUndefined();
      const [stored] = await t.dataSource.query(`SELECT name, subtype FROM accounts WHERE family_id = $1`, [h.familyId]);
      expect(stored).toEqual({ name: 'Proto', subtype: 'checking' });
      const rows = await get(h, `/imports/${done.id}/rows`).expect(200);
      expect(JSON.stringify(rows.body.data)).not.toMatch(/__proto__|constructor|isAdmin/);
    });

    it('D47: amounts: "100", 100 and "-0" are read exactly; 1e400, null and unbalanced splits are refused', async () => {
      const h = await t.newHousehold();
      const tx = (id: string, amount: unknown, extra: Record<string, unknown> = {}) => line('Transaction', { id, account_id: 'a1', date: '2025-01-01', amount, name: id, ...extra });
      const errors = await preflightFails(h, [
        account(), '{"type":"Transaction","data":{"id":"inf","account_id":"a1","date":"2025-01-01","amount":1e400}}', tx('nul', null),
        tx('split', '100', { split_lines: [{ amount: '40' }, { amount: '50' }] }),
      ].join('\n'));
      expect(errors).toEqual([
        'Line 2 Transaction amount must be a decimal number, got null.',
        'Line 3 Transaction is missing required field(s): amount.',
        'Line 4 Transaction split line amounts must sum to transaction amount 100 but sum to 90.',
      ]);
      const done = await importAndWait(h, [account(), tx('s', '100'), tx('n', 100), tx('z', '-0'), tx('big', '1234567890.12'), tx('tenth', '0.1')].join('\n'));
      expect(done.status).toBe('complete');
      const amounts = await t.dataSource.query(`SELECT name, amount_minor::text AS amount FROM entries WHERE family_id = $1 ORDER BY name`, [h.familyId]);
      expect(amounts).toEqual([{ name: 'big', amount: '123456789012' }, { name: 'n', amount: '10000' }, { name: 's', amount: '10000' }, { name: 'tenth', amount: '10' }, { name: 'z', amount: '0' }]);
    });

    it('D47: split lines under the splitLines and splits aliases are checked like split_lines, as they are published', async () => {
      const h = await t.newHousehold();
      const tx = (id: string, extra: Record<string, unknown>) => line('Transaction', { id, account_id: 'a1', date: '2025-01-01', amount: '100', name: id, ...extra });
      const errors = await preflightFails(h, [
        account(),
        tx('camel', { splitLines: [{ amount: '40' }, { amount: '50' }] }),
        tx('short', { splits: [{ id: 's1', amount: '100', category_id: 'c?' }] }),
        tx('bad', { splits: 'x' }),
      ].join('\n'));
      expect(errors).toEqual([
        'Line 2 Transaction split line amounts must sum to transaction amount 100 but sum to 90.',
        'Line 3 Transaction split line 1 references missing category_id "c?".',
        'Line 4 Transaction split_lines must be an array.',
      ]);
      // A split line id under an alias is a transaction a transfer may name.
      const done = await importAndWait(h, [
        account(), tx('p', { splits: [{ id: 's1', amount: '60' }, { id: 's2', amount: '40' }] }),
        line('Transaction', { id: 'in', account_id: 'a1', date: '2025-01-01', amount: '-60' }),
        line('Transfer', { inflow_transaction_id: 'in', outflow_transaction_id: 's1' }),
      ].join('\n'));
      expect(done.status).toBe('complete');
      const children = await t.dataSource.query(`SELECT amount_minor::int AS amount FROM entries WHERE family_id = $1 AND parent_entry_id IS NOT NULL ORDER BY 1`, [h.familyId]);
      expect(children).toEqual([{ amount: 4000 }, { amount: 6000 }]);
    });

    it('checks the account subtype that is stored: accountable.subtype when given, else subtype', async () => {
      const h = await t.newHousehold();
      const errors = await preflightFails(h, [
        account('a1', { accountable: { subtype: '' }, subtype: 'bogus' }),
        account('a2', { accountable_type: 'Investment', accountable: { subtype: 'x'.repeat(51) } }),
      ].join('\n'));
      expect(errors).toEqual([
        'Line 1 Account has invalid Depository subtype "bogus".',
        'Line 2 Account subtype is longer than 50 characters.',
      ]);
    });

    it('D48: 100,001 records answer 422 max_row_count_exceeded with import_id, the import stays pending', async () => {
      const h = await t.newHousehold();
      const text = Array.from({ length: 100_001 }, (_, i) => `{"type":"Tag","data":{"id":"${i}","name":"${i}"}}`).join('\n');
      const res = await withoutPartialData(h, () => ndjson(h, text, true), 422, 'max_row_count_exceeded');
      const detail = (await get(h, `/imports/${res.body.import_id}`).expect(200)).body.data;
      expect({ status: detail.status, rows: detail.stats.rows_count, tags: detail.verification.expected_record_counts.tags }).toEqual({ status: 'pending', rows: 100_001, tags: 100_001 });
    });

    it('D49: the same file restored twice: the second is blocked by the collision preflight, family unchanged', async () => {
      const h = await t.newHousehold({ currency: 'EUR' });
      await importAndWait(h, FAMILY_FILE);
      const errors = await preflightFails(h, FAMILY_FILE);
      expect(errors).toEqual(expect.arrayContaining(['Line 7 Category name "Electricity" already exists in this family.', 'Line 20 Budget for 2025-01-01..2025-01-31 already exists in this family.']));
      expect(errors).toHaveLength(7); // 3 categories, 2 tags, 1 merchant, 1 budget
    });

    it('D49: the same file published twice before either ran: the second fails on the collision by name, family as the first left it', async () => {
      const h = await t.newHousehold({ currency: 'EUR' });
      const [a, b] = [(await ndjson(h, FAMILY_FILE).expect(201)).body.data.id, (await ndjson(h, FAMILY_FILE).expect(201)).body.data.id];
      for (const id of [a, b]) await request(t.server).post(`/api/v1/imports/${id}/publish`).set('X-Api-Key', h.apiKey).expect(202);
      const outcomes = [await waitForImport(t.server, h.apiKey, a), await waitForImport(t.server, h.apiKey, b)];
      const [won, lost] = outcomes[0].status === 'complete' ? outcomes : [outcomes[1], outcomes[0]];
      expect([won.status, lost.status]).toEqual(['complete', 'failed']);
      expect(lost.error.split('\n')).toEqual(expect.arrayContaining([
        'Publishing stopped: the family gained records of these names after this import was checked.',
        'Line 7 Category name "Electricity" already exists in this family.',
      ]));
      expect(await familyData(h.familyId)).toMatchObject({ accounts: 3, categories: 3, tags: 2, merchants: 1, budgets: 1, rules: 1 });
    });

    it('refuses bad dates and currencies, and a file upload of the wrong type', async () => {
      const h = await t.newHousehold();
      const errors = await preflightFails(h, [account('a1', { currency: 'usd' }), line('Valuation', { account_id: 'a1', date: '01/02/2025', amount: '1' })].join('\n'));
      expect(errors).toEqual(['Line 1 Account currency must be an ISO 4217 currency code, got "usd".', 'Line 2 Valuation date must be a date written YYYY-MM-DD, got "01/02/2025".']);
      await withoutPartialData(
        h,
        () => request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey).field('type', 'ServiceImport').attach('file', Buffer.from('%PDF-1.4'), { filename: 'x.pdf', contentType: 'application/pdf' }),
        422,
        'invalid_file_type',
      );
      await withoutPartialData(h, () => createImport(t.server, h.apiKey, { type: 'ServiceImport' }), 422, 'missing_content');
      const file = await request(t.server).post('/api/v1/imports').set('X-Api-Key', h.apiKey).field('type', 'SureImport')
        .attach('file', Buffer.from(tag('t', 'From file')), { filename: 'export.ndjson', contentType: 'application/octet-stream' }).expect(201);
      expect(file.body.data.verification.expected_record_counts.tags).toBe(1);
    });
  });
});
