import type { RouteObject } from 'react-router';

export const budgetRoutes: RouteObject[] = [
  { path: 'budgets', lazy: () => import('./pages/BudgetsPage').then((m) => ({ Component: m.BudgetsPage })) },
];
