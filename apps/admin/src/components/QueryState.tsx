import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorState } from './ErrorState';
import { Loading } from './Loading';

/**
 * A read's outcome: loading, refused, or its data. A refused read (a rate limit's wait included) shows why and a
 * retry, never the data read before it: after a change, the older list (often an empty one) would say the change was
 * lost.
 */
export function QueryState<T>({ query, loading, children }: { query: UseQueryResult<T>; loading: string; children: (data: T) => ReactNode }) {
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <Loading label={loading} />;
  return <>{children(query.data)}</>;
}
