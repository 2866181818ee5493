import { Link } from 'react-router';
import { LineChart } from '../../../components/charts/LineChart';
import { Money } from '../../../components/Money';
import { QueryState } from '../../../components/QueryState';
import { formatDate } from '../../../lib/format';
import { useAccounts, useRecentTransactions } from '../../accounts/api/useAccounts';
import { TransactionAmount } from '../../accounts/components/TransactionAmount';
import { runningMonth, useFamilySettings, useMonthBudget } from '../../budgets/api/useBudgets';
import { BudgetBar } from '../../budgets/components/BudgetBar';
import { useCashFlow, useNetWorth, useSpendingByCategory, type CashFlow, type SpendingByCategory } from '../../reports/api/useReports';

function NetWorthCard() {
  const netWorth = useNetWorth();
  return (
    <section className="card" aria-labelledby="net-worth-title">
      <h2 id="net-worth-title">Net worth</h2>
      <QueryState query={netWorth} loading="Loading net worth…">
        {(data) => {
          const first = data.points[0];
          const now = data.points[data.points.length - 1];
          return (
            <>
              <p className="headline">
                <Link to="/accounts" aria-label={`Net worth ${now.net_worth.formatted}: see the accounts`}>
                  <Money value={now.net_worth} />
                </Link>
              </p>
              <dl className="facts small">
                <div>
                  <dt>Assets</dt>
                  <dd>{now.assets.formatted}</dd>
                </div>
                <div>
                  <dt>Liabilities</dt>
                  <dd>{now.liabilities.formatted}</dd>
                </div>
                <div>
                  <dt>On {formatDate(first.date)}</dt>
                  <dd>
                    <Money value={first.net_worth} />
                  </dd>
                </div>
              </dl>
              <LineChart
                points={data.points.map((p) => ({ date: p.date, value: p.net_worth.cents }))}
                label={`Net worth from ${formatDate(first.date)} (${first.net_worth.formatted}) to ${formatDate(now.date)} (${now.net_worth.formatted})`}
              />
            </>
          );
        }}
      </QueryState>
    </section>
  );
}

function MonthBudgetCard({ month }: { month: string }) {
  const budget = useMonthBudget(month);
  return (
    <section className="card" aria-labelledby="budget-title">
      <h2 id="budget-title">This month’s spending</h2>
      <QueryState query={budget} loading="Loading this month’s budget…">
        {(data) =>
          data ? (
            <>
              <p className="headline">
                <Link to={`/budgets?month=${month}`} aria-label={`Spent ${data.actual_spending} in ${data.name}: see the budget`}>
                  {data.actual_spending}
                </Link>
                <span className="muted"> of {data.budgeted_spending ?? 'no plan yet'}</span>
              </p>
              {data.budgeted_spending_cents !== null && <BudgetBar planned={data.budgeted_spending_cents} actual={data.actual_spending_cents} />}
              <p className="muted">
                {data.name}: {data.available_to_spend_cents < 0 ? 'over budget by ' : 'left to spend '}
                <Money value={{ cents: data.available_to_spend_cents, formatted: data.available_to_spend.replace(/^-/, '') }} />
              </p>
            </>
          ) : (
            <p className="empty">
              No budget for this month yet. <Link to={`/budgets?month=${month}`}>Start one on the Budgets page</Link> to see spending against it.
            </p>
          )
        }
      </QueryState>
    </section>
  );
}

function CashFlowCard() {
  const cashFlow = useCashFlow();
  return (
    <section className="card" aria-labelledby="cash-flow-title">
      <h2 id="cash-flow-title">Cash flow</h2>
      <QueryState query={cashFlow} loading="Loading cash flow…">
        {(data) => <CashFlowTable data={data} />}
      </QueryState>
    </section>
  );
}

