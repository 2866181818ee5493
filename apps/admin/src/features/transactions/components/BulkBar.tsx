import { useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { useBulkUpdate, type BulkChange, type Category, type Transaction } from '../api/useTransactions';
import { bulkUndo, type LastChange } from '../undo';
import { CategoryOptions } from './CategoryOptions';

/** Tag names as typed ("food, weekly"): trimmed, without empties or repeats. */
const tagNamesOf = (text: string): string[] => [...new Set(text.split(',').map((name) => name.trim()).filter(Boolean))];

/** One change to every selected transaction at once (all or none): a category, tags, or leaving them out of budgets. */
export function BulkBar({ selected, categories, onDone, onClear }: { selected: Transaction[]; categories: Category[]; onDone: (change: LastChange) => void; onClear: () => void }) {
  const bulk = useBulkUpdate();
  const [category, setCategory] = useState('');
  const [tags, setTags] = useState('');
  const count = selected.length;
  const noun = count === 1 ? 'transaction' : 'transactions';
  const apply = (change: Omit<BulkChange, 'ids'>, done: string) =>
    bulk.mutate({ ids: selected.map((row) => row.id), ...change }, { onSuccess: () => [onDone(bulkUndo(selected, change, done)), onClear()] });
  const applyCategory = (event: FormEvent) => {
    event.preventDefault();
    const name = categories.flatMap((c) => [c, ...c.subcategories]).find((c) => c.id === category)?.name;
    apply({ category_id: category || null }, name ? `Category of ${count} ${noun} set to ${name}.` : `Category of ${count} ${noun} taken away.`);
  };
  const applyTags = (event: FormEvent) => {
    event.preventDefault();
    const names = tagNamesOf(tags);
    apply(names.length ? { tag_names: names } : { tag_ids: [] }, `Tags of ${count} ${noun} changed.`);
  };
  return (
    <section className="card bulk-bar" aria-labelledby="bulk-title">
      <h2 id="bulk-title">
        {count} {noun} selected
      </h2>
      <div className="bulk-forms">
        <form className="inline-form" onSubmit={applyCategory}>
          <label>
            Category for all
            <select value={category} onChange={(e) => setCategory(e.target.value)}>
              <option value="">None</option>
              <CategoryOptions categories={categories} />
            </select>
          </label>
          <button type="submit" disabled={bulk.isPending}>
            Set category
          </button>
        </form>
        <form className="inline-form" onSubmit={applyTags}>
          <label>
            Tags for all
            <input value={tags} placeholder="food, weekly" onChange={(e) => setTags(e.target.value)} />
          </label>
          <button type="submit" disabled={bulk.isPending}>
            Set tags
          </button>
        </form>
        <div className="actions">
          <button type="button" className="secondary" disabled={bulk.isPending} onClick={() => apply({ excluded: true }, `${count} ${noun} left out of budgets and reports.`)}>
            Leave out of budgets
          </button>
          <button type="button" className="secondary" disabled={bulk.isPending} onClick={() => apply({ excluded: false }, `${count} ${noun} counted in budgets and reports.`)}>
            Count in budgets
          </button>
          <button type="button" className="secondary" onClick={onClear}>
            Clear selection
          </button>
        </div>
      </div>
      <div className="status-slot">{bulk.isError && <ErrorState error={bulk.error} />}</div>
    </section>
  );
}
