import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/client';

const identityKeys = { all: ['sso-identities'] as const };

export const useIdentities = () =>
  useQuery({ queryKey: identityKeys.all, queryFn: async () => (await unwrap(api.GET('/api/v1/settings/sso_identities'))).sso_identities });

export function useDisconnectIdentity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/settings/sso_identities/{id}', { params: { path: { id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: identityKeys.all }),
  });
}
