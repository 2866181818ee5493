import { useSearchParams } from 'react-router';
import { AUDIT_EVENTS, type AuditActor } from '@hearth/contracts';
import { DataTable } from '../../../components/DataTable';
import { Field } from '../../../components/Field';
import { QueryState } from '../../../components/QueryState';
import { formatDateTime } from '../../../lib/format';
import { useAuditLogs, type AuditFilters } from '../api/useAuditLogs';
import { AuditDetails } from '../components/AuditDetails';

const PER_PAGE = 50;
const label = (event: string) => event.replaceAll('_', ' ');
/** Who acted, in words. */
const ACTORS: Record<AuditActor, string> = { user: 'App or API', cli: 'Command line', system: 'System' };
/** datetime-local (local time, no zone) to ISO 8601 and back. */
const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);
const toLocal = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** The audit log, filtered by event and time, newest first, paginated. */
export function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const filters: AuditFilters = {
    event: (params.get('event') || undefined) as AuditFilters['event'],
    from: params.get('from') || undefined,
    to: params.get('to') || undefined,
    page: Number(params.get('page')) || 1,
    per_page: PER_PAGE,
  };
  const logs = useAuditLogs(filters);
  const update = (key: string, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next);
  };
  const pages = logs.data ? Math.max(1, Math.ceil(logs.data.total / logs.data.per_page)) : 1;

  return (
    <section className="page">
      <h1 tabIndex={-1}>Audit log</h1>
      <div className="filters" role="search" aria-label="Filter events">
        <Field label="Event">
          <select value={filters.event ?? ''} onChange={(e) => update('event', e.target.value || undefined)}>
            <option value="">All events</option>
            {AUDIT_EVENTS.map((e) => (
              <option key={e} value={e}>
                {label(e)}
              </option>
            ))}
          </select>
        </Field>
        <Field label="From">
          <input type="datetime-local" value={toLocal(params.get('from'))} onChange={(e) => update('from', toIso(e.target.value))} />
        </Field>
        <Field label="To">
          <input type="datetime-local" value={toLocal(params.get('to'))} onChange={(e) => update('to', toIso(e.target.value))} />
        </Field>
      </div>
      <QueryState query={logs} loading="Loading events…">
        {(list) => (
          <>
            <p className="muted" aria-live="polite">
              {list.total} {list.total === 1 ? 'event' : 'events'}
            </p>
            {list.audit_logs.length === 0 ? (
              <p className="empty">No event matches these filters.</p>
            ) : (
              <DataTable caption="Audit events" columns={['When', 'Event', 'By', 'User', 'Provider', 'IP address', 'Details']}>
                {list.audit_logs.map((log) => (
                  <tr key={log.id}>
                    <td>{formatDateTime(log.created_at)}</td>
                    <td>{label(log.event)}</td>
                    <td>{ACTORS[log.actor]}</td>
                    <td>{log.user_email ?? (log.user_id ? <code>{log.user_id.slice(0, 8)}</code> : '—')}</td>
                    <td>{log.provider_name ?? '—'}</td>
                    <td>{log.ip_address ?? '—'}</td>
                    <td>
                      <AuditDetails details={log.details} />
                    </td>
                  </tr>
                ))}
              </DataTable>
            )}
            {pages > 1 && (
              <nav className="pager" aria-label="Pages">
                <button type="button" className="secondary" disabled={list.page <= 1} onClick={() => update('page', String(list.page - 1))}>
                  Previous
                </button>
                <span>
                  Page {list.page} of {pages}
                </span>
                <button type="button" className="secondary" disabled={list.page >= pages} onClick={() => update('page', String(list.page + 1))}>
                  Next
                </button>
              </nav>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
