import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, ApiError, currentCsrfToken, rememberCsrfToken, unwrap } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';
import { leaveSignInReason } from './sign-in-reason';

export type Me = components['schemas']['MeDto'];

/** The signed-in user, or null when there is no session (401; a session that just ended is signed out first). */
export const meQuery = queryOptions({
  queryKey: ['me'] as const,
  queryFn: async ({ client }): Promise<Me | null> => {
    try {
      const me = await unwrap(api.GET('/api/v1/me'));
      rememberCsrfToken(me.csrf_token);
      return me;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) throw error;
      await endLapsedSession(client);
      return null;
    }
  },
  staleTime: 60_000,
  retry: false,
});

export const useSession = () => useQuery(meQuery);

/** The CSRF token of the last session this page tried to sign out: each session gets one try, whatever the answer. */
let triedToEnd: string | null = null;
let ending: Promise<void> | null = null;

/** Forgets the session here: its CSRF token, the user, and everything read with it. */
function forgetSession(client: QueryClient): void {
  rememberCsrfToken(null);
  client.setQueryData(meQuery.queryKey, null);
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' });
}

/** Signs out here and, for a provider session, returns the provider's end-session URL to visit next. */
export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      triedToEnd = currentCsrfToken(); // a 401 answer is not followed by a second sign-out (endLapsedSession)
      return (await unwrap(api.POST('/auth/logout'))).logout_url;
    },
    onSettled: () => forgetSession(client),
  });
}

/**
 * A 401 said this page's session is over. One left idle past the limit is only unusable, not ended: until it is signed
 * out, its row stays open and so does the user's session at the provider, and "Sign in with ..." would let anyone at
 * the machine straight back in. So sign it out (once, however many requests failed together): the API ends an idle
 * session and answers with the provider's end-session URL, where the browser goes next (it returns to /login); a
 * revoked or expired session answers 401, and there is nothing to do but sign in.
 */
export function endLapsedSession(client: QueryClient): Promise<void> {
  ending ??= signOutLapsed(client).finally(() => {
    ending = null;
  });
  return ending;
}

async function signOutLapsed(client: QueryClient): Promise<void> {
  // Read before anything is forgotten: without the cookie (an API on another origin) the token is only in memory.
  const csrfToken = currentCsrfToken();
  if (!csrfToken || csrfToken === triedToEnd) {
    client.setQueryData(meQuery.queryKey, null);
    return;
  }
  triedToEnd = csrfToken;
  try {
    const { logout_url: logoutUrl } = await unwrap(api.POST('/auth/logout'));
    // Signed out only now: the session had gone idle (a revoked or expired one is refused).
    leaveSignInReason('session_idle');
    if (logoutUrl) {
      window.location.assign(logoutUrl);
      // The page is leaving: hold it as it is (no sign-in page in between), and every other 401 with it.
      return new Promise<void>(() => undefined);
    }
  } catch {
    // 401: already over. Any other failure is not retried (see triedToEnd): the user signs in again either way.
  }
  forgetSession(client);
}
