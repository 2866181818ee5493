import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, rememberCsrfToken, unwrap } from '../../lib/api/client';
import type { components } from '../../lib/api/schema';

export type Me = components['schemas']['MeDto'];

/** The signed-in user, or null when there is no session (401). */
export const meQuery = queryOptions({
  queryKey: ['me'] as const,
  queryFn: async (): Promise<Me | null> => {
    try {
      const me = await unwrap(api.GET('/api/v1/me'));
      rememberCsrfToken(me.csrf_token);
      return me;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
  retry: false,
});

export const useSession = () => useQuery(meQuery);

/** Signs out here and, for a provider session, returns the provider's end-session URL to visit next. */
export function useSignOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await unwrap(api.POST('/auth/logout'))).logout_url,
    onSettled: () => {
      rememberCsrfToken(null);
      client.setQueryData(meQuery.queryKey, null);
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' });
    },
  });
}
