import type { RouteObject } from 'react-router';

export const accountRoutes: RouteObject[] = [
  { path: 'accounts', lazy: () => import('./pages/AccountsPage').then((m) => ({ Component: m.AccountsPage })) },
  { path: 'accounts/:id', lazy: () => import('./pages/AccountPage').then((m) => ({ Component: m.AccountPage })) },
];
