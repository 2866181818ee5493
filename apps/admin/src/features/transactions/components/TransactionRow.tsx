import { useState } from 'react';
import { errorMessage } from '../../../lib/api/client';
import { formatDate } from '../../../lib/format';
import { useUpdateTransaction, type Category, type Transaction, type TransactionChanges } from '../api/useTransactions';
import type { RegisterFilters } from '../filters';
import { shownAmount } from '../money';
import { editUndo, type EditedField, type LastChange } from '../undo';
import { CategoryOptions } from './CategoryOptions';
import { InlineEdit } from './InlineEdit';

/** Tag names as typed ("food, weekly"): trimmed, without empties or repeats. */
const tagNamesOf = (text: string): string[] => [...new Set(text.split(',').map((name) => name.trim()).filter(Boolean))];

/** Where the money went or came from, besides the account: a transfer's other side, a split. */
function Kind({ row, isSplit }: { row: Transaction; isSplit: boolean }) {
  if (row.transfer) {
    const toward = row.signed_amount_cents < 0 ? 'to' : 'from';
    return <span className="badge">{`Transfer ${toward} ${row.transfer.other_account.name}`}</span>;
  }
  if (row.parent_id) return <span className="badge">Part of a split</span>;
  if (isSplit) return <span className="badge">Split</span>;
  return null;
}

/**
 * One transaction of the register: a checkbox for bulk edits, its date, name (account, merchant, kind), category,
 * tags and notes (each edited in place), its amount, and Split and Delete.
 */
export function TransactionRow({
  row,
  categories,
  isSplit,
  selected,
  onSelect,
  onFilter,
  onChanged,
  onSplit,
  onDelete,
  deleting,
}: {
  row: Transaction;
  categories: Category[];
  /** It has parts (a split's total). */
  isSplit: boolean;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onFilter: (filters: RegisterFilters) => void;
  onChanged: (change: LastChange) => void;
  onSplit: () => void;
  onDelete: () => void;
  deleting: boolean;
}) {
  const update = useUpdateTransaction();
  const [field, setField] = useState<EditedField>();
  const error = (which: EditedField) => (field === which && update.isError ? errorMessage(update.error) : null);
  const save = (which: EditedField, changes: Partial<TransactionChanges>, done: string) => {
    setField(which);
    return update.mutateAsync({ id: row.id, changes }).then(() => onChanged(editUndo(row, which, done)));
  };
  const categoryName = (id: string) => {
    for (const category of categories) {
      if (category.id === id) return category.name;
      const sub = category.subcategories.find((s) => s.id === id);
      if (sub) return sub.name;
    }
    return 'a category';
  };
  const amountClass = isSplit ? 'amount split-total' : row.signed_amount_cents < 0 ? 'amount negative' : 'amount positive';
  const date = formatDate(row.date);

  return (
    <tr className={row.parent_id ? 'split-part' : undefined}>
      <td>
        <input type="checkbox" checked={selected} aria-label={`Select “${row.name}” of ${date}`} onChange={(e) => onSelect(e.target.checked)} />
      </td>
      <td className="nowrap">{date}</td>
      <th scope="row">
        <span className="txn-name">{row.name}</span>
        <span className="txn-meta muted">
          {row.account.name}
          {row.merchant && (
            <>
              {' · '}
              <button type="button" className="link" aria-label={`Show only transactions of ${row.merchant.name}`} onClick={() => onFilter({ merchant: row.merchant!.id })}>
                {row.merchant.name}
              </button>
            </>
          )}
        </span>
        <Kind row={row} isSplit={isSplit} />
      </th>
      <td>
        <InlineEdit
          label={`category of ${row.name}`}
          initial={row.category?.id ?? ''}
          shown={row.category ? row.category.name : <span className="muted">None</span>}
          pending={update.isPending && field === 'category'}
          error={error('category')}
          editor={(value, setValue, props) => (
            <select {...props} value={value} onChange={(e) => setValue(e.target.value)}>
              <option value="">None</option>
              <CategoryOptions categories={categories} />
            </select>
          )}
          onSave={(value) =>
            save('category', { category_id: value || null }, value ? `Category of “${row.name}” set to ${categoryName(value)}.` : `Category of “${row.name}” taken away.`)
          }
        />
      </td>
      <td>
        <InlineEdit
          label={`tags of ${row.name}`}
          initial={row.tags.map((tag) => tag.name).join(', ')}
          shown={
            row.tags.length ? (
              <span className="tags">
                {row.tags.map((tag) => (
                  <button key={tag.id} type="button" className="tag" aria-label={`Show only transactions tagged ${tag.name}`} onClick={() => onFilter({ tag: tag.id })}>
                    {tag.name}
                  </button>
                ))}
              </span>
            ) : (
              <span className="muted">None</span>
            )
          }
          pending={update.isPending && field === 'tags'}
          error={error('tags')}
          editor={(value, setValue, props) => <input {...props} value={value} placeholder="food, weekly" onChange={(e) => setValue(e.target.value)} />}
          onSave={(value) => {
            const names = tagNamesOf(value);
            return save('tags', names.length ? { tag_names: names } : { tag_ids: [] }, `Tags of “${row.name}” changed.`);
          }}
        />
      </td>
      <td>
        <InlineEdit
          label={`notes of ${row.name}`}
          initial={row.notes ?? ''}
          shown={row.notes ?? <span className="muted">None</span>}
          pending={update.isPending && field === 'notes'}
          error={error('notes')}
          editor={(value, setValue, props) => <input {...props} value={value} maxLength={10_000} onChange={(e) => setValue(e.target.value)} />}
          onSave={(value) => save('notes', { notes: value.trim() || null }, `Notes of “${row.name}” changed.`)}
        />
      </td>
      <td className={amountClass}>{shownAmount(row)}</td>
      <td className="row-actions">
        {!row.parent_id && !row.transfer && (
          <button type="button" className="secondary" aria-label={`Split “${row.name}”`} onClick={onSplit}>
            Split
          </button>
        )}
        {!row.parent_id && (
          <button type="button" className="danger" aria-label={`Delete “${row.name}”`} disabled={deleting} onClick={onDelete}>
            Delete
          </button>
        )}
      </td>
    </tr>
  );
}
