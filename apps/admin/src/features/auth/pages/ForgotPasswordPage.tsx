import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { Loading } from '../../../components/Loading';
import { useFocusAfter } from '../../../components/useFocusAfter';
import { problemsOf, type FormProblems } from '../../../lib/api/field-errors';
import { useAuthConfig, useRequestPasswordReset } from '../api/useAuth';
import { ResetUnavailable } from '../components/ResetUnavailable';

/** Our own words, whatever the API answered: the page must not tell which addresses have accounts. */
const SENT =
  'If an account exists for that address, we sent a link to choose a new password. It works once, for one hour. Check your inbox (and spam folder).';

/** Step one of a password reset: asks for the e-mail address to send the link to. */
export function ForgotPasswordPage() {
  const config = useAuthConfig();
  const reset = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const [problems, setProblems] = useState<FormProblems<'email'> | null>(null);
  const [sent, setSent] = useState(0);
  const section = useFocusAfter<HTMLElement>(problems ?? sent);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) return setProblems({ fields: { email: 'Enter the e-mail address of your account.' }, form: null });
    setProblems(null);
    reset.mutate(
      { email: email.trim() },
      {
        onSuccess: () => setSent((n) => n + 1),
        onError: (error) => setProblems(problemsOf(error, { email: { property: 'email', label: 'E-mail' } })),
      },
    );
  };

  return (
    <main id="main" className="auth-page">
      <section ref={section} className="card auth-card" aria-labelledby="forgot-title">
        <h1 id="forgot-title" tabIndex={-1}>
          Reset your password
        </h1>
        {config.isPending && <Loading />}
        {config.isError && <ErrorState error={config.error} onRetry={() => void config.refetch()} />}
        {config.data && !config.data.password_reset_enabled && <ResetUnavailable />}
        {config.data?.password_reset_enabled &&
          (reset.isSuccess ? (
            <>
              <p role="status">{SENT}</p>
              <div className="actions">
                <button type="button" className="secondary" onClick={() => {
                    reset.reset();
                    requestAnimationFrame(() => section.current?.querySelector('input')?.focus());
                  }}>
                  Send another link
                </button>
                <Link className="button secondary" to="/sign-in">
                  Back to sign in
                </Link>
              </div>
            </>
          ) : (
            <form onSubmit={submit} noValidate>
              <p>Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
              <Field label="E-mail" error={problems?.fields.email}>
                <input type="email" autoComplete="username" required maxLength={320} value={email} onChange={(e) => setEmail(e.target.value)} />
              </Field>
              <div className="status-slot">
                {problems?.form && (
                  <p className="error" role="alert">
                    {problems.form}
                  </p>
                )}
              </div>
              <button type="submit" disabled={reset.isPending}>
                {reset.isPending ? 'Sending…' : 'Send reset link'}
              </button>
              <Link to="/sign-in">Back to sign in</Link>
            </form>
          ))}
      </section>
    </main>
  );
}
