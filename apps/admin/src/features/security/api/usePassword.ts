import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

/** PUT /me/password through the shared client (it adds the CSRF header); the API ends the user's other sessions. */
export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: components['schemas']['ChangePasswordDto']) => unwrap(api.PUT('/api/v1/me/password', { body })),
  });
