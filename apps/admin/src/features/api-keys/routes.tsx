import type { RouteObject } from 'react-router';

export const apiKeyRoutes: RouteObject[] = [
  { path: 'settings/api_keys', lazy: () => import('./pages/ApiKeysPage').then((m) => ({ Component: m.ApiKeysPage })) },
];
