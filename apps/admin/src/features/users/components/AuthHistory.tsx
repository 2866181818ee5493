import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { Loading } from '../../../components/Loading';
import { formatDateTime } from '../../../lib/format';
import { useAuthHistory, type AdminUser } from '../api/useUsers';

/** Sign-in and account events of one user, newest first. */
export function AuthHistory({ user }: { user: AdminUser }) {
  const history = useAuthHistory(user.id);
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">History of {user.email}</h2>
      {history.isPending && <Loading label="Loading history…" />}
      {history.isError && <ErrorState error={history.error} onRetry={() => void history.refetch()} />}
      {history.data?.length === 0 && <p className="empty">No events recorded.</p>}
      {history.data && history.data.length > 0 && (
        <DataTable caption="Sign-in and account events" columns={['When', 'Event', 'Provider', 'IP address']}>
          {history.data.map((e) => (
            <tr key={e.id}>
              <td>{formatDateTime(e.created_at)}</td>
              <td>{e.event.replaceAll('_', ' ')}</td>
              <td>{e.provider ?? '—'}</td>
              <td>{e.ip_address ?? '—'}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
