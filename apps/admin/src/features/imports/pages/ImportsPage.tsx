import { Link, useLocation, useSearchParams } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { Loading } from '../../../components/Loading';
import { formatDateTime } from '../../../lib/format';
import { useImports } from '../api/useImports';
import { ImportStatusBadge } from '../components/ImportStatusBadge';
import { accountLabel, importSource, rowDates } from '../components/importLabels';
import { typeLabel } from '../components/importFormats';

export function ImportsPage() {
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page')) || 1;
  const imports = useImports(page);
  const meta = imports.data?.meta;
  // Set by the import's page after a discard.
  const discarded = (useLocation().state as { discarded?: string } | null)?.discarded;
  return (
    <section className="page">
      <div className="page-head">
        <h1 tabIndex={-1}>Imports</h1>
        <Link className="button" to="/imports/new">
          New import
        </Link>
      </div>
      <div className="status-slot" role="status">
        {discarded && <p>Import discarded: {discarded}.</p>}
      </div>
      {imports.isPending && <Loading label="Loading imports…" />}
      {imports.isError && <ErrorState error={imports.error} onRetry={() => void imports.refetch()} />}
      {imports.data?.data.length === 0 && <p className="empty">No imports yet. Start with “New import”.</p>}
      {imports.data && imports.data.data.length > 0 && (
        <DataTable caption="Imports" columns={['File', 'Type', 'Account', 'Dates', 'Rows', 'With errors', 'Status', 'Created', 'Transactions']} cardsOnPhone>
          {imports.data.data.map((i) => (
            <tr key={i.id}>
              <th scope="row">
                <Link to={`/imports/${i.id}`}>{importSource(i)}</Link>
              </th>
              <td>{typeLabel(i.type)}</td>
              <td>{accountLabel(i)}</td>
              <td>{rowDates(i)}</td>
              <td>{i.stats.rows_count}</td>
              <td>{i.stats.invalid_rows_count}</td>
              <td>
                <ImportStatusBadge status={i.status} />
              </td>
              <td>{formatDateTime(i.created_at)}</td>
              <td>
                {i.status === 'complete' ? (
                  <Link to={`/transactions?import_id=${i.id}`} aria-label={`View the transactions of ${importSource(i)}`}>
                    View transactions
                  </Link>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {meta && meta.total_pages > 1 && (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="secondary" disabled={!meta.prev_page} onClick={() => setParams({ page: String(meta.prev_page) })}>
            Previous
          </button>
          <span>
            Page {meta.current_page} of {meta.total_pages}
          </span>
          <button type="button" className="secondary" disabled={!meta.next_page} onClick={() => setParams({ page: String(meta.next_page) })}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
