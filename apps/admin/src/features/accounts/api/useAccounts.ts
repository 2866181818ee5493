import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

export type Account = components['schemas']['AccountDto'];
export type Transaction = components['schemas']['TransactionDto'];
export type CreateAccount = components['schemas']['CreateAccountDto'];
export type UpdateAccount = components['schemas']['UpdateAccountDto'];
export type AccountDeletion = components['schemas']['AccountDeletionDto'];

const header = { 'accept-language': navigator.language };

export const accountKeys = {
  all: ['accounts'] as const,
  list: () => [...accountKeys.all, 'list'] as const,
  detail: (id: string) => [...accountKeys.all, 'detail', id] as const,
  register: (id: string, page: number) => [...accountKeys.all, 'register', id, page] as const,
  recent: () => ['transactions', 'recent'] as const,
};

/** Every draft and active account of the family, every page of them. */
export const useAccounts = () =>
  useQuery({
    queryKey: accountKeys.list(),
    queryFn: async () => {
      const accounts: Account[] = [];
      for (let page = 1, pages = 1; page <= pages; page++) {
        const answer = await unwrap(api.GET('/api/v1/accounts', { params: { query: { per_page: '100', page: String(page) }, header } }));
        accounts.push(...answer.accounts);
        pages = answer.pagination.total_pages;
      }
      return accounts;
    },
  });

export const useAccount = (id: string) =>
  useQuery({ queryKey: accountKeys.detail(id), queryFn: () => unwrap(api.GET('/api/v1/accounts/{id}', { params: { path: { id }, header } })) });

export const REGISTER_PAGE_SIZE = 25;

/** One page of an account's transactions, newest first; the page shown stays while the next one loads. */
export const useRegister = (accountId: string, page: number) =>
  useQuery({
    queryKey: accountKeys.register(accountId, page),
    queryFn: () =>
      unwrap(api.GET('/api/v1/transactions', { params: { query: { account_id: accountId, page: String(page), per_page: String(REGISTER_PAGE_SIZE) }, header } })),
    placeholderData: keepPreviousData,
  });

/** The family's latest transactions. */
export const useRecentTransactions = (count: number) =>
  useQuery({
    queryKey: [...accountKeys.recent(), count],
    queryFn: () => unwrap(api.GET('/api/v1/transactions', { params: { query: { per_page: String(count) }, header } })),
  });

/**
 * After any change the accounts are read again, and so is what shows their balances or their transactions: reports
 * (net worth, the balance charts), budgets and the transactions list.
 */
function useInvalidate() {
  const client = useQueryClient();
  return () =>
    Promise.all(['accounts', 'reports', 'budgets', 'transactions'].map((key) => client.invalidateQueries({ queryKey: [key] })));
}

export function useCreateAccount() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (body: CreateAccount) => unwrap(api.POST('/api/v1/accounts', { body, params: { header } })), onSuccess: invalidate });
}

export function useUpdateAccount() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateAccount & { id: string }) => unwrap(api.PATCH('/api/v1/accounts/{id}', { params: { path: { id }, header }, body })),
    onSuccess: invalidate,
  });
}

/** A balance set by hand, as of the end of a day. */
export function useAddValuation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, date, balance }: { id: string; date: string; balance: string }) =>
      unwrap(api.POST('/api/v1/accounts/{id}/valuations', { params: { path: { id }, header }, body: { date, balance } })),
    onSuccess: invalidate,
  });
}

/** What deleting the account would take with it. */
export const useAccountDeletion = (id: string) =>
  useQuery({ queryKey: [...accountKeys.detail(id), 'deletion'], queryFn: () => unwrap(api.GET('/api/v1/accounts/{id}/deletion', { params: { path: { id } } })) });

export function useDeleteAccount() {
  const client = useQueryClient();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/accounts/{id}', { params: { path: { id } } })),
    // The deleted account's own queries would only answer 404 now.
    onSuccess: (_outcome, id) => [client.removeQueries({ queryKey: accountKeys.detail(id) }), invalidate()],
  });
}
