import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { Loading } from '../../../components/Loading';
import { ApiError } from '../../../lib/api/client';
import { useLinkAccount, usePendingLink } from '../api/useAuth';

/**
 * Where the API sends the browser when a provider sign-in names the e-mail of an existing account: that account's
 * password links the provider's identity to it (once; from then on the provider signs in directly) and signs in.
 * Only the browser that started the provider sign-in has the pending link, for ten minutes.
 */
export function SsoLinkPage() {
  const pending = usePendingLink();
  const link = useLinkAccount();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const expired = pending.error instanceof ApiError && pending.error.code === 'link_not_found';
  const provider = pending.data ? pending.data.provider_label || pending.data.provider_name : '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    link.mutate({ password }, { onSuccess: () => void navigate('/', { replace: true }) });
  };

  return (
    <main id="main" className="auth-page">
      <section className="card auth-card" aria-labelledby="link-title">
        <h1 id="link-title" tabIndex={-1}>
          {provider ? `Link ${provider} to your account` : 'Link your sign-in'}
        </h1>
        {pending.isPending && <Loading label="Loading the sign-in to link…" />}
        {expired && (
          <div className="error" role="alert">
            <p>No sign-in is waiting to be linked in this browser, or it expired after ten minutes.</p>
            <p>
              <Link to="/sign-in">Sign in with the provider again</Link>.
            </p>
          </div>
        )}
        {pending.isError && !expired && <ErrorState error={pending.error} onRetry={() => void pending.refetch()} />}
        {pending.data && (
          <form onSubmit={submit} noValidate aria-describedby={link.isError ? 'link-error' : undefined}>
            <p>
              {provider} signed you in as <strong>{pending.data.email}</strong>, the e-mail address of an existing Hearth account. Enter that
              account&rsquo;s password to link the two: from then on, {provider} signs you in to it directly.
            </p>
            {/* The e-mail for password managers, which fill the password of the account they see named. */}
            <input type="email" name="username" autoComplete="username" value={pending.data.email} readOnly hidden />
            <Field label="Password">
              <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
            </Field>
            <div className="status-slot" id="link-error">
              {link.isError && <ErrorState error={link.error} />}
            </div>
            <button type="submit" disabled={link.isPending || !password}>
              {link.isPending ? 'Linking…' : 'Link and sign in'}
            </button>
            <Link to="/sign-in">Cancel</Link>
          </form>
        )}
      </section>
    </main>
  );
}
