import request from 'supertest';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { budgetSpending, waitForImport } from './support/imports';
import { as, signIn } from './support/sessions';
import { Household, startTestApp, TestApp } from './support/test-app';

const line = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data });

/**
 * Two months of a household: a checking account (opening anchor 2,000.00 on Dec 31, reconciled to 2,500.00 on Feb 10),
 * a card paid off by a transfer, a euro savings account, a split, a refund, an excluded entry and an uncategorized one.
 */
const HOUSEHOLD = [
  line('Account', { id: 'chk', name: 'Checking', balance: '2500.00', currency: 'USD', accountable_type: 'Depository' }),
  line('Account', { id: 'visa', name: 'Visa', balance: '0', currency: 'USD', accountable_type: 'CreditCard' }),
  line('Account', { id: 'eur', name: 'Euro savings', balance: '1000.00', currency: 'EUR', accountable_type: 'Depository' }),
  line('Valuation', { id: 'v1', account_id: 'chk', date: '2024-12-31', amount: '2000.00', kind: 'opening_anchor' }),
  line('Valuation', { id: 'v2', account_id: 'chk', date: '2025-02-10', amount: '2500.00', kind: 'reconciliation' }),
  line('Category', { id: 'util', name: 'Utilities', color: '#6471eb', lucide_icon: 'plug' }),
  line('Category', { id: 'groc', name: 'Groceries', color: '#4da568', lucide_icon: 'shopping-cart' }),
  line('Category', { id: 'super', name: 'Supermarket', color: '#4da568', lucide_icon: 'store', parent_id: 'groc' }),
  line('Category', { id: 'inc', name: 'Income', color: '#e99537', lucide_icon: 'wallet' }),
  line('Category', { id: 'home', name: 'Housing', color: '#db5a54', lucide_icon: 'house' }),
  line('Transaction', { id: 't1', account_id: 'chk', date: '2025-01-05', amount: '84.20', name: 'Electricity', category_id: 'util' }),
  line('Transaction', { id: 't2', account_id: 'chk', date: '2025-01-10', amount: '-1500.00', name: 'Salary', category_id: 'inc' }),
  line('Transaction', {
    id: 't3', account_id: 'visa', date: '2025-01-12', amount: '120.00', name: 'Market run',
    split_lines: [{ id: 's1', amount: '100.00', name: 'Food', category_id: 'super' }, { id: 's2', amount: '20.00', name: 'Power top-up', category_id: 'util' }],
  }),
  line('Transaction', { id: 't4', account_id: 'chk', date: '2025-01-20', amount: '100.00', name: 'Card payment', kind: 'cc_payment' }),
  line('Transaction', { id: 't5', account_id: 'visa', date: '2025-01-20', amount: '-100.00', name: 'Payment received', kind: 'funds_movement' }),
  line('Transfer', { inflow_transaction_id: 't5', outflow_transaction_id: 't4', status: 'confirmed', notes: null }),
  line('Transaction', { id: 't6', account_id: 'chk', date: '2025-01-25', amount: '-10.00', name: 'Refund', category_id: 'groc' }),
  line('Transaction', { id: 't7', account_id: 'chk', date: '2025-02-03', amount: '900.00', name: 'Rent', category_id: 'home' }),
  line('Transaction', { id: 't8', account_id: 'chk', date: '2025-02-05', amount: '4.50', name: 'Coffee' }),
  line('Transaction', { id: 't9', account_id: 'chk', date: '2025-02-14', amount: '50.00', name: 'Ignored', category_id: 'home', excluded: true }),
  line('Transaction', { id: 't10', account_id: 'eur', date: '2025-02-01', amount: '10.00', name: 'Bakery', category_id: 'groc' }),
].join('\n');

/** EUR -> USD on the days the figures read. */
const RATES: Array<[string, string]> = [
  ['2024-12-31', '1.10'],
  ['2025-01-31', '1.05'],
  ['2025-02-01', '1.20'],
  ['2025-02-28', '1.00'],
];

const cents = (point: { cents: number }) => point.cents;

