import type { TransactionKind } from '@hearth/contracts';
import { parseAmount } from '@hearth/domain/money';
import type { Household, TestApp } from './test-app';

/** Inserts ledger data straight into the real database, the way publishing would leave it. */
export class BudgetFixtures {
  constructor(readonly t: TestApp) {}

  async account(
    familyId: string,
    fields: { name: string; type?: string; subtype?: string; currency: string; status?: string; excludeFromReports?: boolean; ownerId?: string },
  ): Promise<string> {
    const type = fields.type ?? 'Depository';
    const classification = ['CreditCard', 'Loan', 'OtherLiability'].includes(type) ? 'liability' : 'asset';
    const [{ id }] = await this.t.dataSource.query(
      `INSERT INTO accounts (family_id, owner_id, name, accountable_type, subtype, classification, currency, status, exclude_from_reports)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [familyId, fields.ownerId ?? null, fields.name, type, fields.subtype ?? null, classification, fields.currency, fields.status ?? 'active', fields.excludeFromReports ?? false],
    );
    return id;
  }

  async category(familyId: string, name: string, parentId: string | null = null): Promise<string> {
    const [{ id }] = await this.t.dataSource.query(
      `INSERT INTO categories (family_id, name, parent_id) VALUES ($1, $2, $3) RETURNING id`,
      [familyId, name, parentId],
    );
    return id;
  }

  /** An entry of `amount` major units (positive = outflow) in the account's currency; a Transaction unless `type` says otherwise. */
  async entry(
    home: { h: Household },
    fields: {
      account: string;
      date: string;
      amount: number;
      category?: string | null;
      kind?: TransactionKind;
      excluded?: boolean;
      pending?: boolean;
      label?: string;
      type?: 'Transaction' | 'Trade';
    },
  ): Promise<string> {
    const [{ currency }] = await this.t.dataSource.query(`SELECT currency FROM accounts WHERE id = $1`, [fields.account]);
    const type = fields.type ?? 'Transaction';
    const [{ id }] = await this.t.dataSource.query(
      `INSERT INTO entries (family_id, account_id, entryable_type, date, name, amount_minor, currency, excluded)
       VALUES ($1, $2, $3, $4, 'fixture', $5, $6, $7) RETURNING id`,
      [home.h.familyId, fields.account, type, fields.date, String(parseAmount(String(fields.amount), currency)), currency, fields.excluded ?? false],
    );
    if (type === 'Transaction') {
      await this.t.dataSource.query(
        `INSERT INTO transactions (entry_id, category_id, kind, investment_activity_label, pending) VALUES ($1, $2, $3, $4, $5)`,
        [id, fields.category ?? null, fields.kind ?? 'standard', fields.label ?? null, fields.pending ?? false],
      );
    }
    return id;
  }

  async rate(from: string, to: string, date: string, rate: string): Promise<void> {
    await this.t.dataSource.query(
      `INSERT INTO exchange_rates (from_currency, to_currency, date, rate) VALUES ($1, $2, $3, $4)
       ON CONFLICT (from_currency, to_currency, date) DO NOTHING`,
      [from, to, date, rate],
    );
  }
}

export interface SeededHousehold {
  h: Household;
  accounts: Record<'checking' | 'usd', string>;
  categories: Record<'food' | 'restaurants' | 'groceries' | 'housing' | 'income' | 'loanPayments' | 'healthcare' | 'travel', string>;
}

/**
 * A household's accounts and categories, and (unless `minimal`) its January 2025: the worked example of the
 * budgets study plus refunds, a foreign-currency account, boundary dates, pending, excluded, transfer kinds,
 * tax-advantaged, disabled and hidden accounts, a trade and a sweep. budgets.e2e-spec.ts states the sums.
 */
export async function seedHousehold(fx: BudgetFixtures, h: Household, { minimal = false } = {}): Promise<SeededHousehold> {
  const family = h.familyId;
  const [{ currency }] = await fx.t.dataSource.query(`SELECT currency FROM families WHERE id = $1`, [family]);
  const food = await fx.category(family, 'Food');
  const categories = {
    food,
    restaurants: await fx.category(family, 'Restaurants', food),
    groceries: await fx.category(family, 'Groceries', food),
    housing: await fx.category(family, 'Housing'),
    income: await fx.category(family, 'Income'),
    loanPayments: await fx.category(family, 'Loan Payments'),
    healthcare: await fx.category(family, 'Healthcare'),
    travel: await fx.category(family, 'Travel'),
  };
  const accounts = {
    checking: await fx.account(family, { name: 'Checking', currency, ownerId: h.userId }),
    usd: await fx.account(family, { name: 'Dollar account', currency: 'USD' }),
  };
  const home = { h, accounts, categories };
  if (minimal) return home;

  const account = (name: string, fields: Omit<Parameters<BudgetFixtures['account']>[1], 'name'>) => fx.account(family, { name, ...fields });
  const savings = await account('Savings', { currency: 'USD' });
  const card = await account('Card', { type: 'CreditCard', currency: 'USD' });
  const loan = await account('Mortgage', { type: 'Loan', currency: 'USD' });
  const swiss = await account('Swiss account', { currency: 'CHF' });
  const retirement = await account('401(k)', { type: 'Investment', subtype: '401k', currency: 'USD' });
  const brokerage = await account('Brokerage', { type: 'Investment', subtype: 'brokerage', currency: 'USD' });
  const closed = await account('Old checking', { currency: 'USD', status: 'disabled' });
  const hidden = await account('Hidden', { currency: 'USD', excludeFromReports: true });
  const checking = accounts.checking;
  const c = categories;
  const add = (account: string, date: string, amount: number, fields: Omit<Parameters<BudgetFixtures['entry']>[1], 'account' | 'date' | 'amount'> = {}) =>
    fx.entry(home, { account, date, amount, ...fields });

  await fx.rate('CHF', 'USD', '2025-01-10', '1.1234');
  // Counted
  await add(checking, '2025-01-12', 120, { category: c.restaurants });
  await add(checking, '2025-01-01', 5, { category: c.restaurants }); // first day of the period
  await add(checking, '2025-01-13', 80, { category: c.groceries });
  await add(checking, '2025-01-31', 10, { category: c.groceries }); // last day of the period
  await add(checking, '2025-01-14', -30, { category: c.food }); // refund, nets inside Food
  await add(checking, '2025-01-02', 1500, { category: c.housing });
  await add(checking, '2025-01-03', 50); // uncategorized
  await add(checking, '2025-01-15', -5000, { category: c.income });
  await add(checking, '2025-01-16', 400, { category: c.loanPayments, kind: 'loan_payment' });
  await add(loan, '2025-01-16', -400, { kind: 'funds_movement' });
  await add(checking, '2025-01-17', -250, { kind: 'investment_contribution' }); // an expense whatever its sign
  await add(checking, '2025-01-18', 500, { category: c.healthcare });
  await add(checking, '2025-01-19', -200, { category: c.healthcare }); // refund
  await add(swiss, '2025-01-10', 100, { category: c.travel }); // CHF 100 at 1.1234 = $112.34
  // Left out
  await add(swiss, '2025-01-11', 50, { category: c.travel }); // no CHF rate that day: reported, not 1:1
  await add(checking, '2025-01-21', 1000, { kind: 'funds_movement' });
  await add(savings, '2025-01-21', -1000, { kind: 'funds_movement' });
  await add(checking, '2025-01-22', 700, { kind: 'one_time' });
  await add(checking, '2025-01-23', 99, { category: c.food, excluded: true });
  await add(checking, '2025-01-24', 300, { kind: 'cc_payment' });
  await add(card, '2025-01-24', -300, { kind: 'funds_movement' });
  await add(checking, '2025-01-25', 45, { category: c.restaurants, pending: true });
  await add(checking, '2024-12-31', 500, { category: c.housing });
  await add(checking, '2025-02-01', 500, { category: c.housing });
  await add(retirement, '2025-01-26', 77);
  await add(closed, '2025-01-26', 66);
  await add(hidden, '2025-01-26', 55);
  await add(brokerage, '2025-01-27', 1000, { type: 'Trade' });
  await add(brokerage, '2025-01-27', 40, { label: 'Sweep In' });
  return home;
}
