import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { Loading } from '../../../components/Loading';
import { formatDateTime } from '../../../lib/format';
import { useAuthConfig } from '../../auth/api/useAuth';
import { useDisconnectIdentity, useIdentities } from '../api/useIdentities';
import { ChangePasswordForm } from '../components/ChangePasswordForm';

/** Password change, and the user's connected sign-in accounts: last used, connect another, disconnect (the API keeps the last method). */
export function SecurityPage() {
  const identities = useIdentities();
  const disconnect = useDisconnectIdentity();
  const config = useAuthConfig();
  const connected = new Set(identities.data?.map((i) => i.provider_name));
  const connectable = config.data ? config.data.providers.filter((p) => !connected.has(p.name)) : [];

  return (
    <section className="page">
      <h1 tabIndex={-1}>Security</h1>
      <ChangePasswordForm />
      <section className="card" aria-labelledby="connected-title">
        <h2 id="connected-title">Connected accounts</h2>
        <div className="status-slot">{disconnect.isError && <ErrorState error={disconnect.error} />}</div>
        {identities.isPending && <Loading label="Loading connected accounts…" />}
        {identities.isError && <ErrorState error={identities.error} onRetry={() => void identities.refetch()} />}
        {identities.data?.length === 0 && <p className="empty">No single sign-on account is connected.</p>}
        {identities.data && identities.data.length > 0 && (
          <DataTable caption="Connected accounts" columns={['Provider', 'Account', 'Connected', 'Last used']} actions cardsOnPhone>
            {identities.data.map((identity) => (
              <tr key={identity.id}>
                <th scope="row">{identity.provider_label || identity.provider_name}</th>
                <td>{identity.email ?? '—'}</td>
                <td>{formatDateTime(identity.created_at)}</td>
                <td>{formatDateTime(identity.last_used_at, 'Never')}</td>
                <td>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Disconnect ${identity.provider_label || identity.provider_name}`}
                    disabled={disconnect.isPending}
                    onClick={() => window.confirm('Disconnect this account? You can connect it again later.') && disconnect.mutate(identity.id)}
                  >
                    Disconnect
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      {connectable.length > 0 && (
        <section className="card" aria-labelledby="connect-title">
          <h2 id="connect-title">Connect another account</h2>
          <ul className="providers">
            {connectable.map((p) => (
              <li key={p.name}>
                <a className="button secondary" href={`/auth/${encodeURIComponent(p.name)}?intent=connect`}>
                  Connect {p.label || p.name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
