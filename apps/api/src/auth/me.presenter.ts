import type { User } from '../users/user.entity';
import type { MeDto, UserSummaryDto } from './auth.dto';

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

export const toMeDto = (user: User, familyName: string, csrfToken: string): MeDto => ({
  ...userSummary(user, familyName),
  last_login_at: user.lastLoginAt?.toISOString() ?? null,
  csrf_token: csrfToken,
});
