import { localLoginAllowedFor, localLoginFormVisible, localLoginMode, passwordAccess, passwordResetEnabled } from './local-login-policy';

describe('local login policy (AUTH_LOCAL_LOGIN_ENABLED, AUTH_LOCAL_ADMIN_OVERRIDE_ENABLED)', () => {
  const on = { localLoginEnabled: true, localAdminOverrideEnabled: false };
  const onWithOverride = { localLoginEnabled: true, localAdminOverrideEnabled: true };
  const off = { localLoginEnabled: false, localAdminOverrideEnabled: false };
  const override = { localLoginEnabled: false, localAdminOverrideEnabled: true };

  it.each([
    [on, 'enabled', true, true],
    [onWithOverride, 'enabled', true, true],
    [off, 'disabled', false, false],
    [override, 'super_admins_only', true, false],
  ] as const)('%j: mode %s, form shown %s, password reset %s', (switches, mode, form, reset) => {
    expect(localLoginMode(switches)).toBe(mode);
    expect(localLoginFormVisible(switches)).toBe(form);
    expect(passwordResetEnabled(switches)).toBe(reset);
  });

  it('lets every role in when local login is on, nobody when off, only super admins under the override', () => {
    for (const role of ['member', 'admin', 'super_admin'] as const) {
      expect(localLoginAllowedFor(on, role)).toBe(true);
      expect(localLoginAllowedFor(off, role)).toBe(false);
      expect(localLoginAllowedFor(override, role)).toBe(role === 'super_admin');
    }
  });

  it('says whether a user has a password, may sign in with one, and so may use (and change) it', () => {
    const withPassword = { role: 'admin', passwordHash: '$argon2id$…' } as const;
    const ssoOnly = { role: 'super_admin', passwordHash: null } as const;
    expect(passwordAccess(on, withPassword)).toEqual({ set: true, signInAllowed: true, usable: true });
    expect(passwordAccess(off, withPassword)).toEqual({ set: true, signInAllowed: false, usable: false });
    expect(passwordAccess(override, withPassword)).toEqual({ set: true, signInAllowed: false, usable: false });
    expect(passwordAccess(override, { ...withPassword, role: 'super_admin' })).toEqual({ set: true, signInAllowed: true, usable: true });
    expect(passwordAccess(on, ssoOnly)).toEqual({ set: false, signInAllowed: true, usable: false });
    expect(passwordAccess(off, ssoOnly)).toEqual({ set: false, signInAllowed: false, usable: false });
  });
});
