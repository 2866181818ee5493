import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/client';
import type { components, operations } from '../../../lib/api/schema';

export type AdminUser = components['schemas']['AdminUserDto'];
export type IdentityBlock = components['schemas']['IdentityBlockDto'];
export type UserFilters = NonNullable<operations['AdminUsersController_list']['parameters']['query']>;

export const userKeys = {
  all: ['admin-users'] as const,
  list: (filters: UserFilters) => [...userKeys.all, 'list', filters] as const,
  history: (id: string) => [...userKeys.all, 'history', id] as const,
  // Under `all`: a deletion adds blocks, so every user mutation reads them again.
  identityBlocks: () => [...userKeys.all, 'identity-blocks'] as const,
};

export const usersQuery = (filters: UserFilters) =>
  queryOptions({
    queryKey: userKeys.list(filters),
    queryFn: () => unwrap(api.GET('/api/v1/admin/users', { params: { query: filters } })),
    placeholderData: keepPreviousData,
  });

export const useUsers = (filters: UserFilters) => useQuery(usersQuery(filters));

export const useAuthHistory = (id: string | null) =>
  useQuery({
    queryKey: userKeys.history(id ?? ''),
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/users/{id}/auth_history', { params: { path: { id: id! } } }))).events,
    enabled: id !== null,
  });

function useUserMutation<T, R = unknown>(fn: (args: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }) });
}

export const useSuspendUser = () =>
  useUserMutation((id: string) => unwrap(api.POST('/api/v1/admin/users/{id}/suspend', { params: { path: { id } } })));

export const useReactivateUser = () =>
  useUserMutation((id: string) => unwrap(api.POST('/api/v1/admin/users/{id}/reactivate', { params: { path: { id } } })));

export const useChangeRole = () =>
  useUserMutation(({ id, role }: { id: string; role: AdminUser['role'] }) =>
    unwrap(api.PATCH('/api/v1/admin/users/{id}', { params: { path: { id } }, body: { role } })),
  );

export const useDeleteUser = () =>
  useUserMutation(({ id, confirmation_email }: { id: string; confirmation_email: string }) =>
    unwrap(api.DELETE('/api/v1/admin/users/{id}', { params: { path: { id } }, body: { confirmation_email } })),
  );

/** Re-applies the SSO provider's current role mapping to the groups of the user's last sign-in. */
export const useSyncRoles = () =>
  useUserMutation((id: string) => unwrap(api.POST('/api/v1/admin/users/{id}/sync_roles', { params: { path: { id } } })));

/** SSO identities of permanently removed users (super admins only). */
export const useIdentityBlocks = (enabled: boolean) =>
  useQuery({
    queryKey: userKeys.identityBlocks(),
    queryFn: async () => (await unwrap(api.GET('/api/v1/admin/sso_identity_blocks'))).sso_identity_blocks,
    enabled,
  });

export const useAllowIdentityAgain = () =>
  useUserMutation((id: string) => unwrap(api.DELETE('/api/v1/admin/sso_identity_blocks/{id}', { params: { path: { id } } })));
