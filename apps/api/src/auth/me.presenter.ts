import type { User } from '../users/user.entity';
import type { MeDto } from './auth.dto';

export const toMeDto = (user: User, familyName: string, csrfToken: string): MeDto => ({
  id: user.id,
  email: user.email,
  first_name: user.firstName,
  last_name: user.lastName,
  role: user.role,
  status: user.status,
  family_id: user.familyId,
  family_name: familyName,
  last_login_at: user.lastLoginAt?.toISOString() ?? null,
  csrf_token: csrfToken,
});
