import type { RouteObject } from 'react-router';

export const dashboardRoutes: RouteObject[] = [
  { path: 'dashboard', lazy: () => import('./pages/DashboardPage').then((m) => ({ Component: m.DashboardPage })) },
];
