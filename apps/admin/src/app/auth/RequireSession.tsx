import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { roleAtLeast, type Role } from '@hearth/contracts';
import { ErrorState } from '../../components/ErrorState';
import { Loading } from '../../components/Loading';
import { useSession } from './useSession';

/** Renders children for a signed-in user with at least `minRole`; sends everyone else to sign-in. */
export function RequireSession({ minRole = 'member', children }: { minRole?: Role; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading label="Loading your session…" />;
  if (session.isError) return <ErrorState error={session.error} onRetry={() => void session.refetch()} />;
  if (!session.data) return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  if (!roleAtLeast(session.data.role, minRole)) {
    return (
      <section className="page">
        <h1 tabIndex={-1}>Not allowed</h1>
        <p>This page needs the {minRole.replace('_', ' ')} role.</p>
      </section>
    );
  }
  return <>{children}</>;
}
