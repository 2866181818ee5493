import type { RouteObject } from 'react-router';

const signIn = () => import('./pages/SignInPage').then((m) => ({ Component: m.SignInPage }));

/** /login is where the API sends the browser back after a failed provider sign-in (with ?error=). */
export const authRoutes: RouteObject[] = [
  { path: 'sign-in', lazy: signIn },
  { path: 'login', lazy: signIn },
];
