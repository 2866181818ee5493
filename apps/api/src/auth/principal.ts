import type { ApiKeyScope, Role } from '@hearth/contracts';

/** Who is calling. Every family-owned query takes `familyId` from here, never from the request. */
export interface Principal {
  userId: string;
  familyId: string;
  role: Role;
  apiKeyId: string;
  scope: ApiKeyScope;
}
