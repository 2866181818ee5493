import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { takeSignInReason } from '../../app/auth/sign-in-reason';

const signIn = () => import('./pages/SignInPage').then((m) => ({ Component: m.SignInPage }));

/**
 * What the app left for sign-in when it sent the user there itself. The page they were on leaves the address: after a
 * sign-out with the button there is none to come back to, and after an idle one it is kept for that user alone
 * (return-place.ts), where `?next=` would send whoever signs in next. An idle sign-out's reason becomes the page's
 * `?error=`, shown like the others.
 */
function signInReason({ request }: LoaderFunctionArgs) {
  const reason = takeSignInReason();
  if (!reason) return null;
  const url = new URL(request.url);
  const asked = url.search;
  url.searchParams.delete('next');
  if (reason === 'session_idle' && !url.searchParams.has('error')) url.searchParams.set('error', reason);
  return url.search === asked ? null : redirect(url.pathname + url.search);
}

/**
 * Public pages. /login is where the API sends the browser back after a failed provider sign-in (with ?error=) and a
 * provider's end-session page returns to; /password_reset is the mailed reset link; /sso/link is where a provider
 * sign-in naming an existing account's e-mail asks for that account's password.
 */
export const authRoutes: RouteObject[] = [
  { path: 'sign-in', loader: signInReason, lazy: signIn },
  { path: 'login', loader: signInReason, lazy: signIn },
  { path: 'forgot-password', lazy: () => import('./pages/ForgotPasswordPage').then((m) => ({ Component: m.ForgotPasswordPage })) },
  { path: 'password_reset', lazy: () => import('./pages/PasswordResetPage').then((m) => ({ Component: m.PasswordResetPage })) },
  { path: 'sso/link', lazy: () => import('./pages/SsoLinkPage').then((m) => ({ Component: m.SsoLinkPage })) },
];
