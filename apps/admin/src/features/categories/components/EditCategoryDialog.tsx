import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { problemsOf } from '../../../lib/api/field-errors';
import { useUpdateCategory, type Category, type CategoryNode, type UpdateCategory } from '../api/useCategories';
import { CategoryFields, DRAFT_FIELDS, type CategoryDraft } from './CategoryFields';

/** A modal that renames, recolours, moves, or changes the icon or type of a category; only what changed is sent. */
export function EditCategoryDialog({ category, parents, onClose, onSaved }: { category: Category; parents: CategoryNode[]; onClose: () => void; onSaved: (name: string) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const update = useUpdateCategory();
  const initial: CategoryDraft = {
    name: category.name,
    parentId: category.parent?.id ?? '',
    color: category.color,
    icon: category.icon,
    classification: category.classification,
  };
  const [draft, setDraft] = useState(initial);
  const problems = update.isError ? problemsOf(update.error, DRAFT_FIELDS) : null;

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes: UpdateCategory = {};
    if (draft.name.trim() !== initial.name) changes.name = draft.name.trim();
    if (draft.parentId !== initial.parentId) changes.parent_id = draft.parentId || null;
    if (!draft.parentId && draft.color !== initial.color) changes.color = draft.color;
    if (draft.icon.trim() !== initial.icon) changes.icon = draft.icon.trim();
    if (draft.classification !== initial.classification) changes.classification = draft.classification;
    update.mutate(
      { id: category.id, ...changes },
      {
        onSuccess: (saved) => {
          onSaved(saved.name);
          dialog.current?.close();
        },
      },
    );
  };

  return (
    <dialog ref={dialog} aria-labelledby="edit-category-title" onClose={onClose}>
      <form onSubmit={submit}>
        <h2 id="edit-category-title">Edit “{category.name}”</h2>
        <CategoryFields
          draft={draft}
          onChange={(next) => [update.reset(), setDraft(next)]}
          parents={parents.filter((parent) => parent.id !== category.id)}
          hasSubcategories={category.subcategories_count > 0}
          errors={problems?.fields ?? {}}
        />
        <div className="status-slot">{problems?.form && <ErrorState error={update.error} />}</div>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" disabled={update.isPending || !draft.name.trim()}>
            {update.isPending ? 'Saving…' : 'Save'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
