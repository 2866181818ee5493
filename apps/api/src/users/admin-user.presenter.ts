import { userSummary } from '../auth/me.presenter';
import type { AdminUserDto } from './admin-users.dto';
import type { AdminUserRow } from './admin-users.repository';

/** A user as user management shows it; shared by the admin user actions here and SSO's "sync roles". */
export const adminUserDto = (user: AdminUserRow): AdminUserDto => ({
  ...userSummary(user, user.familyName),
  suspended_by_role: user.suspendedByRole,
  auth_methods: [...(user.hasPassword ? ['password'] : []), ...user.providers],
  last_login_at: user.lastLoginAt ? new Date(user.lastLoginAt).toISOString() : null,
  created_at: new Date(user.createdAt).toISOString(),
});
