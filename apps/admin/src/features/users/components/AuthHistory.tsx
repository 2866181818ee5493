import { DataTable } from '../../../components/DataTable';
import { QueryState } from '../../../components/QueryState';
import { formatDateTime } from '../../../lib/format';
import { useAuthHistory, type AdminUser } from '../api/useUsers';

/** Sign-in and account events of one user, newest first. */
export function AuthHistory({ user }: { user: AdminUser }) {
  const history = useAuthHistory(user.id);
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">History of {user.email}</h2>
      <QueryState query={history} loading="Loading history…">
        {(list) =>
          list.length === 0 ? (
            <p className="empty">No events recorded.</p>
          ) : (
            <DataTable caption="Sign-in and account events" columns={['When', 'Event', 'Provider', 'IP address']}>
              {list.map((e) => (
                <tr key={e.id}>
                  <td>{formatDateTime(e.created_at)}</td>
                  <td>{e.event.replaceAll('_', ' ')}</td>
                  <td>{e.provider ?? '—'}</td>
                  <td>{e.ip_address ?? '—'}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </section>
  );
}
