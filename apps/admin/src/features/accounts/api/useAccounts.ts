import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

export type Account = components['schemas']['AccountDto'];
export type Transaction = components['schemas']['TransactionDto'];

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
