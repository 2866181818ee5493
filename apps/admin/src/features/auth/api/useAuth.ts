import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { meQuery } from '../../../app/auth/useSession';
import { api, rememberCsrfToken, unwrap } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

export const authConfigQuery = queryOptions({
  queryKey: ['auth', 'config'] as const,
  queryFn: () => unwrap(api.GET('/api/v1/auth/config')),
});

export const useAuthConfig = () => useQuery(authConfigQuery);

function useSignedIn() {
  const client = useQueryClient();
  return (signedIn: components['schemas']['SignedInDto']) => {
    rememberCsrfToken(signedIn.user.csrf_token);
    client.setQueryData(meQuery.queryKey, signedIn.user);
    void client.invalidateQueries({ queryKey: authConfigQuery.queryKey });
  };
}

export function useSignIn() {
  const onSignedIn = useSignedIn();
  return useMutation({
    mutationFn: (body: components['schemas']['SignInDto']) => unwrap(api.POST('/sessions', { body })),
    onSuccess: onSignedIn,
  });
}

export function useSetup() {
  const onSignedIn = useSignedIn();
  return useMutation({
    mutationFn: (body: components['schemas']['SetupDto']) => unwrap(api.POST('/api/v1/auth/setup', { body })),
    onSuccess: onSignedIn,
  });
}

/**
 * The SSO sign-in waiting in this browser for the password of the account with the provider's e-mail (the API keeps it
 * for ten minutes, bound to this browser's sign-in cookie): 404 link_not_found when there is none.
 */
export const usePendingLink = () => useQuery({ queryKey: ['auth', 'pending-link'], queryFn: () => unwrap(api.GET('/auth/link')), retry: false });

/** Links the provider's identity to the account with that account's password, and signs in as it. */
export function useLinkAccount() {
  const onSignedIn = useSignedIn();
  return useMutation({
    mutationFn: (body: components['schemas']['LinkAccountDto']) => unwrap(api.POST('/auth/link', { body })),
    onSuccess: onSignedIn,
  });
}

/** Asks for a reset link; the API answers the same for every address, and so does the page. */
export const useRequestPasswordReset = () =>
  useMutation({
    mutationFn: (body: components['schemas']['PasswordResetRequestDto']) => unwrap(api.POST('/api/v1/auth/password_reset', { body })),
  });

/** Sets the new password with the mailed token; the API ends every session of the account (this browser's too, if it was signed in as it). */
export function useCompletePasswordReset() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['PasswordResetCompleteDto']) => unwrap(api.POST('/api/v1/auth/password_reset/complete', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: meQuery.queryKey }),
  });
}
