import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { Loading } from '../../../components/Loading';
import { importQuery } from '../../imports/api/useImports';
import { importSource } from '../../imports/components/importLabels';
import { useAccounts, useCategories, useDeleteTransaction, useFamilySettings, useTransactionPages, type Transaction } from '../api/useTransactions';
import { AddTransactionForm } from '../components/AddTransactionForm';
import { BulkBar } from '../components/BulkBar';
import { FilterBar } from '../components/FilterBar';
import { SplitDialog } from '../components/SplitDialog';
import { TransactionRow } from '../components/TransactionRow';
import { UndoBar } from '../components/UndoBar';
import { filtersFromParams, hasFilters, paramsOf, type FiltersUpdate } from '../filters';
import { deleteUndo, type LastChange } from '../undo';
import '../transactions.css';

const COLUMNS = ['Select', 'Date', 'Name', 'Category', 'Tags', 'Notes', 'Amount'];

/**
 * The register: every transaction of the household, newest first, a page at a time by cursor (Load more reads the
 * next; nothing is counted), narrowed by filters kept in the address. Category, tags and notes are edited in place;
 * transactions are added by hand, split, deleted and changed in bulk; the last change can be undone.
 */
export function TransactionsPage() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromParams(params), [params]);
  const pages = useTransactionPages(filters);
  // The import the list is narrowed to, for its file name on the chip.
  const fromImport = useQuery({ ...importQuery(filters.import ?? ''), enabled: Boolean(filters.import) });
  const accounts = useAccounts();
  const categories = useCategories();
  const settings = useFamilySettings();
  const remove = useDeleteTransaction();
  const [adding, setAdding] = useState(false);
  const [splitting, setSplitting] = useState<Transaction | null>(null);
  const [selection, setSelection] = useState<Set<string>>(new Set());
  const [last, setLast] = useState<{ change: LastChange; focus: boolean } | null>(null);

  const rows = useMemo(() => pages.data?.pages.flatMap((page) => page.transactions) ?? [], [pages.data]);
  const partsOf = useMemo(() => {
    const parts = new Map<string, Transaction[]>();
    for (const row of rows) if (row.parent_id) parts.set(row.parent_id, [...(parts.get(row.parent_id) ?? []), row]);
    return parts;
  }, [rows]);
  const selected = rows.filter((row) => selection.has(row.id));
  // The chosen tag's and merchant's names, from a row that has them (every row has, in a list filtered by them).
  const labels = {
    tag: filters.tag ? rows.flatMap((row) => row.tags).find((tag) => tag.id === filters.tag)?.name : undefined,
    merchant: filters.merchant ? rows.find((row) => row.merchant?.id === filters.merchant)?.merchant?.name : undefined,
    import: filters.import && fromImport.data ? importSource(fromImport.data) : undefined,
  };

  // Built on the address as it is now, not on this render's filters: a second change made before the page re-rendered
  // from the first (two selects in quick succession) keeps the first.
  const changeFilters = (update: FiltersUpdate) => {
    setSelection(new Set());
    setParams(paramsOf(update(filtersFromParams(new URLSearchParams(window.location.search)))));
  };
  const record = (change: LastChange, focus = false) => setLast({ change, focus });
  const deleteRow = (row: Transaction) => {
    const parts = partsOf.get(row.id) ?? [];
    if ((parts.length || row.transfer) && !window.confirm(`Delete “${row.name}”? ${parts.length ? 'Its parts go with it.' : 'The other side of the transfer stays, as an ordinary transaction.'}`)) return;
    remove.mutate(row.id, { onSuccess: () => record(deleteUndo(row, parts.length > 0), true) });
  };
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selection);
    if (on) next.add(id);
    else next.delete(id);
    setSelection(next);
  };
  const everyShownSelected = rows.length > 0 && rows.every((row) => selection.has(row.id));
  const ready = accounts.data && categories.data;

  return (
    <section className="page">
      <div className="page-head">
        <h1 tabIndex={-1}>Transactions</h1>
        {!adding && (
          <button type="button" disabled={!ready} onClick={() => setAdding(true)}>
            Add transaction
          </button>
        )}
      </div>
      {adding && ready && (
        <AddTransactionForm
          accounts={accounts.data}
          categories={categories.data}
          onAdded={(change) => [setAdding(false), record(change, true)]}
          onCancel={() => setAdding(false)}
        />
      )}
      <UndoBar change={last?.change ?? null} focus={last?.focus ?? false} onUndone={() => record({ done: `Undone: ${last?.change.done ?? ''}` })} />
      {accounts.isError && <ErrorState error={accounts.error} onRetry={() => void accounts.refetch()} />}
      {categories.isError && <ErrorState error={categories.error} onRetry={() => void categories.refetch()} />}
      <FilterBar
        filters={filters}
        accounts={accounts.data ?? []}
        categories={categories.data ?? []}
        currency={settings.data?.currency ?? 'USD'}
        labels={labels}
        onChange={changeFilters}
      />
      {selected.length > 0 && <BulkBar selected={selected} categories={categories.data ?? []} onDone={(change) => record(change)} onClear={() => setSelection(new Set())} />}
      {remove.isError && <ErrorState error={remove.error} />}
      {pages.isPending && <Loading label="Loading transactions…" />}
      {pages.isError && <ErrorState error={pages.error} onRetry={() => void pages.refetch()} />}
      {pages.isSuccess && rows.length === 0 && (
        <div className="card empty-state">
          {hasFilters(filters) ? (
            <>
              <p>No transactions match these filters.</p>
              <button type="button" className="secondary" onClick={() => changeFilters(() => ({}))}>
                Clear filters
              </button>
            </>
          ) : (
            <>
              <p>No transactions yet.</p>
              <p>
                <Link to="/imports/new">Import a file</Link> from your bank (CSV, OFX, QIF and more), or add one by hand with Add transaction.
              </p>
            </>
          )}
        </div>
      )}
      {rows.length > 0 && (
        <>
          <label className="select-all">
            <input type="checkbox" checked={everyShownSelected} onChange={(e) => setSelection(new Set(e.target.checked ? rows.map((row) => row.id) : []))} />
            Select all {rows.length} shown
          </label>
          <DataTable caption="Transactions, newest first" columns={COLUMNS} actions cardsOnPhone>
            {rows.map((row) => (
              <TransactionRow
                key={row.id}
                row={row}
                categories={categories.data ?? []}
                isSplit={partsOf.has(row.id)}
                selected={selection.has(row.id)}
                onSelect={(on) => toggle(row.id, on)}
                onFilter={(chosen) => changeFilters((current) => ({ ...current, ...chosen }))}
                onChanged={(change) => record(change)}
                onSplit={() => setSplitting(row)}
                onDelete={() => deleteRow(row)}
                deleting={remove.isPending && remove.variables === row.id}
              />
            ))}
          </DataTable>
          <div className="pager">
            <span className="muted" role="status">
              {rows.length} {rows.length === 1 ? 'transaction' : 'transactions'} shown{pages.hasNextPage ? '' : ', the last of them'}.
            </span>
            {pages.hasNextPage && (
              <button type="button" className="secondary" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
                {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
              </button>
            )}
          </div>
        </>
      )}
      {splitting && (
        <SplitDialog
          transaction={splitting}
          parts={partsOf.get(splitting.id) ?? []}
          categories={categories.data ?? []}
          onDone={(change) => record(change, true)}
          onClose={() => setSplitting(null)}
        />
      )}
    </section>
  );
}
