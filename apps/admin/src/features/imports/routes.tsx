import type { RouteObject } from 'react-router';

export const importRoutes: RouteObject[] = [
  { path: 'imports', lazy: () => import('./pages/ImportsPage').then((m) => ({ Component: m.ImportsPage })) },
  { path: 'imports/new', lazy: () => import('./pages/NewImportPage').then((m) => ({ Component: m.NewImportPage })) },
  { path: 'imports/:id', lazy: () => import('./pages/ImportDetailPage').then((m) => ({ Component: m.ImportDetailPage })) },
];
