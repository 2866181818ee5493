import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { QueryState } from '../../../components/QueryState';
import { useDeleteProvider, useProviders, useSetProviderEnabled, useStartTestLogin, type Provider } from '../api/useProviders';
import { ProviderForm } from '../components/ProviderForm';
import { TestLoginResult } from '../components/TestLoginResult';

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      aria-label={label}
      onClick={() =>
        void navigator.clipboard
          .writeText(text)
          .catch(() => undefined)
          .then(() => setCopied(true))
      }
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** Identity providers (super admins): list, add/edit per strategy, callback URLs, test, enable/disable, delete. */
export function ProvidersPage() {
  const providers = useProviders();
  const setEnabled = useSetProviderEnabled();
  const remove = useDeleteProvider();
  const testLogin = useStartTestLogin();
  const [params, setParams] = useSearchParams();
  const tested = params.get('test_login');
  const [editing, setEditing] = useState<Provider | 'new' | null>(null);
  const actionError = setEnabled.error ?? remove.error ?? testLogin.error;

  return (
    <section className="page">
      <div className="page-head">
        <h1 tabIndex={-1}>Sign-in providers</h1>
        {editing === null && (
          <button type="button" onClick={() => setEditing('new')}>
            Add provider
          </button>
        )}
      </div>
      {editing !== null && <ProviderForm key={editing === 'new' ? 'new' : editing.id} provider={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      <div className="status-slot">{actionError && <ErrorState error={actionError} />}</div>
      {tested && (
        <TestLoginResult
          providerId={tested}
          providerName={providers.data?.sso_providers.find((p) => p.id === tested)?.name ?? 'provider'}
          onClose={() => setParams({})}
        />
      )}
      <QueryState query={providers} loading="Loading providers…">
        {(list) =>
          list.sso_providers.length === 0 ? (
            <p className="empty">No provider yet: only e-mail and password sign-in is available.</p>
          ) : (
            <DataTable caption="Sign-in providers" columns={['Provider', 'Strategy', 'Status', 'Callback URL']} actions cardsOnPhone>
              {list.sso_providers.map((p) => (
                <tr key={p.id}>
                  <th scope="row">
                    {p.label || p.name} {p.label && p.label !== p.name && <span className="muted">({p.name})</span>}
                  </th>
                  <td>{p.strategy}</td>
                  <td>
                    <span className={`badge ${p.enabled ? 'active' : 'suspended'}`}>{p.enabled ? 'enabled' : 'disabled'}</span>
                  </td>
                  <td>
                    <code className="details">{p.callback_url}</code> <CopyButton text={p.callback_url} label={`Copy the callback URL of ${p.name}`} />
                  </td>
                  <td className="row-actions">
                    <button type="button" className="secondary" aria-label={`Edit ${p.name}`} onClick={() => setEditing(p)}>
                      Edit
                    </button>
                    <button type="button" className="secondary" aria-label={`Test login with ${p.name}`} disabled={testLogin.isPending} onClick={() => testLogin.mutate(p.id)}>
                      Test login
                    </button>
                    <button type="button" className="secondary" aria-label={`${p.enabled ? 'Disable' : 'Enable'} ${p.name}`} disabled={setEnabled.isPending} onClick={() => setEnabled.mutate({ id: p.id, enabled: !p.enabled })}>
                      {p.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <button
                      type="button"
                      className="danger"
                      aria-label={`Delete ${p.name}`}
                      disabled={remove.isPending}
                      onClick={() => window.confirm(`Delete ${p.name}? Users linked through it can no longer sign in with it, and those signed in through it are signed out.`) && remove.mutate(p.id)}
                    >
                      Delete
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
