import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { ROLES, USER_STATUSES } from '@hearth/contracts';
import { useSession } from '../../../app/auth/useSession';
import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { QueryState } from '../../../components/QueryState';
import { formatDateTime } from '../../../lib/format';
import { useReactivateUser, useSuspendUser, useSyncRoles, useUsers, type AdminUser, type UserFilters } from '../api/useUsers';
import { AuthHistory } from '../components/AuthHistory';
import { DeleteUserDialog } from '../components/DeleteUserDialog';
import { RemovedIdentities } from '../components/RemovedIdentities';

const label = (value: string) => value.replaceAll('_', ' ');

/**
 * Users of the family (all families for a super admin): search, filter, suspend, reactivate, sync roles, delete,
 * history; super admins also see the removed users' SSO identities.
 */
export function UsersPage() {
  const [params, setParams] = useSearchParams();
  const filters: UserFilters = {
    q: params.get('q') || undefined,
    role: (params.get('role') || undefined) as UserFilters['role'],
    status: (params.get('status') || undefined) as UserFilters['status'],
    provider: params.get('provider') || undefined,
    page: Number(params.get('page')) || 1,
    per_page: 25,
  };
  const users = useUsers(filters);
  const { data: me } = useSession();
  const suspend = useSuspendUser();
  const reactivate = useReactivateUser();
  const syncRoles = useSyncRoles();
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const [historyOf, setHistoryOf] = useState<AdminUser | null>(null);
  const [q, setQ] = useState(filters.q ?? '');
  const [provider, setProvider] = useState(filters.provider ?? '');

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };
  const search = (event: FormEvent) => {
    event.preventDefault();
    update({ q: q.trim() || undefined, provider: provider.trim() || undefined });
  };
  const actionError = suspend.error ?? reactivate.error ?? syncRoles.error;
  const synced = syncRoles.data;
  const pages = users.data ? Math.max(1, Math.ceil(users.data.total / users.data.per_page)) : 1;

  return (
    <section className="page">
      <h1 tabIndex={-1}>Users</h1>
      <form className="filters" role="search" aria-label="Filter users" onSubmit={search}>
        <Field label="Search">
          <input type="search" placeholder="E-mail or name" value={q} onChange={(e) => setQ(e.target.value)} />
        </Field>
        <Field label="Role">
          <select value={filters.role ?? ''} onChange={(e) => update({ role: e.target.value || undefined })}>
            <option value="">Any role</option>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {label(r)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Status">
          <select value={filters.status ?? ''} onChange={(e) => update({ status: e.target.value || undefined })}>
            <option value="">Any status</option>
            {USER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Sign-in method">
          <input
            placeholder="local or provider name"
            value={provider}
            onChange={(e) => setProvider(e.target.value)}
            onBlur={() => provider.trim() !== (filters.provider ?? '') && update({ provider: provider.trim() || undefined })}
          />
        </Field>
        <button type="submit">Search</button>
      </form>

      <div className="status-slot">
        {actionError && <ErrorState error={actionError} />}
        {synced && (
          <p role="status">
            {synced.role_before === synced.role_after
              ? `Roles of ${synced.user.email} synced: still ${label(synced.role_after)}`
              : `Roles of ${synced.user.email} synced: ${label(synced.role_before)} → ${label(synced.role_after)}`}{' '}
            ({synced.provider}: {synced.rule}).
          </p>
        )}
      </div>
      <QueryState query={users} loading="Loading users…">
        {(list) => (
          <>
            <p className="muted" aria-live="polite">
              {list.total} {list.total === 1 ? 'user' : 'users'}
              {users.isFetching && ' (updating…)'}
            </p>
            {list.users.length === 0 ? (
              <p className="empty">No user matches these filters.</p>
            ) : (
              <DataTable caption="Users" columns={['E-mail', 'Name', 'Role', 'Status', 'Sign-in methods', 'Last sign-in']} actions cardsOnPhone>
                {list.users.map((user) => {
                  const self = user.id === me?.id;
                  // A super admin's suspension is lifted (or the user removed) only by a super admin: others see why, and no
                  // Reactivate or Delete the API would refuse.
                  const bySuperAdmin = user.status === 'suspended' && user.suspended_by_role === 'super_admin';
                  const heldByOther = bySuperAdmin && me?.role !== 'super_admin';
                  return (
                    <tr key={user.id}>
                      <th scope="row">{user.email}</th>
                      <td>{[user.first_name, user.last_name].filter(Boolean).join(' ') || '—'}</td>
                      <td>{label(user.role)}</td>
                      <td>
                        <span className={`badge ${user.status}`}>{user.status}</span>
                        {bySuperAdmin && <span className="muted"> by a super admin</span>}
                      </td>
                      <td>{user.auth_methods.join(', ') || '—'}</td>
                      <td>{formatDateTime(user.last_login_at, 'Never')}</td>
                      <td className="row-actions">
                        <button type="button" className="secondary" aria-label={`History of ${user.email}`} onClick={() => setHistoryOf(user)}>
                          History
                        </button>
                        {!self &&
                          (user.status === 'active' ? (
                            <button type="button" className="secondary" aria-label={`Suspend ${user.email}`} disabled={suspend.isPending} onClick={() => suspend.mutate(user.id)}>
                              Suspend
                            </button>
                          ) : heldByOther ? null : (
                            <button type="button" className="secondary" aria-label={`Reactivate ${user.email}`} disabled={reactivate.isPending} onClick={() => reactivate.mutate(user.id)}>
                              Reactivate
                            </button>
                          ))}
                        {!self && user.auth_methods.some((method) => method !== 'password') && (
                          <button
                            type="button"
                            className="secondary"
                            aria-label={`Sync roles of ${user.email}`}
                            title="Apply the SSO provider's current role mapping to the groups of the last sign-in"
                            disabled={syncRoles.isPending}
                            onClick={() => syncRoles.mutate(user.id)}
                          >
                            Sync roles
                          </button>
                        )}
                        {!self && !heldByOther && (
                          <button type="button" className="danger" aria-label={`Delete ${user.email}`} onClick={() => setDeleting(user)}>
                            Delete
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </DataTable>
            )}
            {pages > 1 && (
              <nav className="pager" aria-label="Pages">
                <button type="button" className="secondary" disabled={list.page <= 1} onClick={() => update({ page: String(list.page - 1) })}>
                  Previous
                </button>
                <span>
                  Page {list.page} of {pages}
                </span>
                <button type="button" className="secondary" disabled={list.page >= pages} onClick={() => update({ page: String(list.page + 1) })}>
                  Next
                </button>
              </nav>
            )}
          </>
        )}
      </QueryState>
      {historyOf && <AuthHistory user={historyOf} />}
      {me?.role === 'super_admin' && <RemovedIdentities />}
      {deleting && <DeleteUserDialog user={deleting} onClose={() => setDeleting(null)} />}
    </section>
  );
}
