import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { ApiError } from '../lib/api/client';
import { endLapsedSession, meQuery } from './auth/useSession';
import { router } from './router';

/**
 * A 401 `unauthorized` means the session ended (expired, revoked, idle, signed out elsewhere): sign it out if it can
 * still be (an idle one, also at its provider), forget it, and RequireSession sends the user to sign-in. Other 401s
 * (a wrong password) only mean nobody is signed in. A csrf_failed refusal means the session changed under this page
 * (signed in again in another tab): read the session, and its CSRF token, again so that a retry works.
 */
const onError = (error: unknown) => {
  if (!(error instanceof ApiError)) return;
  if (error.status === 401 && error.code === 'unauthorized') void endLapsedSession(queryClient);
  else if (error.status === 401) queryClient.setQueryData(meQuery.queryKey, null);
  else if (error.code === 'csrf_failed') void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
};

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    // Refusals (4xx) are answers, not glitches: retry only network failures and 5xx, once.
    queries: { retry: (count, error) => count < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500), refetchOnWindowFocus: false },
  },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
