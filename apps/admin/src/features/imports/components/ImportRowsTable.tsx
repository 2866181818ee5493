import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { Loading } from '../../../components/Loading';
import { useFocusAfter } from '../../../components/useFocusAfter';
import { formatAmount } from '../../../lib/format';
import { isUnpublished, useImportRows, useSkipRows, type ImportDetail, type ImportRow } from '../api/useImports';
import { formatFacts } from './importFormats';

/** A parsed value as text: lists (tags) joined, empty for null. */
const cellText = (value: unknown): string => (value === null || value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value));

/**
 * Whether the file writes money in as positive, the opposite of the stored amounts: all but a transaction file read
 * with inflows_negative and a signed amount (a type column's magnitudes show as money in positive). Null for types
 * whose amounts are not money in or out (an AccountImport's balances, shown as they are).
 */
function inflowsPositive(detail: ImportDetail): boolean | null {
  // Types whose rows keep amounts positive for money out (the files mostly write money in as positive).
  const facts = formatFacts(detail.type);
  if (!facts.signedAmounts) return null;
  const { signage_convention, amount_type_strategy } = detail.configuration;
  const readsSignage = facts.fields.includes('signage_convention');
  return !(signage_convention === 'inflows_negative' && amount_type_strategy !== 'custom_column' && readsSignage);
}

/** The value of column `field` as the file had it: an amount in its currency and sign, a date that did not read as written. */
function shownValue(row: ImportRow, field: string, negate: boolean) {
  const value = row.fields[field];
  if (field === 'amount' && typeof value === 'string') return formatAmount(value, typeof row.fields.currency === 'string' ? row.fields.currency : null, { negate });
  if (field === 'date' && value === null && typeof row.fields.raw_date === 'string') {
    return (
      <>
        {row.fields.raw_date} <span className="muted">(not read as a date)</span>
      </>
    );
  }
  return cellText(value);
}

/** `?errors=only` in the page's address shows the rows with errors alone, so the "With errors" figure can link to them. */
export const ONLY_ERRORS = 'errors=only';
export const useOnlyErrors = (): [boolean, (on: boolean) => void] => {
  const [params, setParams] = useSearchParams();
  return [params.get('errors') === 'only', (on) => setParams(on ? ONLY_ERRORS : '')];
};

/**
 * The parsed rows with their errors; invalid rows are marked and, before publishing, can be skipped (and included
 * again). They can be narrowed to the rows with errors, which are then paged among themselves.
 */
