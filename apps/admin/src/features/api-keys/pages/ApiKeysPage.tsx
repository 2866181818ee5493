import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { Loading } from '../../../components/Loading';
import { formatDateTime } from '../../../lib/format';
import { useApiKeys, useRevokeApiKey, type ApiKey } from '../api/useApiKeys';
import { NewKeyForm } from '../components/NewKeyForm';

const scopeLabel = (scope: ApiKey['scope']) => (scope === 'read_write' ? 'Read and write' : 'Read');

/** A key past its expiry is refused by the API: say so rather than "Expires <a past date>". */
function statusLabel(key: ApiKey): string {
  if (key.revoked_at) return `Revoked ${formatDateTime(key.revoked_at)}`;
  if (!key.expires_at) return 'Active';
  return `${new Date(key.expires_at).getTime() <= Date.now() ? 'Expired' : 'Expires'} ${formatDateTime(key.expires_at)}`;
}

export function ApiKeysPage() {
  const keys = useApiKeys();
  const revoke = useRevokeApiKey();

  return (
    <section className="page">
      <h1 tabIndex={-1}>API keys</h1>
      <p className="muted">Keys let scripts use the API as you (send the key in the X-Api-Key header).</p>
      <NewKeyForm />
      <section className="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Your keys</h2>
        {revoke.isError && <ErrorState error={revoke.error} />}
        {keys.isPending && <Loading label="Loading keys…" />}
        {keys.isError && <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />}
        {keys.data?.length === 0 && <p className="empty">You have no API keys yet.</p>}
        {keys.data && keys.data.length > 0 && (
          <DataTable caption="Your API keys" columns={['Name', 'Prefix', 'Scope', 'Created', 'Last used', 'Status']} actions cardsOnPhone>
            {keys.data.map((key) => (
              <tr key={key.id}>
                <th scope="row">{key.name}</th>
                <td>
                  <code>{key.prefix}</code>
                </td>
                <td>{scopeLabel(key.scope)}</td>
                <td>{formatDateTime(key.created_at)}</td>
                <td>{formatDateTime(key.last_used_at, 'Never')}</td>
                <td>{statusLabel(key)}</td>
                <td>
                  {!key.revoked_at && (
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Revoke ${key.name}`}
                      disabled={revoke.isPending && revoke.variables === key.id}
                      onClick={() => {
                        if (window.confirm(`Revoke the key “${key.name}”? Scripts using it stop working at once.`)) revoke.mutate(key.id);
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </section>
  );
}