describe('Reports API', () => {
  let t: TestApp;
  let home: Household;
  let other: Household;
  const get = (path: string, key = home.apiKey) => request(t.server).get(`/api/v1/reports${path}`).set('X-Api-Key', key);
  const accountId = async (h: Household, name: string) => (await t.dataSource.query(`SELECT id FROM accounts WHERE family_id = $1 AND name = $2`, [h.familyId, name]))[0].id;

  beforeAll(async () => {
    t = await startTestApp();
    home = await t.newHousehold();
    other = await t.newHousehold();
    const res = await request(t.server).post('/api/v1/imports').set('X-Api-Key', home.apiKey).send({ type: 'ServiceImport', raw_file_content: HOUSEHOLD, publish: 'true' });
    expect(res.status).toBe(201);
    expect((await waitForImport(t.server, home.apiKey, res.body.data.id)).status).toBe('complete');
    for (const [date, rate] of RATES) {
      await t.dataSource.query(`INSERT INTO exchange_rates (from_currency, to_currency, date, rate) VALUES ('EUR', 'USD', $1, $2) ON CONFLICT DO NOTHING`, [date, rate]);
    }
  });
  afterAll(() => t.close());

  describe('GET /reports/net_worth', () => {
    it('gives assets, liabilities and net worth at each month end, foreign balances at that day\'s rate', async () => {
      const res = await get('/net_worth?start_date=2024-12-31&end_date=2025-02-28&interval=month').expect(200);
      expect(res.headers['x-report-unconverted-entries']).toBeUndefined();
      expect(res.body).toMatchObject({ currency: 'USD', start_date: '2024-12-31', end_date: '2025-02-28', interval: 'month' });
      expect(res.body.points.map((p: { date: string }) => p.date)).toEqual(['2024-12-31', '2025-01-31', '2025-02-28']);
      // Dec 31: 2,000.00 + 1,000 EUR × 1.10. Jan 31: checking 2,000 − 84.20 + 1,500 − 100 + 10; card owes 120 − 100;
      // EUR × 1.05. Feb 28: checking reconciled to 2,500.00 on Feb 10, less 50.00 after; 990 EUR × 1.00.
      expect(res.body.points.map((p: { assets: { cents: number } }) => cents(p.assets))).toEqual([310000, 437580, 344000]);
      expect(res.body.points.map((p: { liabilities: { cents: number } }) => cents(p.liabilities))).toEqual([0, 2000, 2000]);
      expect(res.body.points[2].net_worth).toEqual({ amount: '3420.00', cents: 342000, formatted: '$3,420.00' });
    });

    it('ends on end_date whatever the interval, and starts at start_date', async () => {
      const res = await get('/net_worth?start_date=2025-01-01&end_date=2025-01-31&interval=week').expect(200);
      expect(res.body.points.map((p: { date: string }) => p.date)).toEqual(['2025-01-01', '2025-01-08', '2025-01-15', '2025-01-22', '2025-01-29', '2025-01-31']);
    });

    it('formats for the request locale', async () => {
      const res = await get('/net_worth?start_date=2025-02-28&end_date=2025-02-28&locale=de').expect(200);
      expect(res.body.points).toHaveLength(1);
      expect(res.body.points[0].net_worth.formatted).toBe('3.420,00\u00a0$');
    });

    it("counts a foreign balance with no rate on the point's day as left out, in a header", async () => {
      const res = await get('/net_worth?start_date=2025-01-15&end_date=2025-01-15').expect(200);
      expect(res.headers['x-report-unconverted-entries']).toBe('1');
      expect(res.body.points[0].assets.cents).toBe(200000 - 8420 + 150000); // checking alone
    });

    it('defaults to the year up to today, weekly', async () => {
      const res = await get('/net_worth').expect(200);
      expect(res.body.interval).toBe('week');
      expect(res.body.points.length).toBeGreaterThanOrEqual(53);
      expect(res.body.points.at(-1).date).toBe(res.body.end_date);
    });

    it("today's point is what the accounts endpoint says the balances are", async () => {
      const accounts = (await request(t.server).get('/api/v1/accounts').set('X-Api-Key', home.apiKey).expect(200)).body.accounts;
      const usd = accounts.filter((a: { currency: string }) => a.currency === 'USD');
      const signed = usd.reduce((sum: number, a: { classification: string; balance_cents: number }) => sum + (a.classification === 'liability' ? -a.balance_cents : a.balance_cents), 0);
      const balances = (await get('/account_balances?interval=month').expect(200)).body.accounts;
      const todays = balances
        .filter((a: { currency: string }) => a.currency === 'USD')
        .reduce((sum: number, a: { classification: string; points: Array<{ balance: { cents: number } }> }) => {
          const last = a.points.at(-1)!.balance.cents;
          return sum + (a.classification === 'liability' ? -last : last);
        }, 0);
      expect(todays).toBe(signed);
      expect(signed).toBe(250000 - 5000 - 2000);
    });
  });

  describe('GET /reports/account_balances', () => {
    it("gives one account's balance at each point, in its own currency", async () => {
      const checking = await accountId(home, 'Checking');
      const res = await get(`/account_balances?account_id=${checking}&start_date=2025-01-01&end_date=2025-01-31&interval=week`).expect(200);
      expect(res.body.accounts).toHaveLength(1);
      expect(res.body.accounts[0]).toMatchObject({ account_id: checking, currency: 'USD', classification: 'asset' });
      expect(res.body.accounts[0].points.map((p: { balance: { cents: number } }) => p.balance.cents)).toEqual([200000, 191580, 341580, 331580, 332580, 332580]);
    });

    it('lists every account by name, a card as what it owes, the euro account in euros', async () => {
      const res = await get('/account_balances?start_date=2025-01-31&end_date=2025-02-28&interval=month').expect(200);
      expect(res.body.accounts.map((a: { currency: string; points: Array<{ balance: { amount: string } }> }) => [a.currency, a.points.map((p) => p.balance.amount)])).toEqual([
        ['USD', ['3325.80', '2450.00']],
        ['EUR', ['1000.00', '990.00']],
        ['USD', ['20.00', '20.00']],
      ]);
    });

    it("404s for another family's account, and for one that is no account", async () => {
      const checking = await accountId(home, 'Checking');
      await get(`/account_balances?account_id=${checking}`, other.apiKey).expect(404);
      await get('/account_balances?account_id=00000000-0000-4000-8000-000000000000').expect(404);
    });
  });

  describe('GET /reports/cash_flow', () => {
    it('gives income, spending and net per month, leaving transfers, card payments and excluded entries out', async () => {
      const res = await get('/cash_flow?start_date=2025-01-01&end_date=2025-02-28').expect(200);
      expect(res.body.months.map((m: Record<string, { amount: string } | string>) => [m.start_date, m.end_date, m.name, (m.income as { amount: string }).amount, (m.spending as { amount: string }).amount, (m.net as { amount: string }).amount])).toEqual([
        // Salary and the refund in; electricity and the split's two parts out.
        ['2025-01-01', '2025-01-31', 'January 2025', '1510.00', '204.20', '1305.80'],
        // Rent, coffee and 10 EUR of bread at 1.20; the excluded 50.00 left out.
        ['2025-02-01', '2025-02-28', 'February 2025', '0.00', '916.50', '-916.50'],
      ]);
      expect(res.body.net).toEqual({ amount: '389.30', cents: 38930, formatted: '$389.30' });
      expect(res.body.income.cents).toBe(151000);
      expect(res.body.spending.cents).toBe(112070);
    });

    it('names every month of the range, an empty one with zeros, and cuts the first and last to the range', async () => {
      const res = await get('/cash_flow?start_date=2024-11-15&end_date=2025-01-09').expect(200);
      expect(res.body.months.map((m: { start_date: string; end_date: string; spending: { cents: number } }) => [m.start_date, m.end_date, m.spending.cents])).toEqual([
        ['2024-11-15', '2024-11-30', 0],
        ['2024-12-01', '2024-12-31', 0],
        ['2025-01-01', '2025-01-09', 8420],
      ]);
    });

    it("follows the family's month start day", async () => {
      await t.dataSource.query(`UPDATE families SET month_start_day = 10 WHERE id = $1`, [home.familyId]);
      try {
        const res = await get('/cash_flow?start_date=2025-01-10&end_date=2025-02-09').expect(200);
        expect(res.body.months).toHaveLength(1);
        expect(res.body.months[0]).toMatchObject({ start_date: '2025-01-10', end_date: '2025-02-09', name: 'Jan 10 - February 09, 2025' });
        expect(res.body.months[0].income.cents).toBe(151000);
        expect(res.body.months[0].spending.cents).toBe(12000 + 90000 + 450 + 1200);
      } finally {
        await t.dataSource.query(`UPDATE families SET month_start_day = 1 WHERE id = $1`, [home.familyId]);
      }
    });
  });

  describe('GET /reports/spending_by_category', () => {
    it('rolls subcategories up into their top-level category, nets refunds, and keeps uncategorized apart', async () => {
      const res = await get('/spending_by_category?start_date=2025-01-01&end_date=2025-02-28').expect(200);
      expect(res.body.categories.map((c: { category: { name: string }; spending: { amount: string }; share: number }) => [c.category.name, c.spending.amount, c.share])).toEqual([
        ['Housing', '900.00', 0.8103],
        ['Utilities', '104.20', 0.0938],
        // Food (Supermarket) 100.00 + bread 12.00 − the refund 10.00
        ['Groceries', '102.00', 0.0918],
      ]);
      expect(res.body.categories[0].category).toEqual({ id: expect.any(String), name: 'Housing', color: '#db5a54', icon: 'house' });
      expect(res.body.uncategorized.amount).toBe('4.50');
      expect(res.body.total).toEqual({ amount: '1110.70', cents: 111070, formatted: '$1,110.70' });
    });

    it("adds up, for a budget month, to the budget's actual spending", async () => {
      const res = await get('/spending_by_category?start_date=2025-01-01&end_date=2025-01-31').expect(200);
      const budget = await budgetSpending(t, home, '2025-01-01', ['Groceries', 'Utilities']);
      expect(res.body.total.cents).toBe(budget.total);
      const byName = Object.fromEntries(res.body.categories.map((c: { category: { name: string }; spending: { cents: number } }) => [c.category.name, c.spending.cents]));
      expect([byName.Groceries, byName.Utilities]).toEqual(budget.byCategory);
    });
  });

  describe('family isolation and access', () => {
    it("shows another family none of this one's money", async () => {
      const range = 'start_date=2024-12-31&end_date=2025-02-28';
      const worth = await get(`/net_worth?${range}&interval=month`, other.apiKey).expect(200);
      expect(worth.body.points.map((p: { net_worth: { cents: number } }) => p.net_worth.cents)).toEqual([0, 0, 0]);
      expect((await get(`/account_balances?${range}`, other.apiKey).expect(200)).body.accounts).toEqual([]);
      const flow = await get(`/cash_flow?${range}`, other.apiKey).expect(200);
      expect([flow.body.income.cents, flow.body.spending.cents]).toEqual([0, 0]);
      const spending = await get(`/spending_by_category?${range}`, other.apiKey).expect(200);
      expect([spending.body.categories, spending.body.total.cents]).toEqual([[], 0]);
    });

    it('takes a read-scope key and the admin app session; refuses no credentials', async () => {
      const key = await t.app.get(ApiKeysService).create({ userId: home.userId, name: 'read only', scope: 'read' });
      const path = '/cash_flow?start_date=2025-01-01&end_date=2025-02-28';
      const byKey = await get(path, key.key).expect(200);
      expect(byKey.body.net.cents).toBe(38930);
      const browser = await signIn(t.server, home.email);
      expect((await as(t.server, browser, 'get', `/api/v1/reports${path}`).expect(200)).body).toEqual(byKey.body);
      for (const report of ['net_worth', 'account_balances', 'cash_flow', 'spending_by_category']) {
        await request(t.server).get(`/api/v1/reports/${report}`).expect(401);
      }
    });
  });

  describe('bad input', () => {
    it.each([
      ['/net_worth?start_date=2025-02-30', 'start_date must be a date in the form YYYY-MM-DD'],
      ['/cash_flow?end_date=20250101', 'end_date must be a date in the form YYYY-MM-DD'],
      ['/spending_by_category?start_date=1899-12-31', 'start_date must be between 1900-01-01 and 2999-12-31'],
      ['/cash_flow?start_date=2025-02-01&end_date=2025-01-01', 'start_date (2025-02-01) must be on or before end_date (2025-01-01)'],
      ['/net_worth?interval=hour', 'interval must be one of day, week, month'],
      ['/net_worth?start_date=2010-01-01&end_date=2020-01-02&interval=day', 'end_date is more than 10 years after start_date: at most 10 years of days; ask for a longer interval or a shorter range'],
      ['/account_balances?start_date=1900-01-01&end_date=2000-01-01&interval=week', 'end_date is more than 50 years after start_date: at most 50 years of weeks; ask for a longer interval or a shorter range'],
      ['/cash_flow?start_date=1900-01-01&end_date=2001-01-01', 'end_date is more than 100 years after start_date: ask for a shorter range'],
      ['/account_balances?account_id=abc', 'account_id must be a valid UUID'],
      ['/net_worth?start_date=2025-01-01&start_date=2025-01-02', 'start_date must be given once'],
      ['/cash_flow?interval=day', 'unknown query parameter interval; this list takes start_date, end_date, locale'],
    ])('%s -> 422 naming it', async (path, message) => {
      const res = await get(path).expect(422);
      expect(res.body).toMatchObject({ error: 'validation_failed', message });
    });

    it('takes exactly 10 years of days', async () => {
      const res = await get('/net_worth?start_date=2015-01-01&end_date=2025-01-01&interval=day').expect(200);
      expect(res.body.points).toHaveLength(3654);
      // EUR has a rate on one of those days only (2024-12-31): its balance is left out of the other 3,653, and said so.
      expect(res.body.points.at(-1).net_worth.cents).toBe(200000);
      expect(res.headers['x-report-unconverted-entries']).toBe('3653');
    });
  });
});
