import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { transactionCount, useDeleteCategory, type Category, type CategoryDeletion, type CategoryNode } from '../api/useCategories';

/** "1 transaction moves", "12 transactions move", "1,000+ transactions move" (the API counts up to 1,000). */
const transactions = (category: Category, one: string, many: string) =>
  `${transactionCount(category)} ${category.transactions_count === 1 && !category.transactions_count_capped ? one : many}`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the delete will do, said before it is done. */
function consequences(category: Category, replacement: Category | undefined): string[] {
  const said = [
    replacement
      ? `Its ${transactions(category, 'transaction moves', 'transactions move')} to “${replacement.name}”, and each budget's limit for it is added to the limit of “${replacement.name}”.`
      : `Its ${transactions(category, 'transaction becomes', 'transactions become')} uncategorised, and its budget limits are removed.`,
  ];
  if (category.subcategories_count > 0) {
    // As the API does: under a top-level replacement (or one of them, promoted), else top-level.
    const underReplacement = replacement && (!replacement.parent || replacement.parent.id === category.id);
    said.push(
      underReplacement
        ? `Its subcategories move under “${replacement.name}”.`
        : `Its ${plural(category.subcategories_count, 'subcategory becomes', 'subcategories become')} top-level.`,
    );
  }
  return said;
}

/** Deletes a category, or merges it into another (the same action with a replacement chosen). */
export function DeleteCategoryDialog({
  category,
  tree,
  onClose,
  onDone,
}: {
  category: Category;
  tree: CategoryNode[];
  onClose: () => void;
  onDone: (outcome: CategoryDeletion, replacement: Category | undefined) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const remove = useDeleteCategory();
  const [replacementId, setReplacementId] = useState('');
  const replacement = tree.flatMap((node) => [node, ...node.subcategories]).find((c) => c.id === replacementId && c.id !== category.id);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(
      { id: category.id, replacementId: replacementId || null },
      {
        onSuccess: (outcome) => {
          onDone(outcome, replacement);
          dialog.current?.close();
        },
      },
    );
  };

  return (
    <dialog ref={dialog} aria-labelledby="delete-category-title" onClose={onClose}>
      <form onSubmit={submit}>
        <h2 id="delete-category-title">Delete or merge “{category.name}”</h2>
        <label htmlFor="replacement">Move its transactions to</label>
        <select id="replacement" value={replacementId} onChange={(e) => setReplacementId(e.target.value)} aria-describedby="delete-consequences">
          <option value="">No category (uncategorised)</option>
          {tree.map((node) => {
            const members = [node, ...node.subcategories].filter((c) => c.id !== category.id);
            if (!members.length) return null;
            return (
              <optgroup key={node.id} label={node.name}>
                {members.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.parent ? `${c.parent.name} › ${c.name}` : c.name}
                  </option>
                ))}
              </optgroup>
            );
          })}
        </select>
        <ul id="delete-consequences" className="consequences">
          {consequences(category, replacement).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <div className="status-slot">{remove.isError && <ErrorState error={remove.error} />}</div>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={remove.isPending}>
            {remove.isPending ? 'Working…' : replacement ? `Merge into “${replacement.name}”` : 'Delete category'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
