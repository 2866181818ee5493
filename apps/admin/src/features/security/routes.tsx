import type { RouteObject } from 'react-router';

export const securityRoutes: RouteObject[] = [
  { path: 'settings/security', lazy: () => import('./pages/SecurityPage').then((m) => ({ Component: m.SecurityPage })) },
];
