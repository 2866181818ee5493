import { createHash, createHmac } from 'node:crypto';
import { identityDigest, identityDigestKey } from './identity-blocks.repository';

describe('identityDigest', () => {
  const key = identityDigestKey('a'.repeat(64));
  const provider = '00000000-0000-4000-8000-000000000001';

  it('is a stable hex HMAC that depends on the subject and the provider', () => {
    const digest = identityDigest(key, provider, 'alice');
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(identityDigest(key, provider, 'alice')).toBe(digest);
    expect(identityDigest(key, provider, 'alice2')).not.toBe(digest);
    expect(identityDigest(key, '00000000-0000-4000-8000-000000000002', 'alice')).not.toBe(digest);
  });

  it('is keyed with a key derived from SECRET_KEY_BASE, not a plain hash nor an HMAC under the secret itself', () => {
    const digest = identityDigest(key, provider, 'alice');
    expect(digest).not.toBe(createHash('sha256').update(`${provider}\nalice`).digest('hex'));
    expect(digest).not.toBe(createHmac('sha256', 'a'.repeat(64)).update(`${provider}\nalice`).digest('hex'));
    expect(identityDigest(identityDigestKey('b'.repeat(64)), provider, 'alice')).not.toBe(digest);
  });
});
