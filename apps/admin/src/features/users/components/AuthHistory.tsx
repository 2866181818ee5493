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
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Provider</th>
                  <th scope="col">IP address</th>
                </tr>
              </thead>
              <tbody>
                {list.map((e) => (
                  <tr key={e.id}>
                    <td>{formatDateTime(e.created_at)}</td>
                    <td>{e.event.replaceAll('_', ' ')}</td>
                    <td>{e.provider ?? '—'}</td>
                    <td>{e.ip_address ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
    </section>
  );
}
