import type { AuthConfig } from '../config/config';
import type { User } from '../users/user.entity';
import type { MeDto, UserSummaryDto } from './auth.dto';
import { passwordAccess } from './local-login-policy';

type Person = Pick<User, 'id' | 'email' | 'firstName' | 'lastName' | 'role' | 'status' | 'familyId'>;

export const userSummary = (user: Person, familyName: string): UserSummaryDto => ({
  id: user.id,
  email: user.email,
  first_name: user.firstName,
  last_name: user.lastName,
  role: user.role,
  status: user.status,
  family_id: user.familyId,
  family_name: familyName,
});

export function toMeDto(user: User, familyName: string, csrfToken: string, auth: AuthConfig): MeDto {
  const password = passwordAccess(auth, user);
  return {
    ...userSummary(user, familyName),
    last_login_at: user.lastLoginAt?.toISOString() ?? null,
    csrf_token: csrfToken,
    password: { set: password.set, sign_in_allowed: password.signInAllowed, usable: password.usable },
  };
}
