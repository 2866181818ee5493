import type { RouteObject } from 'react-router';

const signIn = () => import('./pages/SignInPage').then((m) => ({ Component: m.SignInPage }));

/** Public pages. /login is where the API sends the browser back after a failed provider sign-in (with ?error=); /password_reset is the mailed reset link. */
export const authRoutes: RouteObject[] = [
  { path: 'sign-in', lazy: signIn },
  { path: 'login', lazy: signIn },
  { path: 'forgot-password', lazy: () => import('./pages/ForgotPasswordPage').then((m) => ({ Component: m.ForgotPasswordPage })) },
  { path: 'password_reset', lazy: () => import('./pages/PasswordResetPage').then((m) => ({ Component: m.PasswordResetPage })) },
];
