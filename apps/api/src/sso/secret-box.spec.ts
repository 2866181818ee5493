import { loadConfig } from '../config/config';
import { SecretBox, SecretBoxError } from './secret-box';

describe('SecretBox', () => {
  const box = SecretBox.fromConfig(loadConfig({ SECRET_KEY_BASE: 'a'.repeat(64) }));

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('client-secret-value', 'sso_providers.client_secret');
    expect(sealed).toMatch(/^enc:v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(sealed).not.toContain('client-secret-value');
    expect(box.open(sealed, 'sso_providers.client_secret')).toBe('client-secret-value');
  });

  it('uses a fresh IV for every value', () => {
    expect(box.seal('same', 'p')).not.toBe(box.seal('same', 'p'));
  });

  it('refuses a tampered ciphertext, a wrong purpose and plaintext', () => {
    const sealed = box.seal('secret', 'p');
    const parts = sealed.split(':');
    const flipped = Buffer.from(parts[4], 'base64url');
    flipped[0] ^= 1;
    parts[4] = flipped.toString('base64url');
    expect(() => box.open(parts.join(':'), 'p')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'other')).toThrow(SecretBoxError);
    expect(() => box.open('secret', 'p')).toThrow('not an encrypted value');
  });

  it('derives different keys from another SECRET_KEY_BASE and from ACTIVE_RECORD_ENCRYPTION_* keys', () => {
    const sealed = box.seal('secret', 'p');
    const other = SecretBox.fromConfig(loadConfig({ SECRET_KEY_BASE: 'b'.repeat(64) }));
    const custom = SecretBox.fromConfig(
      loadConfig({
        SECRET_KEY_BASE: 'a'.repeat(64),
        ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY: 'primary-key-material',
        ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY: 'deterministic-key-material',
        ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT: 'salt-material',
      }),
    );
    expect(() => other.open(sealed, 'p')).toThrow(SecretBoxError);
    expect(() => custom.open(sealed, 'p')).toThrow(SecretBoxError);
    expect(custom.open(custom.seal('x', 'p'), 'p')).toBe('x');
  });

  it('refuses partially configured custom keys at start', () => {
    expect(() => loadConfig({ ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY: 'k' })).toThrow(
      /partially configured. Missing: ACTIVE_RECORD_ENCRYPTION_DETERMINISTIC_KEY, ACTIVE_RECORD_ENCRYPTION_KEY_DERIVATION_SALT/,
    );
  });
});
