import { useState, type FormEvent } from 'react';
import { localeDecimal } from '@hearth/domain/money';
import { Field } from '../../../components/Field';
import { readAmountInput } from '../../../lib/amount-input';
import type { Account, Category } from '../api/useTransactions';
import { hasFilters, type FiltersUpdate, type RegisterFilters } from '../filters';
import { CategoryOptions } from './CategoryOptions';

/** What the typed fields hold until the form is sent; the selects and dates change the list at once. */
interface Draft {
  search: string;
  min: string;
  max: string;
}
const draftOf = (filters: RegisterFilters): Draft => ({
  search: filters.search ?? '',
  min: filters.min ? localeDecimal(filters.min) : '',
  max: filters.max ? localeDecimal(filters.max) : '',
});

/**
 * Search and filters of the register. `labels` names the tag and merchant chosen from a row (the list has no picker
 * for them: a row's tag or merchant is clicked) and the import the imports list linked from, shown as chips that take
 * the filter away.
 */
export function FilterBar({
  filters,
  accounts,
  categories,
  currency,
  labels,
  onChange,
}: {
  filters: RegisterFilters;
  accounts: Account[];
  categories: Category[];
  currency: string;
  labels: { tag?: string; merchant?: string; import?: string };
  onChange: (update: FiltersUpdate) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(filters));
  const [shown, setShown] = useState(filters);
  const [problems, setProblems] = useState<{ min?: string; max?: string }>({});
  // The address changed (back button, a chip, Clear): the typed fields show what it says.
  if (shown !== filters) {
    setShown(filters);
    setDraft(draftOf(filters));
    setProblems({});
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = (text: string) => (text.trim() ? readAmountInput(text, currency, { signed: true }) : { decimal: undefined });
    const [min, max] = [read(draft.min), read(draft.max)];
    const found = { min: 'problem' in min ? min.problem : undefined, max: 'problem' in max ? max.problem : undefined };
    setProblems(found);
    if ('problem' in min || 'problem' in max) return;
    onChange((current) => ({ ...current, search: draft.search.trim() || undefined, min: min.decimal, max: max.decimal }));
  };
  const set = (changes: RegisterFilters) => onChange((current) => ({ ...current, ...changes }));

  return (
    <form className="card register-filters" role="search" aria-label="Transactions" onSubmit={submit} noValidate>
      <div className="filter-grid">
        <Field label="Search">
          <input type="search" value={draft.search} placeholder="Name, notes or merchant" onChange={(e) => setDraft({ ...draft, search: e.target.value })} />
        </Field>
        <Field label="Account">
          <select value={filters.account ?? ''} onChange={(e) => set({ account: e.target.value || undefined })}>
            <option value="">All accounts</option>
            {accounts.map((account) => (
              <option key={account.id} value={account.id}>
                {account.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Category">
          <select value={filters.category ?? ''} onChange={(e) => set({ category: e.target.value || undefined })}>
            <option value="">All categories</option>
            <CategoryOptions categories={categories} />
          </select>
        </Field>
        <Field label="Type">
          <select value={filters.type ?? ''} onChange={(e) => set({ type: (e.target.value || undefined) as RegisterFilters['type'] })}>
            <option value="">Money in and out</option>
            <option value="expense">Money out</option>
            <option value="income">Money in</option>
          </select>
        </Field>
        <Field label="From date">
          <input type="date" value={filters.from ?? ''} onChange={(e) => set({ from: e.target.value || undefined })} />
        </Field>
        <Field label="To date">
          <input type="date" value={filters.to ?? ''} onChange={(e) => set({ to: e.target.value || undefined })} />
        </Field>
        <Field label="Amount from" hint="Money out is negative: -50 to -10 finds spending of 10 to 50." error={problems.min}>
          <input inputMode="decimal" value={draft.min} onChange={(e) => setDraft({ ...draft, min: e.target.value })} />
        </Field>
        <Field label="Amount to" error={problems.max}>
          <input inputMode="decimal" value={draft.max} onChange={(e) => setDraft({ ...draft, max: e.target.value })} />
        </Field>
      </div>
      <div className="actions">
        <button type="submit">Search</button>
        {hasFilters(filters) && (
          <button type="button" className="secondary" onClick={() => onChange(() => ({}))}>
            Clear filters
          </button>
        )}
        {filters.tag && (
          <button type="button" className="secondary chip" aria-label={`Remove the filter: tag ${labels.tag ?? ''}`.trim()} onClick={() => set({ tag: undefined })}>
            Tag: {labels.tag ?? 'chosen tag'} <span aria-hidden="true">✕</span>
          </button>
        )}
        {filters.import && (
          <button type="button" className="secondary chip" aria-label={`Remove the filter: from import ${labels.import ?? ''}`.trim()} onClick={() => set({ import: undefined })}>
            From import {labels.import ?? '…'} <span aria-hidden="true">✕</span>
          </button>
        )}
        {filters.merchant && (
          <button type="button" className="secondary chip" aria-label={`Remove the filter: merchant ${labels.merchant ?? ''}`.trim()} onClick={() => set({ merchant: undefined })}>
            Merchant: {labels.merchant ?? 'chosen merchant'} <span aria-hidden="true">✕</span>
          </button>
        )}
      </div>
    </form>
  );
}
