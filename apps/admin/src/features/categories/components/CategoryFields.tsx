import { useId } from 'react';
import { Field } from '../../../components/Field';
import type { CategoryNode } from '../api/useCategories';
import { ColorPicker } from './ColorPicker';

export interface CategoryDraft {
  name: string;
  parentId: string;
  color: string;
  icon: string;
  classification: 'expense' | 'income';
}

export type DraftField = 'name' | 'parent' | 'color' | 'icon' | 'classification';

/** The API properties of the form's fields, and the words a refusal's message starts with here. */
export const DRAFT_FIELDS = {
  name: { property: 'name', label: 'The name' },
  parent: { property: 'parent_id', label: 'The parent' },
  color: { property: 'color', label: 'The colour' },
  icon: { property: 'icon', label: 'The icon' },
  classification: { property: 'classification', label: 'The type' },
} as const;

/**
 * The fields of a category: name, parent (top-level categories only, as categories nest one level deep), colour (a
 * subcategory shows its parent's, so the picker is offered to top-level categories only), icon and type.
 */
export function CategoryFields({
  draft,
  onChange,
  parents,
  hasSubcategories = false,
  errors,
}: {
  draft: CategoryDraft;
  onChange: (draft: CategoryDraft) => void;
  parents: CategoryNode[];
  hasSubcategories?: boolean;
  errors: Partial<Record<DraftField, string>>;
}) {
  const radioName = useId();
  const set = <K extends keyof CategoryDraft>(key: K, value: CategoryDraft[K]) => onChange({ ...draft, [key]: value });
  return (
    <>
      <Field label="Name" error={errors.name}>
        <input required maxLength={200} value={draft.name} onChange={(e) => set('name', e.target.value)} />
      </Field>
      <Field
        label="Parent"
        hint={hasSubcategories ? 'It has subcategories, so it stays top-level: categories nest one level deep.' : undefined}
        error={errors.parent}
      >
        <select value={draft.parentId} disabled={hasSubcategories} onChange={(e) => set('parentId', e.target.value)}>
          <option value="">None (top-level)</option>
          {parents.map((parent) => (
            <option key={parent.id} value={parent.id}>
              {parent.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Type" error={errors.classification}>
        <select value={draft.classification} onChange={(e) => set('classification', e.target.value as CategoryDraft['classification'])}>
          <option value="expense">Expense</option>
          <option value="income">Income</option>
        </select>
      </Field>
      <Field label="Icon" hint="A Lucide icon name, such as shopping-cart." error={errors.icon}>
        <input maxLength={50} value={draft.icon} onChange={(e) => set('icon', e.target.value)} />
      </Field>
      {draft.parentId ? (
        <p className="muted swatch-note">A subcategory takes its parent's colour.</p>
      ) : (
        <div className="field color-field">
          <ColorPicker name={radioName} value={draft.color} onChange={(color) => set('color', color)} />
          {errors.color && (
            <small className="error field-error" role="alert">
              {errors.color}
            </small>
          )}
        </div>
      )}
    </>
  );
}
