import type { Category } from '../api/useTransactions';

/** The household's categories as options, each subcategory after its parent and named with it ("Food › Groceries"). */
export function CategoryOptions({ categories }: { categories: Category[] }) {
  return (
    <>
      {categories.flatMap((category) => [
        <option key={category.id} value={category.id}>
          {category.name}
        </option>,
        ...category.subcategories.map((sub) => (
          <option key={sub.id} value={sub.id}>
            {`${category.name} › ${sub.name}`}
          </option>
        )),
      ])}
    </>
  );
}
