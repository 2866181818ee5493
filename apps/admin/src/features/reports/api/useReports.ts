import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

export type MoneyValue = components['schemas']['MoneyDto'];
export type NetWorth = components['schemas']['NetWorthDto'];
export type AccountBalanceSeries = components['schemas']['AccountBalanceSeriesDto'];
export type CashFlow = components['schemas']['CashFlowDto'];
export type SpendingByCategory = components['schemas']['SpendingByCategoryDto'];
type Interval = 'day' | 'week' | 'month';

/** Money strings come formatted for the browser's language, as on every page. */
const header = { 'accept-language': navigator.language };

export const reportKeys = {
  all: ['reports'] as const,
  netWorth: (query: object) => [...reportKeys.all, 'net_worth', query] as const,
  balances: (query: object) => [...reportKeys.all, 'account_balances', query] as const,
  cashFlow: (query: object) => [...reportKeys.all, 'cash_flow', query] as const,
  spending: (query: object) => [...reportKeys.all, 'spending_by_category', query] as const,
};

/** Net worth over the API's default range (the year up to the family's today) unless told otherwise. */
export const useNetWorth = (query: { start_date?: string; end_date?: string; interval?: Interval } = {}) =>
  useQuery({ queryKey: reportKeys.netWorth(query), queryFn: () => unwrap(api.GET('/api/v1/reports/net_worth', { params: { query, header } })) });

/** Each account's balances (one account with `account_id`), for sparklines and an account's chart. */
export const useAccountBalances = (query: { account_id?: string; start_date?: string; end_date?: string; interval?: Interval } = {}) =>
  useQuery({ queryKey: reportKeys.balances(query), queryFn: () => unwrap(api.GET('/api/v1/reports/account_balances', { params: { query, header } })) });

export const useCashFlow = (query: { start_date?: string; end_date?: string } = {}) =>
  useQuery({ queryKey: reportKeys.cashFlow(query), queryFn: () => unwrap(api.GET('/api/v1/reports/cash_flow', { params: { query, header } })) });

export const useSpendingByCategory = (query: { start_date?: string; end_date?: string } = {}) =>
  useQuery({ queryKey: reportKeys.spending(query), queryFn: () => unwrap(api.GET('/api/v1/reports/spending_by_category', { params: { query, header } })) });
