import type { RouteObject } from 'react-router';

export const userRoutes: RouteObject[] = [
  { path: 'admin/users', lazy: () => import('./pages/UsersPage').then((m) => ({ Component: m.UsersPage })) },
];