export function ImportRowsTable({ detail }: { detail: ImportDetail }) {
  const [onlyErrors, setOnlyErrors] = useOnlyErrors();
  const [paging, setPaging] = useState({ onlyErrors, page: 1 });
  // Another filter pages from its own page 1 (the figure's link changes it from outside this table).
  const page = paging.onlyErrors === onlyErrors ? paging.page : 1;
  const setPage = (next: number) => setPaging({ onlyErrors, page: next });
  const rows = useImportRows(detail.id, page, detail.updated_at, onlyErrors);
  const skip = useSkipRows(detail.id);
  // The row and whether it was skipped or included again, for the message saying so.
  const [change, setChange] = useState<{ row: number; skipped: boolean } | null>(null);
  const editable = isUnpublished(detail);
  const skipped = detail.skip_rows;
  // The clicked button goes with its row: after the answer, focus goes to the message, whose next Tab is the way back.
  const slot = useFocusAfter<HTMLDivElement>(skip.data ?? skip.error);
  const setSkipped = (row: number, leaveOut: boolean) => {
    setChange({ row, skipped: leaveOut });
    skip.mutate(leaveOut ? [...skipped, row] : skipped.filter((s) => s !== row));
  };
  // raw_date shows in the date column, where the row's date is missing.
  const fields = rows.data ? [...new Set(rows.data.data.flatMap((r) => Object.keys(r.fields)))].filter((f) => f !== 'raw_date') : [];
  const signs = inflowsPositive(detail);
  const meta = rows.data?.meta;
  // Skipping the last rows of the last page leaves it past the end: show the page that is now the last.
  const lastPage = meta && meta.total_count > 0 && meta.current_page > meta.total_pages ? meta.total_pages : null;
  useEffect(() => {
    if (lastPage) setPaging({ onlyErrors, page: lastPage });
  }, [lastPage, onlyErrors]);
  return (
    <section className="card" aria-labelledby="rows-title">
      <h2 id="rows-title" tabIndex={-1}>
        Rows {rows.isPlaceholderData && <span className="muted">(updating…)</span>}
      </h2>
      <div className="status-slot" aria-live="polite" ref={slot}>
        {skip.isError && <ErrorState error={skip.error} />}
        {skip.isPending && <p role="status">Reading the rows again…</p>}
        {skip.isSuccess && change && (
          <p role="status">{change.skipped ? `Row ${change.row} is skipped: it is left out of the import.` : `Row ${change.row} is included again: it is checked and published with the others.`}</p>
        )}
      </div>
      {skipped.length > 0 && (
        <section aria-labelledby="skipped-title">
          <h3 id="skipped-title">Skipped rows</h3>
          <p className="muted">These rows of the file are left out: they are not checked, counted or published.</p>
          <ul className="skipped-rows">
            {skipped.map((n) => (
              <li key={n}>
                Row {n}
                {editable && (
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Include row ${n} again`}
                    disabled={skip.isPending}
                    onClick={() => setSkipped(n, false)}
                  >
                    Include again
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {(onlyErrors || detail.stats.invalid_rows_count > 0) && (
        <label className="rows-filter">
          <input type="checkbox" checked={onlyErrors} onChange={(e) => setOnlyErrors(e.target.checked)} /> Show only rows with errors
        </label>
      )}
      {signs !== null && fields.includes('amount') && (
        <p className="muted">Amounts as the file signs them: money in is {signs ? 'positive, money out negative' : 'negative, money out positive'}.</p>
      )}
      {rows.isPending && <Loading label="Loading rows…" />}
      {rows.isError && <ErrorState error={rows.error} onRetry={() => void rows.refetch()} />}
      {rows.data?.data.length === 0 && <p className="empty">{onlyErrors ? 'No rows with errors.' : 'No rows.'}</p>}
      {rows.data && rows.data.data.length > 0 && (
        <DataTable caption="Import rows" columns={['Row', ...fields.map((f) => f.replaceAll('_', ' ')), 'Errors', ...(editable ? ['Actions'] : [])]}>
          {rows.data.data.map((row) => (
            <tr key={row.row_number} className={row.valid ? undefined : 'invalid'}>
              <th scope="row">{row.row_number}</th>
              {fields.map((f) => (
                <td key={f}>{shownValue(row, f, signs === true)}</td>
              ))}
              <td>
                {row.valid ? (
                  // Published: the row added to a record already there instead of creating another.
                  <span className="muted">{row.duplicate_of ? 'OK, matched an existing record' : 'OK'}</span>
                ) : (
                  <ul className="row-errors">
                    {row.errors.map((e) => (
                      <li key={e}>{e}</li>
                    ))}
                  </ul>
                )}
              </td>
              {editable && (
                <td className="row-actions">
                  {!row.valid && (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`Skip row ${row.row_number}`}
                      disabled={skip.isPending}
                      onClick={() => setSkipped(row.row_number, true)}
                    >
                      Skip row
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      )}
      {meta && meta.total_pages > 1 && (
        <nav className="pager" aria-label="Row pages">
          <button type="button" className="secondary" disabled={!meta.prev_page} onClick={() => setPage(meta.prev_page ?? 1)}>
            Previous
          </button>
          <span>
            Page {meta.current_page} of {meta.total_pages}
          </span>
          <button type="button" className="secondary" disabled={!meta.next_page} onClick={() => setPage(meta.next_page ?? page)}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
