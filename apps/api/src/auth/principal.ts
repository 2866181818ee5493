import type { ApiKeyScope, Role } from '@hearth/contracts';

/** Who is calling. Every family-owned query takes `familyId` from here, never from the request. */
export interface Principal {
  userId: string;
  familyId: string;
  role: Role;
  apiKeyId: string;
  scope: ApiKeyScope;
}

/** Who is signed in through a browser session (cookie). */
export interface SessionPrincipal {
  userId: string;
  familyId: string;
  role: Role;
  email: string;
  sessionId: string;
  /** The cookie's token, to derive the CSRF token; never logged or returned. */
  token: string;
}
