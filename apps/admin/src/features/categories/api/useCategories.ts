import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

export type Category = components['schemas']['CategoryDto'];
export type CategoryNode = components['schemas']['CategoryTreeNodeDto'];
export type CreateCategory = components['schemas']['CreateCategoryDto'];
export type UpdateCategory = components['schemas']['UpdateCategoryDto'];
export type CategoryDeletion = components['schemas']['CategoryDeletionDto'];

/** A category's transaction count as shown: the API counts up to 1,000 and says when there are more. */
export const transactionCount = (category: Category) =>
  category.transactions_count_capped ? `${category.transactions_count.toLocaleString()}+` : category.transactions_count.toLocaleString();

export const categoryKeys = { all: ['categories'] as const, tree: ['categories', 'tree'] as const };

export const useCategoryTree = () =>
  useQuery({ queryKey: categoryKeys.tree, queryFn: async () => (await unwrap(api.GET('/api/v1/categories/tree'))).categories });

/**
 * After any change the tree is read again, and so are the budgets: a budget shows each category's name and colour,
 * and a delete moves its limits and spending to the replacement.
 */
function useInvalidate() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: categoryKeys.all }), client.invalidateQueries({ queryKey: ['budgets'] })]);
}

export function useCreateCategory() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (body: CreateCategory) => unwrap(api.POST('/api/v1/categories', { body })), onSuccess: invalidate });
}

export function useUpdateCategory() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateCategory & { id: string }) => unwrap(api.PATCH('/api/v1/categories/{id}', { params: { path: { id } }, body })),
    onSuccess: invalidate,
  });
}

export function useDeleteCategory() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, replacementId }: { id: string; replacementId: string | null }) =>
      unwrap(api.DELETE('/api/v1/categories/{id}', { params: { path: { id }, query: replacementId ? { replacement_id: replacementId } : {} } })),
    onSuccess: invalidate,
  });
}
