import { localLoginAllowedFor, localLoginFormVisible, localLoginMode, passwordResetEnabled } from './local-login-policy';

describe('local login policy (SPEC.md 5.3)', () => {
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
});
