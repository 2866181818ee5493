import { useState, type FormEvent } from 'react';
import { problemsOf } from '../../../lib/api/field-errors';
import { ErrorState } from '../../../components/ErrorState';
import { useCreateCategory, type CategoryNode } from '../api/useCategories';
import { CATEGORY_COLORS } from './colors';
import { CategoryFields, DRAFT_FIELDS, type CategoryDraft } from './CategoryFields';

const nextColor = (color: string) => CATEGORY_COLORS[(CATEGORY_COLORS.findIndex((c) => c.value === color) + 1) % CATEGORY_COLORS.length].value;

const EMPTY: CategoryDraft = { name: '', parentId: '', color: CATEGORY_COLORS[0].value, icon: 'shapes', classification: 'expense' };

export function NewCategoryForm({ parents, onCreated }: { parents: CategoryNode[]; onCreated: (name: string) => void }) {
  const create = useCreateCategory();
  const [draft, setDraft] = useState(EMPTY);
  const problems = create.isError ? problemsOf(create.error, DRAFT_FIELDS) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        name: draft.name.trim(),
        icon: draft.icon.trim() || 'shapes',
        classification: draft.classification,
        ...(draft.parentId ? { parent_id: draft.parentId } : { color: draft.color }),
      },
      {
        onSuccess: (made) => {
          // The next colour of the palette for the next one, so that neighbours in the list look apart.
          setDraft({ ...EMPTY, color: draft.parentId ? draft.color : nextColor(draft.color) });
          onCreated(made.name);
        },
      },
    );
  };

  return (
    <section className="card" aria-labelledby="new-category-title">
      <h2 id="new-category-title">Add a category</h2>
      <form className="category-form" onSubmit={submit}>
        <CategoryFields draft={draft} onChange={(next) => [create.reset(), setDraft(next)]} parents={parents} errors={problems?.fields ?? {}} />
        <button type="submit" disabled={create.isPending || !draft.name.trim()}>
          {create.isPending ? 'Adding…' : 'Add category'}
        </button>
      </form>
      <div className="status-slot">{problems?.form && <ErrorState error={create.error} />}</div>
    </section>
  );
}