/** Months newest first; income and spending as bars against the largest of either, the figures beside them. */
function CashFlowTable({ data }: { data: CashFlow }) {
  const months = [...data.months].reverse().slice(0, 6);
  const largest = Math.max(1, ...months.flatMap((m) => [m.income.cents, m.spending.cents]));
  const width = (cents: number) => `${Math.round((cents / largest) * 100)}%`;
  return (
    <>
      <ul className="cash-flow">
        {months.map((month) => (
          <li key={month.start_date}>
            <Link to={`/budgets?month=${month.start_date.slice(0, 7)}`} className="cash-flow-month">
              {month.name}
            </Link>
            <div className="cash-flow-bars" aria-hidden="true">
              <span className="flow-bar income" style={{ width: width(month.income.cents) }} />
              <span className="flow-bar spending" style={{ width: width(month.spending.cents) }} />
            </div>
            <dl className="cash-flow-figures">
              <div>
                <dt>In</dt>
                <dd>{month.income.formatted}</dd>
              </div>
              <div>
                <dt>Out</dt>
                <dd>{month.spending.formatted}</dd>
              </div>
              <div>
                <dt>Net</dt>
                <dd>
                  <Money value={month.net} />
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
      <p className="muted">
        Last {data.months.length} months: in {data.income.formatted}, out {data.spending.formatted}, net <Money value={data.net} />. Transfers between your
        accounts are left out.
      </p>
    </>
  );
}

function SpendingCard({ month }: { month: string }) {
  const spending = useSpendingByCategory();
  return (
    <section className="card" aria-labelledby="spending-title">
      <h2 id="spending-title">Spending by category</h2>
      <QueryState query={spending} loading="Loading spending…">
        {(data) => <SpendingList data={data} month={month} />}
      </QueryState>
    </section>
  );
}

function SpendingList({ data, month }: { data: SpendingByCategory; month: string }) {
  if (!data.categories.length && data.uncategorized.cents === 0) return <p className="empty">Nothing spent this month yet.</p>;
  const rows = [
    ...data.categories.map((c) => ({ key: c.category.id, name: c.category.name, color: c.category.color, spending: c.spending, share: c.share })),
    ...(data.uncategorized.cents > 0
      ? [{ key: 'none', name: 'Uncategorized', color: '#8a8f98', spending: data.uncategorized, share: data.total.cents ? data.uncategorized.cents / data.total.cents : 0 }]
      : []),
  ];
  return (
    <>
      <ul className="spending">
        {rows.map((row) => (
          <li key={row.key}>
            <span className="legend-swatch" style={{ background: row.color }} aria-hidden="true" />
            <Link to={`/budgets?month=${month}`}>{row.name}</Link>
            <span className="spending-figure">
              {row.spending.formatted} <span className="muted">({Math.round(row.share * 100)}%)</span>
            </span>
            <span className="share-bar" aria-hidden="true">
              <span style={{ width: `${Math.max(1, Math.round(row.share * 100))}%`, background: row.color }} />
            </span>
          </li>
        ))}
      </ul>
      <p className="muted">
        {formatDate(data.start_date)} to {formatDate(data.end_date)}: {data.total.formatted} in all.
      </p>
    </>
  );
}

function RecentCard() {
  const recent = useRecentTransactions(6);
  return (
    <section className="card" aria-labelledby="recent-title">
      <h2 id="recent-title">Recent transactions</h2>
      <QueryState query={recent} loading="Loading transactions…">
        {(data) =>
          data.transactions.length ? (
            <ul className="recent">
              {data.transactions.map((txn) => (
                <li key={txn.id}>
                  <span className="recent-name">
                    {txn.name}
                    <span className="muted">
                      {formatDate(txn.date)} · <Link to={`/accounts/${txn.account.id}`}>{txn.account.name}</Link>
                      {txn.category ? ` · ${txn.category.name}` : ''}
                    </span>
                  </span>
                  <TransactionAmount transaction={txn} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="empty">No transactions yet.</p>
          )
        }
      </QueryState>
    </section>
  );
}

/** The household at a glance; every figure links to the page behind it. Without accounts, the way to the first import. */
export function DashboardPage() {
  const accounts = useAccounts();
  const settings = useFamilySettings();
  const month = settings.data ? runningMonth(settings.data) : null;
  return (
    <section className="page">
      <h1 tabIndex={-1}>Dashboard</h1>
      <QueryState query={accounts} loading="Loading…">
        {(list) =>
          list.length ? (
            <div className="dashboard">
              <NetWorthCard />
              {month && <MonthBudgetCard month={month} />}
              <CashFlowCard />
              {month && <SpendingCard month={month} />}
              <RecentCard />
            </div>
          ) : (
            <div className="card empty-state">
              <h2>No accounts yet</h2>
              <p>Your dashboard fills in once your bank’s transactions are in Hearth.</p>
              <Link className="button" to="/imports/new">
                Import a file
              </Link>
            </div>
          )
        }
      </QueryState>
    </section>
  );
}
