import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-key-token';

describe('API key tokens', () => {
  it('generates keys with a visible prefix and a 32-byte secret, stored only as a SHA-256 hash', () => {
    const { key, prefix, hash } = generateApiKey();
    expect(key).toMatch(/^hth_[a-z2-9]{8}_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(`${prefix}_`)).toBe(true);
    expect(hash).toBe(hashApiKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key.slice(13));
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));
    expect(keys.size).toBe(200);
  });

  it.each(['', 'hth_', 'garbage', 'hth_abcdefgh_short', `hth_abcdefgh_${'a'.repeat(44)}`, `xyz_abcdefgh_${'a'.repeat(43)}`])(
    'rejects the malformed key %j',
    (key) => expect(apiKeyPrefix(key)).toBeNull(),
  );

  it('reads the prefix of a well-formed key', () => {
    const { key, prefix } = generateApiKey();
    expect(apiKeyPrefix(key)).toBe(prefix);
  });
});
