import { useState } from 'react';
import { DataTable } from '../../../components/DataTable';
import { QueryState } from '../../../components/QueryState';
import { transactionCount, useCategoryTree, type Category, type CategoryNode } from '../api/useCategories';
import { ColorDot } from '../components/ColorPicker';
import { DeleteCategoryDialog } from '../components/DeleteCategoryDialog';
import { EditCategoryDialog } from '../components/EditCategoryDialog';
import { NewCategoryForm } from '../components/NewCategoryForm';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Row({ category, onEdit, onDelete }: { category: Category; onEdit: () => void; onDelete: () => void }) {
  return (
    <tr>
      <th scope="row" className={category.parent ? 'subcategory' : undefined}>
        <ColorDot color={category.color} />
        {category.name}
        {category.parent && <span className="visually-hidden"> (in {category.parent.name})</span>}
      </th>
      <td>{category.classification === 'income' ? 'Income' : 'Expense'}</td>
      <td>{transactionCount(category)}</td>
      <td className="row-actions">
        <button type="button" className="secondary" aria-label={`Edit ${category.name}`} onClick={onEdit}>
          Edit
        </button>
        <button type="button" className="danger" aria-label={`Delete or merge ${category.name}`} onClick={onDelete}>
          Delete or merge
        </button>
      </td>
    </tr>
  );
}

/** The household's categories as a tree: add, rename, recolour, move, and delete or merge with reassignment. */
export function CategoriesPage() {
  const tree = useCategoryTree();
  const [editing, setEditing] = useState<Category | null>(null);
  const [deleting, setDeleting] = useState<Category | null>(null);
  const [status, setStatus] = useState('');
  const nodes: CategoryNode[] = tree.data ?? [];

  return (
    <section className="page">
      <h1 tabIndex={-1}>Categories</h1>
      <p className="muted">Categories sort your transactions and give budgets their rows. A category can hold subcategories, one level deep.</p>
      <NewCategoryForm parents={nodes} onCreated={(name) => setStatus(`Added “${name}”.`)} />
      <section className="card" aria-labelledby="categories-title">
        <h2 id="categories-title">Your categories</h2>
        <p className="status-slot category-status" role="status">
          {status}
        </p>
        <QueryState query={tree} loading="Loading categories…">
          {(categories) =>
            categories.length === 0 ? (
              <p className="empty">No categories yet. Add one above, or import transactions with a category column: the import creates the categories it names.</p>
            ) : (
              <DataTable caption="Categories and their subcategories" columns={['Category', 'Type', 'Transactions']} actions cardsOnPhone>
                {categories.flatMap((node) => [
                  <Row key={node.id} category={node} onEdit={() => setEditing(node)} onDelete={() => setDeleting(node)} />,
                  ...node.subcategories.map((sub) => <Row key={sub.id} category={sub} onEdit={() => setEditing(sub)} onDelete={() => setDeleting(sub)} />),
                ])}
              </DataTable>
            )
          }
        </QueryState>
      </section>
      {editing && (
        <EditCategoryDialog
          category={editing}
          parents={nodes}
          onClose={() => setEditing(null)}
          onSaved={(name) => setStatus(`Saved “${name}”.`)}
        />
      )}
      {deleting && (
        <DeleteCategoryDialog
          category={deleting}
          tree={nodes}
          onClose={() => setDeleting(null)}
          onDone={(outcome, replacement) =>
            setStatus(
              replacement
                ? `Merged “${deleting.name}” into “${replacement.name}”: ${plural(outcome.transactions_moved, 'transaction', 'transactions')} moved.`
                : `Deleted “${deleting.name}”: ${plural(outcome.transactions_moved, 'transaction', 'transactions')} left uncategorised.`,
            )
          }
        />
      )}
    </section>
  );
}
