import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Sparkline } from '../../../components/charts/LineChart';
import { Money } from '../../../components/Money';
import { QueryState } from '../../../components/QueryState';
import { useAccountBalances, type AccountBalanceSeries } from '../../reports/api/useReports';
import { useFamilySettings } from '../../transactions/api/useTransactions';
import { useAccounts, type Account } from '../api/useAccounts';
import { AccountDialog } from '../components/AccountDialog';
import { ACCOUNT_TYPE_GROUPS, accountTypeLabel } from '../components/accountTypes';

/** A balance as a figure: what a liability owes is shown as a negative amount of the household's. */
const balanceOf = (account: Account) => ({ cents: account.classification === 'liability' ? -account.balance_cents : account.balance_cents, formatted: account.balance });

/** How the last 90 days went, in words: for a liability, whether more or less is owed. */
function trend(account: Account, first: number, last: number): string {
  if (first === last) return 'unchanged';
  if (account.classification === 'liability') return last > first ? 'owed more' : 'owed less';
  return last > first ? 'up' : 'down';
}

function AccountRow({ account, series }: { account: Account; series?: AccountBalanceSeries }) {
  const balances = series?.points.map((p) => p.balance.cents) ?? [];
  // Drawn as the account's part of net worth, so that a line going down (red) is always the worse way.
  const sign = account.classification === 'liability' ? -1 : 1;
  const points = (series?.points ?? []).map((p) => ({ date: p.date, value: sign * p.balance.cents }));
  const label = balances.length ? `${account.name}: ${trend(account, balances[0], balances[balances.length - 1])} over the last 90 days` : '';
  return (
    <li className="account-row">
      <Link to={`/accounts/${account.id}`} className="account-name">
        {account.name}
        {account.institution_name && <span className="muted"> · {account.institution_name}</span>}
        {account.status === 'draft' && <span className="badge">draft</span>}
        {account.closed_at && <span className="badge">closed</span>}
      </Link>
      <Sparkline points={points} label={label} />
      <Money value={balanceOf(account)} className="account-balance" />
    </li>
  );
}

/** The family's accounts grouped by type, each with its balance and its last 90 days as a sparkline. */
export function AccountsPage() {
  const accounts = useAccounts();
  const balances = useAccountBalances();
  const seriesOf = (id: string) => balances.data?.accounts.find((a) => a.account_id === id);
  const settings = useFamilySettings();
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  return (
    <section className="page">
      <div className="page-head">
        <h1 tabIndex={-1}>Accounts</h1>
        <button type="button" onClick={() => setAdding(true)} disabled={!settings.data}>
          Add account
        </button>
      </div>
      {adding && settings.data && (
        <AccountDialog familyCurrency={settings.data.currency} onClose={() => setAdding(false)} onSaved={(saved) => navigate(`/accounts/${saved.id}`)} />
      )}
      <QueryState query={accounts} loading="Loading accounts…">
        {(list) =>
          list.length ? (
            ACCOUNT_TYPE_GROUPS.map(({ type, label }) => ({ type, label, members: list.filter((a) => a.account_type === type) }))
              .concat([{ type: 'other', label: 'Other', members: list.filter((a) => !ACCOUNT_TYPE_GROUPS.some((g) => g.type === a.account_type)) }])
              .filter((group) => group.members.length)
              .map((group) => (
                <section className="card" key={group.type} aria-labelledby={`group-${group.type}`}>
                  <h2 id={`group-${group.type}`}>{group.label === 'Other' ? 'Other' : accountTypeLabel(group.type)}</h2>
                  <ul className="accounts">
                    {group.members.map((account) => (
                      <AccountRow key={account.id} account={account} series={seriesOf(account.id)} />
                    ))}
                  </ul>
                </section>
              ))
          ) : (
            <div className="card empty-state">
              <h2>No accounts yet</h2>
              <p>Add an account by hand, or they appear here when you import your bank’s transactions.</p>
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
