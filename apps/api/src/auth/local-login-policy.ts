import type { Role } from '@hearth/contracts';
import type { AuthConfig } from '../config/config';

// Local login control (docs/sign-in.md#local-login-control) as pure rules: what AUTH_LOCAL_LOGIN_ENABLED and AUTH_LOCAL_ADMIN_OVERRIDE_ENABLED allow.

type Switches = Pick<AuthConfig, 'localLoginEnabled' | 'localAdminOverrideEnabled'>;

/** `enabled`: everyone; `super_admins_only`: the override; `disabled`: SSO only. */
export type LocalLoginMode = 'enabled' | 'super_admins_only' | 'disabled';

export function localLoginMode(switches: Switches): LocalLoginMode {
  if (switches.localLoginEnabled) return 'enabled';
  return switches.localAdminOverrideEnabled ? 'super_admins_only' : 'disabled';
}

/** Whether a user of this role may sign in with a password (the password is checked separately). */
export function localLoginAllowedFor(switches: Switches, role: Role): boolean {
  const mode = localLoginMode(switches);
  return mode === 'enabled' || (mode === 'super_admins_only' && role === 'super_admin');
}

/** The sign-in page shows the e-mail/password form (the override keeps it for super admins). */
export const localLoginFormVisible = (switches: Switches): boolean => localLoginMode(switches) !== 'disabled';

/** Password reset follows local login only; the override does not bring it back. */
export const passwordResetEnabled = (switches: Switches): boolean => switches.localLoginEnabled;

/** What a user can do with a password now, as the admin app's /me shows it and the API enforces it. */
export interface PasswordAccess {
  /** The account has one: an SSO-provisioned account has none and cannot set a first one. */
  set: boolean;
  /** Password sign-in is open to this user's role. */
  signInAllowed: boolean;
  /** Both: the password signs in and PUT /me/password may change it. */
  usable: boolean;
}

export function passwordAccess(switches: Switches, user: { role: Role; passwordHash: string | null }): PasswordAccess {
  const set = user.passwordHash !== null;
  const signInAllowed = localLoginAllowedFor(switches, user.role);
  return { set, signInAllowed, usable: set && signInAllowed };
}
