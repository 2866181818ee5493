import type { RouteObject } from 'react-router';

export const categoryRoutes: RouteObject[] = [
  { path: 'categories', lazy: () => import('./pages/CategoriesPage').then((m) => ({ Component: m.CategoriesPage })) },
];
