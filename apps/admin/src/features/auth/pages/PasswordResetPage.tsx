import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorState } from '../../../components/ErrorState';
import { Loading } from '../../../components/Loading';
import { newPasswordProblems, NewPasswordFields } from '../../../components/NewPasswordFields';
import { useFocusAfter } from '../../../components/useFocusAfter';
import { ApiError } from '../../../lib/api/client';
import { problemsOf, type FormProblems } from '../../../lib/api/field-errors';
import { useSession } from '../../../app/auth/useSession';
import { useAuthConfig, useCompletePasswordReset } from '../api/useAuth';
import { ResetUnavailable } from '../components/ResetUnavailable';

type Key = 'password' | 'confirm';

/** Step two: the page the e-mailed link opens (/password_reset?token=…), public, signed in or not. */
export function PasswordResetPage() {
  // Read once, then dropped from the address bar below: kept in memory only, never in history or a Referer.
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token'));
  const navigate = useNavigate();
  useEffect(() => {
    if (new URLSearchParams(window.location.search).has('token')) void navigate({ search: '' }, { replace: true }); // history.replaceState
  }, [navigate]);

  const config = useAuthConfig();
  const session = useSession();
  const complete = useCompletePasswordReset();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problems, setProblems] = useState<FormProblems<Key> | null>(null);
  const section = useFocusAfter<HTMLElement>(problems ?? complete.isSuccess);
  const invalidToken = problems?.error instanceof ApiError && problems.error.code === 'invalid_token';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const mine = newPasswordProblems(password, confirm);
    if (mine.password || mine.confirm) return setProblems({ fields: mine, form: null });
    setProblems(null);
    complete.mutate(
      { token: token ?? '', password },
      { onError: (error) => setProblems(problemsOf<Key>(error, { password: { property: 'password', label: 'The password' }})) },
    );
  };

  return (
    <main id="main" className="auth-page">
      <section ref={section} className="card auth-card" aria-labelledby="reset-title">
        <h1 id="reset-title" tabIndex={-1}>
          Choose a new password
        </h1>
        {config.isPending && <Loading />}
        {config.isError && <ErrorState error={config.error} onRetry={() => void config.refetch()} />}
        {config.data && !config.data.password_reset_enabled && <ResetUnavailable />}
        {config.data?.password_reset_enabled && !token && (
          <p className="error" role="alert">
            This address is missing its reset code: open the link from the e-mail again, or <Link to="/forgot-password">request a new link</Link>.
          </p>
        )}
        {config.data?.password_reset_enabled && token && complete.isSuccess && (
          <div role="status">
            <p>Your password has been changed, and every session of your account has been signed out.</p>
            <p>
              <Link to="/sign-in">Sign in</Link> with your new password.
            </p>
          </div>
        )}
        {config.data?.password_reset_enabled && token && !complete.isSuccess && (
          <form onSubmit={submit} noValidate>
            {session.data && (
              <p className="notice">
                You are signed in as {session.data.email}. Setting a new password signs out every session of the account the link was sent
                for.
              </p>
            )}
            <NewPasswordFields password={password} confirm={confirm} onPassword={setPassword} onConfirm={setConfirm} errors={problems?.fields ?? {}} />
            <div className="status-slot">
              {problems?.form && (
                <div className="error" role="alert">
                  <p>{invalidToken ? 'This password reset link is invalid, has expired or has already been used.' : problems.form}</p>
                  {invalidToken && (
                    <p>
                      <Link to="/forgot-password">Request a new link</Link>
                    </p>
                  )}
                </div>
              )}
            </div>
            <button type="submit" disabled={complete.isPending}>
              {complete.isPending ? 'Saving…' : 'Set new password'}
            </button>
          </form>
        )}
      </section>
    </main>
  );
}
