import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { LineChart } from '../../../components/charts/LineChart';
import { DataTable } from '../../../components/DataTable';
import { Money } from '../../../components/Money';
import { ErrorState } from '../../../components/ErrorState';
import { QueryState } from '../../../components/QueryState';
import { formatDate } from '../../../lib/format';
import { useAccountBalances } from '../../reports/api/useReports';
import { REGISTER_PAGE_SIZE, useAccount, useRegister, useUpdateAccount, type Account } from '../api/useAccounts';
import { AccountDialog } from '../components/AccountDialog';
import { BalanceDialog } from '../components/BalanceDialog';
import { DeleteAccountDialog } from '../components/DeleteAccountDialog';
import { accountTypeLabel } from '../components/accountTypes';
import { TransactionAmount } from '../components/TransactionAmount';

function BalanceChart({ account }: { account: Account }) {
  const balances = useAccountBalances({ account_id: account.id, interval: 'week', start_date: yearAgo() });
  return (
    <QueryState query={balances} loading="Loading the balance over time…">
      {(data) => {
        const points = data.accounts[0]?.points ?? [];
        if (!points.length) return null;
        const [first, last] = [points[0], points[points.length - 1]];
        return (
          <LineChart
            points={points.map((p) => ({ date: p.date, value: p.balance.cents }))}
            label={`Balance from ${formatDate(first.date)} (${first.balance.formatted}) to ${formatDate(last.date)} (${last.balance.formatted})`}
          />
        );
      }}
    </QueryState>
  );
}

/** A year back from the browser's today, as the start of the balance chart. */
function yearAgo(): string {
  const now = new Date();
  return `${now.getFullYear() - 1}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(Math.min(now.getDate(), 28)).padStart(2, '0')}`;
}

type Dialog = 'edit' | 'balance' | 'delete' | null;

/** Edit, update the balance, close or reopen, delete: each says what it did in the status line. */
function AccountActions({ account }: { account: Account }) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const [status, setStatus] = useState('');
  const update = useUpdateAccount();
  const navigate = useNavigate();
  const closed = Boolean(account.closed_at);
  const toggleClosed = () =>
    update.mutate(
      { id: account.id, closed: !closed },
      { onSuccess: () => setStatus(closed ? 'Reopened: it takes new transactions again.' : 'Closed: its history stays; it takes no new transactions.') },
    );
  return (
    <>
      <div className="actions account-actions">
        <button type="button" className="secondary" onClick={() => setDialog('edit')}>
          Edit
        </button>
        <button type="button" className="secondary" onClick={() => setDialog('balance')}>
          Update balance
        </button>
        <button type="button" className="secondary" onClick={toggleClosed} disabled={update.isPending}>
          {closed ? 'Reopen account' : 'Close account'}
        </button>
        <button type="button" className="danger" onClick={() => setDialog('delete')}>
          Delete
        </button>
      </div>
      <p className="status-slot" role="status">
        {status}
      </p>
      {update.isError && <ErrorState error={update.error} />}
      {dialog === 'edit' && <AccountDialog account={account} familyCurrency={account.currency} onClose={() => setDialog(null)} onSaved={() => setStatus('Saved.')} />}
      {dialog === 'balance' && <BalanceDialog account={account} onClose={() => setDialog(null)} onSaved={(balance) => setStatus(`Balance set to ${balance}.`)} />}
      {dialog === 'delete' && <DeleteAccountDialog account={account} onClose={() => setDialog(null)} onDone={() => navigate('/accounts')} />}
    </>
  );
}

function Register({ accountId }: { accountId: string }) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const register = useRegister(accountId, page);
  const go = (to: number) => setParams(to > 1 ? { page: String(to) } : {});
  return (
    <section className="card" aria-labelledby="register-title">
      <h2 id="register-title">Transactions</h2>
      <QueryState query={register} loading="Loading transactions…">
        {(data) =>
          data.transactions.length ? (
            <>
              <DataTable caption="Transactions of this account, newest first" columns={['Date', 'Name', 'Category', 'Amount']} cardsOnPhone>
                {data.transactions.map((txn) => (
                  <tr key={txn.id}>
                    <td>{formatDate(txn.date)}</td>
                    <th scope="row">
                      {txn.name}
                      {txn.transfer && <span className="muted"> · transfer with {txn.transfer.other_account.name}</span>}
                    </th>
                    <td>{txn.category?.name ?? <span className="muted">Uncategorized</span>}</td>
                    <td className="num">
                      <TransactionAmount transaction={txn} />
                    </td>
                  </tr>
                ))}
              </DataTable>
              {/* Asked for by page, the list always says how many pages there are (pagination is null only for a cursor). */}
              {data.pagination && data.pagination.total_pages > 1 && (
                <nav className="pager" aria-label="Pages of transactions">
                  <button type="button" className="secondary" disabled={page <= 1} onClick={() => go(page - 1)}>
                    Newer
                  </button>
                  <span>
                    Page {data.pagination.page} of {data.pagination.total_pages} ({data.pagination.total_count} transactions, {REGISTER_PAGE_SIZE} a page)
                  </span>
                  <button type="button" className="secondary" disabled={page >= data.pagination.total_pages} onClick={() => go(page + 1)}>
                    Older
                  </button>
                </nav>
              )}
            </>
          ) : (
            <p className="empty">
              No transactions in this account yet. <Link to="/imports/new">Import a file</Link> to add some.
            </p>
          )
        }
      </QueryState>
    </section>
  );
}

/** One account: its actions, its balance, its balance over the last year, and its register (paged). */
export function AccountPage() {
  const { id = '' } = useParams();
  const account = useAccount(id);
  return (
    <section className="page">
      <p className="breadcrumb">
        <Link to="/accounts">Accounts</Link>
      </p>
      <QueryState query={account} loading="Loading the account…">
        {(data) => (
          <>
            <h1 tabIndex={-1}>
              {data.name}
              {data.closed_at && <span className="badge">closed</span>}
            </h1>
            <AccountActions account={data} />
            <section className="card" aria-labelledby="balance-title">
              <h2 id="balance-title" className="visually-hidden">
                Balance
              </h2>
              <dl className="facts">
                <div>
                  <dt>{data.classification === 'liability' ? 'Owed' : 'Balance'}</dt>
                  <dd>
                    <Money value={{ cents: data.balance_cents, formatted: data.balance }} />
                  </dd>
                </div>
                <div>
                  <dt>Type</dt>
                  <dd>{accountTypeLabel(data.account_type)}</dd>
                </div>
                {data.institution_name && (
                  <div>
                    <dt>Institution</dt>
                    <dd>{data.institution_name}</dd>
                  </div>
                )}
              </dl>
              <BalanceChart account={data} />
            </section>
            <Register accountId={data.id} />
          </>
        )}
      </QueryState>
    </section>
  );
}
