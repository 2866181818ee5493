import { derivedKey } from './derived-key';

describe('derivedKey', () => {
  const secret = 'a'.repeat(64);

  // Known answers: stored identity-block digests and SSO secrets were keyed this way; a change would orphan them.
  it('gives the keys that existing data was written with', () => {
    expect(derivedKey(secret, 'sso-identity-blocks-v1').toString('hex')).toBe('7c6b862b8835f3d7e6fac6ddf9342c9c49717a74fb0ec09f0181dbc4d00b9e9c');
    expect(derivedKey(secret, 'hearth:aes-256-gcm:v1', 'hearth:sso-secrets').toString('hex')).toBe(
      'a5cd7ecdc380240107f8df2dccfef35ccf58118d8559740be811ccfaa0903442',
    );
  });

  it('gives each purpose its own 32-byte key', () => {
    const keys = ['audit-archive-v1', 'sso-identity-blocks-v1'].map((purpose) => derivedKey(secret, purpose));
    expect(keys.map((key) => key.length)).toEqual([32, 32]);
    expect(keys[0].equals(keys[1])).toBe(false);
  });
});
