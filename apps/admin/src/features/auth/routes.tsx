import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { takeSignInReason } from '../../app/auth/sign-in-reason';

const signIn = () => import('./pages/SignInPage').then((m) => ({ Component: m.SignInPage }));

/** A reason the app left for sign-in (the session ended while idle) becomes the page's `?error=`, shown like the others. */
function signInReason({ request }: LoaderFunctionArgs) {
  const reason = takeSignInReason();
  const url = new URL(request.url);
  if (!reason || url.searchParams.has('error')) return null;
  url.searchParams.set('error', reason);
  return redirect(url.pathname + url.search);
}

/**
 * Public pages. /login is where the API sends the browser back after a failed provider sign-in (with ?error=) and a
 * provider's end-session page returns to; /password_reset is the mailed reset link.
 */
export const authRoutes: RouteObject[] = [
  { path: 'sign-in', loader: signInReason, lazy: signIn },
  { path: 'login', loader: signInReason, lazy: signIn },
  { path: 'forgot-password', lazy: () => import('./pages/ForgotPasswordPage').then((m) => ({ Component: m.ForgotPasswordPage })) },
  { path: 'password_reset', lazy: () => import('./pages/PasswordResetPage').then((m) => ({ Component: m.PasswordResetPage })) },
];
