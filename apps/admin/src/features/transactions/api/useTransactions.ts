import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';
import { apiQueryOf, type RegisterFilters } from '../filters';

export type Transaction = components['schemas']['TransactionDto'];
type TransactionList = components['schemas']['TransactionListDto'];
// `excluded` has a default, which the generated types read as required.
export type NewTransaction = Omit<components['schemas']['NewTransactionFieldsDto'], 'excluded'> & { excluded?: boolean };
export type TransactionChanges = Omit<components['schemas']['TransactionChangesDto'], 'excluded'> & { excluded?: boolean };
export type SplitPart = components['schemas']['SplitPartDto'];
export type NewTransfer = components['schemas']['CreateTransferDto'];
export type BulkChange = Omit<components['schemas']['BulkUpdateTransactionsDto'], 'excluded'> & { excluded?: boolean };
export type Category = components['schemas']['CategoryTreeNodeDto'];
export type Account = components['schemas']['AccountDto'];

/** Rows a page: enough to fill a tall screen, few enough that a page comes back at once. */
export const PAGE_SIZE = 50;

/** Money strings come formatted for the browser's language. */
const header = { 'accept-language': navigator.language };

export const transactionKeys = {
  all: ['transactions'] as const,
  list: (filters: RegisterFilters) => [...transactionKeys.all, 'list', filters] as const,
};

/**
 * The register, a page at a time by cursor: the first page too (an empty cursor), so the API never counts the
 * matching rows, however many there are. The next page is read when asked for (Load more).
 */
export const useTransactionPages = (filters: RegisterFilters) =>
  useInfiniteQuery({
    queryKey: transactionKeys.list(filters),
    initialPageParam: '',
    queryFn: ({ pageParam }) =>
      unwrap(api.GET('/api/v1/transactions', { params: { query: { ...apiQueryOf(filters), per_page: String(PAGE_SIZE), cursor: pageParam }, header } })),
    getNextPageParam: (last: TransactionList) => last.next_cursor ?? undefined,
  });

/** Every account of the household, by name (all pages: the pickers must offer each). */
export const useAccounts = () =>
  useQuery({
    queryKey: ['accounts', 'all'],
    queryFn: async () => {
      const accounts: Account[] = [];
      for (let page = 1, pages = 1; page <= pages; page++) {
        const answer = await unwrap(api.GET('/api/v1/accounts', { params: { query: { per_page: '100', page: String(page) } } }));
        accounts.push(...answer.accounts);
        pages = answer.pagination.total_pages;
      }
      return accounts;
    },
  });

/** The household's settings (its currency reads the amounts typed in the filters). */
export const useFamilySettings = () => useQuery({ queryKey: ['family_settings'], queryFn: () => unwrap(api.GET('/api/v1/family_settings')) });

/** The household's categories: top-level ones by name, each with its subcategories. */
export const useCategories = () =>
  useQuery({ queryKey: ['categories', 'tree'], queryFn: async () => (await unwrap(api.GET('/api/v1/categories/tree'))).categories });

/**
 * After a change the register is read again, and so are the figures it moves: balances, budgets, category counts.
 * (An inline edit instead puts its answer in place: see useUpdateTransaction.)
 */
function refreshAfterChange(client: QueryClient) {
  for (const key of [transactionKeys.all, ['accounts'], ['budgets'], ['categories']]) void client.invalidateQueries({ queryKey: key });
}

/** Puts a changed transaction in every loaded page that shows it, so the list keeps its place and its pages. */
function replaceInPages(client: QueryClient, changed: Transaction) {
  client.setQueriesData<InfiniteData<TransactionList>>({ queryKey: [...transactionKeys.all, 'list'] }, (data) =>
    data && { ...data, pages: data.pages.map((page) => ({ ...page, transactions: page.transactions.map((row) => (row.id === changed.id ? changed : row)) })) },
  );
}

export function useCreateTransaction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (transaction: NewTransaction) => unwrap(api.POST('/api/v1/transactions', { params: { header }, body: { transaction: transaction as components['schemas']['NewTransactionFieldsDto'] } })),
    onSuccess: () => refreshAfterChange(client),
  });
}

export function useCreateTransfer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (transfer: NewTransfer) => unwrap(api.POST('/api/v1/transfers', { params: { header }, body: transfer })),
    onSuccess: () => refreshAfterChange(client),
  });
}

export function useUpdateTransaction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: Partial<TransactionChanges> }) =>
      unwrap(api.PATCH('/api/v1/transactions/{id}', { params: { path: { id }, header }, body: { transaction: changes as components['schemas']['TransactionChangesDto'] } })),
    onSuccess: (changed) => {
      replaceInPages(client, changed);
      // A filter the change now fails (another category) and the figures elsewhere are read again, without a redraw here.
      for (const key of [['accounts'], ['budgets'], ['categories']]) void client.invalidateQueries({ queryKey: key });
      void client.invalidateQueries({ queryKey: transactionKeys.all, refetchType: 'none' });
    },
  });
}

export function useDeleteTransaction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/transactions/{id}', { params: { path: { id } } })),
    onSuccess: () => refreshAfterChange(client),
  });
}

export function useSplitTransaction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, parts }: { id: string; parts: SplitPart[] }) =>
      unwrap(api.POST('/api/v1/transactions/{id}/split', { params: { path: { id }, header }, body: { parts } })),
    onSuccess: () => refreshAfterChange(client),
  });
}

export function useUnsplitTransaction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/transactions/{id}/split', { params: { path: { id }, header } })),
    onSuccess: () => refreshAfterChange(client),
  });
}

export function useBulkUpdate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: BulkChange) => unwrap(api.PATCH('/api/v1/transactions/bulk', { body: change as components['schemas']['BulkUpdateTransactionsDto'] })),
    onSuccess: () => refreshAfterChange(client),
  });
}

/** The calls an undo makes, outside React: each is awaited in turn, then the register is read again. */
export const undoCalls = {
  update: (id: string, changes: Partial<TransactionChanges>) =>
    unwrap(api.PATCH('/api/v1/transactions/{id}', { params: { path: { id } }, body: { transaction: changes as components['schemas']['TransactionChangesDto'] } })),
  remove: (id: string) => unwrap(api.DELETE('/api/v1/transactions/{id}', { params: { path: { id } } })),
  create: (transaction: NewTransaction) => unwrap(api.POST('/api/v1/transactions', { body: { transaction: transaction as components['schemas']['NewTransactionFieldsDto'] } })),
  split: (id: string, parts: SplitPart[]) => unwrap(api.POST('/api/v1/transactions/{id}/split', { params: { path: { id } }, body: { parts } })),
  unsplit: (id: string) => unwrap(api.DELETE('/api/v1/transactions/{id}/split', { params: { path: { id } } })),
  bulk: (change: BulkChange) => unwrap(api.PATCH('/api/v1/transactions/bulk', { body: change as components['schemas']['BulkUpdateTransactionsDto'] })),
};

export function useUndo() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (undo: () => Promise<unknown>) => undo(),
    onSettled: () => refreshAfterChange(client),
  });
}
