import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

export type Provider = components['schemas']['ProviderDto'];
export type CreateProvider = components['schemas']['CreateProviderDto'];
export type UpdateProvider = components['schemas']['UpdateProviderDto'];

const providerKeys = { all: ['sso-providers'] as const };

export const useProviders = () => useQuery({ queryKey: providerKeys.all, queryFn: () => unwrap(api.GET('/api/v1/admin/sso_providers')) });

function useProviderMutation<T>(fn: (args: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    // The form closes once the list shows what was saved: an Edit clicked at once must not open the old values.
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['auth', 'config'] });
      return client.invalidateQueries({ queryKey: providerKeys.all });
    },
  });
}

export const useCreateProvider = () => useProviderMutation((body: CreateProvider) => unwrap(api.POST('/api/v1/admin/sso_providers', { body })));

export const useUpdateProvider = () =>
  useProviderMutation(({ id, body }: { id: string; body: UpdateProvider }) =>
    unwrap(api.PATCH('/api/v1/admin/sso_providers/{id}', { params: { path: { id } }, body })),
  );

export const useSetProviderEnabled = () =>
  useProviderMutation(({ id, enabled }: { id: string; enabled: boolean }) =>
    enabled
      ? unwrap(api.POST('/api/v1/admin/sso_providers/{id}/enable', { params: { path: { id } } }))
      : unwrap(api.POST('/api/v1/admin/sso_providers/{id}/disable', { params: { path: { id } } })),
  );

export const useDeleteProvider = () =>
  useProviderMutation((id: string) => unwrap(api.DELETE('/api/v1/admin/sso_providers/{id}', { params: { path: { id } } })));

export type TestLoginResult = components['schemas']['TestLoginResultDto'];

/** Starts a test login and sends this browser to the provider; the callback brings it back with `?test_login=<id>`. */
export const useStartTestLogin = () =>
  useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/admin/sso_providers/{id}/test_login', { params: { path: { id } } })),
    onSuccess: (started) => window.location.assign(started.authorization_url),
  });

export const useTestLoginResult = (id: string | null) =>
  useQuery({
    queryKey: ['sso-providers', id, 'test-login'],
    enabled: id !== null,
    queryFn: () => unwrap(api.GET('/api/v1/admin/sso_providers/{id}/test_login/result', { params: { path: { id: id! } } })),
  });
