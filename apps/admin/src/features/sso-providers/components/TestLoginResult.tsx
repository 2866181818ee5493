import { ErrorState } from '../../../components/ErrorState';
import { Loading } from '../../../components/Loading';
import { useTestLoginResult } from '../api/useProviders';

/** What the latest test login with a provider showed: claims, e-mail, groups and the role the mapping gives. */
export function TestLoginResult({ providerId, providerName, onClose }: { providerId: string; providerName: string; onClose: () => void }) {
  const result = useTestLoginResult(providerId);
  // A refused read shows why, not the result read before it.
  const r = result.isError ? undefined : result.data;
  return (
    <section aria-labelledby="test-login-heading">
      <div className="page-head">
        <h2 id="test-login-heading">Test login with {providerName}</h2>
        <button type="button" className="secondary" onClick={onClose}>
          Close
        </button>
      </div>
      {result.isPending && <Loading label="Loading the test result…" />}
      {result.isError && <ErrorState error={result.error} onRetry={() => void result.refetch()} />}
      {r && r.status !== 'succeeded' && (
        <p role="status">
          {r.status === 'failed' ? `The test failed: ${r.error}${r.error_detail ? ` (${r.error_detail})` : ''}` : `The test login is ${r.status}.`}
        </p>
      )}
      {r && r.status === 'succeeded' && (
        <>
          <p role="status">The provider signed you in. Nothing was created or changed in Hearth.</p>
          <dl className="details">
            <dt>E-mail</dt>
            <dd>
              {r.email ?? 'none'} {r.email_verified === true ? '(verified)' : '(not verified: sign-in would be refused)'}
            </dd>
            <dt>Groups</dt>
            <dd>{r.groups.length ? r.groups.join(', ') : 'none'}</dd>
            <dt>Role from the mapping</dt>
            <dd>
              {r.role_mapping?.role} {r.role_mapping?.configured ? '' : '(no mapping configured: sign-in leaves roles unchanged)'}
              <br />
              <span className="muted">{r.role_mapping?.explanation}</span>
            </dd>
            <dt>Existing account</dt>
            <dd>{r.account?.identity_user_id ? 'already linked' : r.account?.email_user_id ? 'an account has this e-mail (would be asked to link)' : 'none (a new account would be created, if allowed)'}</dd>
            <dt>Claims</dt>
            <dd>
              <pre>{JSON.stringify(r.claims, null, 2)}</pre>
            </dd>
          </dl>
        </>
      )}
    </section>
  );
}
