import type { RouteObject } from 'react-router';

export const householdRoutes: RouteObject[] = [
  { path: 'settings/household', lazy: () => import('./pages/HouseholdPage').then((m) => ({ Component: m.HouseholdPage })) },
];
