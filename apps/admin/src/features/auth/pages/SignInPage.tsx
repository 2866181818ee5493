import { useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { returnPlaceFor, safeAppPath } from '../../../app/auth/return-place';
import { useSession } from '../../../app/auth/useSession';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { Loading } from '../../../components/Loading';
import { useAuthConfig, useSignIn } from '../api/useAuth';
import { SetupForm } from '../components/SetupForm';

/**
 * What the `?error=` codes mean: the API redirects to /login with one when a provider sign-in fails (rate_limited, with
 * `retry_after`, when too many came from the network), and the app adds session_idle when it signed out a session left
 * unused too long.
 */
const SIGN_IN_ERRORS: Record<string, string> = {
  session_idle: 'Your session ended after a period of inactivity. Sign in again to continue.',
  sso_provider_unavailable: 'That sign-in provider is unavailable right now. Try again later or use another way to sign in.',
  sso_account_creation_disabled: 'No Hearth account matches this identity, and new accounts cannot be created through this provider.',
  sso_domain_not_allowed: 'Accounts for this e-mail domain cannot be created here.',
  sso_email_unverified: 'The provider did not confirm a verified e-mail address.',
  sso_account_suspended: 'This account is suspended. Contact your administrator.',
  sso_already_connected: 'This provider is already connected to your account.',
  sso_identity_in_use: 'This identity is already linked to another Hearth account.',
  sso_identity_removed: 'The account of this identity was removed by an administrator. Contact your administrator to use it again.',
  sso_session_required: 'Sign in first, then connect the provider from Security settings.',
  sso_failed: 'Sign-in with the provider failed. Try again.',
};

/** What the sign-in page says about `?error=` (and, for a rate limit, `?retry_after=` seconds). */
function signInError(code: string, retryAfter: string | null): string {
  if (code === 'rate_limited') {
    const seconds = Number(retryAfter);
    const wait = Number.isInteger(seconds) && seconds > 0 ? `${seconds} ${seconds === 1 ? 'second' : 'seconds'}` : 'a minute';
    return `Too many sign-in attempts from your network. Wait ${wait}, then try again.`;
  }
  return SIGN_IN_ERRORS[code] ?? SIGN_IN_ERRORS.sso_failed;
}

export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeAppPath(params.get('next'));
  const ssoError = params.get('error');
  const session = useSession();
  const config = useAuthConfig();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  // Signed in: to the page asked for, else back where an idle sign-out left this user, else home.
  if (session.data) return <Navigate to={next ?? returnPlaceFor(session.data.id) ?? '/dashboard'} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password });
  };

  return (
    <main id="main" className="auth-page">
      <section className="card auth-card" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title" tabIndex={-1}>
          {config.data?.setup_required ? 'Set up Hearth' : 'Sign in to Hearth'}
        </h1>
        {ssoError && (
          <p className="error" role="alert">
            {signInError(ssoError, params.get('retry_after'))}
          </p>
        )}
        {config.isPending && <Loading label="Loading sign-in options…" />}
        {config.isError && <ErrorState error={config.error} onRetry={() => void config.refetch()} />}
        {config.data?.setup_required && <SetupForm />}
        {config.data && !config.data.setup_required && (
          <>
            {config.data.local_login_notice && <p className="notice">{config.data.local_login_notice}</p>}
            {config.data.local_login_form_visible ? (
              <form onSubmit={submit} noValidate aria-describedby={signIn.isError ? 'sign-in-error' : undefined}>
                <Field label="E-mail">
                  <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
                </Field>
                <Field label="Password">
                  <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
                </Field>
                <div className="status-slot" id="sign-in-error">
                  {signIn.isError && <ErrorState error={signIn.error} />}
                </div>
                <button type="submit" disabled={signIn.isPending || !email || !password}>
                  {signIn.isPending ? 'Signing in…' : 'Sign in'}
                </button>
                {config.data.password_reset_enabled && <Link to="/forgot-password">Forgot password?</Link>}
              </form>
            ) : (
              <p>E-mail and password sign-in is turned off. Use your organisation's sign-in below.</p>
            )}
            {config.data.providers.length > 0 && (
              <ul className="providers" aria-label="Sign in with a provider">
                {config.data.providers.map((provider) => (
                  <li key={provider.name}>
                    <a className="button secondary" href={`/auth/${encodeURIComponent(provider.name)}`}>
                      Sign in with {provider.label || provider.name}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </section>
    </main>
  );
}
