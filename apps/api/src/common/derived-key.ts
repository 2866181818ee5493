import { hkdfSync } from 'node:crypto';

/**
 * A 32-byte key of its own for one purpose, derived (HKDF-SHA256) from a secret such as SECRET_KEY_BASE, so no
 * feature uses the secret itself and a key leaked from one purpose says nothing about another. Changing `purpose`
 * or `salt` changes the key: existing values keyed by it stop verifying.
 */
export const derivedKey = (secret: string, purpose: string, salt = 'hearth'): Buffer => Buffer.from(hkdfSync('sha256', secret, salt, purpose, 32));
