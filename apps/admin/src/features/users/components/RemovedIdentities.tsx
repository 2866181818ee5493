import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { QueryState } from '../../../components/QueryState';
import { formatDateTime } from '../../../lib/format';
import { useAllowIdentityAgain, useIdentityBlocks } from '../api/useUsers';

/**
 * SSO identities of permanently removed users: they cannot sign in or get an account again through their provider
 * until "Allow again" (super admins only).
 */
export function RemovedIdentities() {
  const blocks = useIdentityBlocks(true);
  const allow = useAllowIdentityAgain();
  return (
    <section className="card" aria-labelledby="removed-identities-title">
      <h2 id="removed-identities-title">Removed SSO identities</h2>
      <p className="muted">Sign-ins of deleted users through these providers are refused, and no new account is created for them.</p>
      <div className="status-slot">{allow.isError && <ErrorState error={allow.error} />}</div>
      <QueryState query={blocks} loading="Loading removed identities…">
        {(list) =>
          list.length === 0 ? (
            <p className="empty">No removed SSO identities.</p>
          ) : (
            <DataTable caption="Removed SSO identities" columns={['Removed user', 'Provider', 'Removed']} actions cardsOnPhone>
              {list.map((block) => (
                <tr key={block.id}>
                  <th scope="row">{block.identity_label}</th>
                  <td>{block.provider_label}</td>
                  <td>{formatDateTime(block.created_at)}</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Allow ${block.identity_label} (${block.provider_label}) again`}
                      disabled={allow.isPending}
                      onClick={() => allow.mutate(block.id)}
                    >
                      Allow again
                    </button>
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </section>
  );
}
