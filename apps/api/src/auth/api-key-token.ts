import { createHash, randomBytes } from 'node:crypto';

// Key format: hth_<8 chars of visible prefix>_<43 chars of secret>, 32+ random bytes in all.
const KEY_PATTERN = /^(hth_[A-Za-z0-9]{8})_[A-Za-z0-9_-]{43}$/;
const PREFIX_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

export interface GeneratedApiKey {
  key: string;
  prefix: string;
  hash: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateApiKey(): GeneratedApiKey {
  const prefixBytes = randomBytes(8);
  const prefix = 'hth_' + Array.from(prefixBytes, (b) => PREFIX_ALPHABET[b % PREFIX_ALPHABET.length]).join('');
  const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { key, prefix, hash: hashApiKey(key) };
}

/** The visible prefix of a well-formed key, or null: malformed keys are refused without touching the database. */
export function apiKeyPrefix(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

/** What is wrong with a key name on its own, before any lookup (the CLI's usage errors, the API's 422). */
export function apiKeyNameProblems(name: string): string[] {
  const trimmed = name.trim();
  return trimmed && trimmed.length <= 100 ? [] : ['name must be 1 to 100 characters'];
}
