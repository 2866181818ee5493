import type { CategoryRecord } from '../ledger/categories.repository';
import type { CategoryDto, CategoryTreeDto } from './category.dto';

/** The Category object: Sure's fields, then the classification label and the transaction count. */
export const presentCategory = (category: CategoryRecord): CategoryDto => ({
  id: category.id,
  name: category.name,
  color: category.color,
  icon: category.icon,
  classification: category.classification,
  parent: category.parent && { id: category.parent.id, name: category.parent.name },
  subcategories_count: category.subcategoriesCount,
  transactions_count: category.transactionsCount,
  created_at: new Date(category.createdAt).toISOString(),
  updated_at: new Date(category.updatedAt).toISOString(),
});

/** Top-level categories with their subcategories, both by name as `categories` lists them. */
export function presentTree(categories: CategoryRecord[]): CategoryTreeDto {
  const children = new Map<string, CategoryDto[]>();
  for (const category of categories) {
    if (category.parent) children.set(category.parent.id, [...(children.get(category.parent.id) ?? []), presentCategory(category)]);
  }
  return {
    categories: categories.filter((category) => !category.parent).map((category) => ({ ...presentCategory(category), subcategories: children.get(category.id) ?? [] })),
  };
}
