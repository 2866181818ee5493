import type { RouteObject } from 'react-router';

export const providerRoutes: RouteObject[] = [
  { path: 'admin/sso_providers', lazy: () => import('./pages/ProvidersPage').then((m) => ({ Component: m.ProvidersPage })) },
];
