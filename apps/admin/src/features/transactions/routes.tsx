import type { RouteObject } from 'react-router';

export const transactionRoutes: RouteObject[] = [
  { path: 'transactions', lazy: () => import('./pages/TransactionsPage').then((m) => ({ Component: m.TransactionsPage })) },
];
