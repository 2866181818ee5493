import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { derivedKey } from '../common/derived-key';
import type { AppConfig } from '../config/config';

// Secrets at rest (client secrets, SP private keys, stored ID tokens) as AES-256-GCM envelopes:
//   enc:v1:<iv>:<tag>:<ciphertext>   (base64url parts, 12-byte IV, 16-byte tag)
// The purpose string is bound as associated data, so a value cannot be moved to another column and still decrypt.

const PREFIX = 'enc:v1:';

export class SecretBoxError extends Error {}

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new RangeError('SecretBox needs a 32-byte key');
  }

  /** Keys come from ACTIVE_RECORD_ENCRYPTION_* when set, else from SECRET_KEY_BASE; never used directly. */
  static fromConfig(config: Pick<AppConfig, 'secretKeyBase' | 'sso'>): SecretBox {
    const custom = config.sso.encryptionKeys;
    const material = custom ? custom.primaryKey : config.secretKeyBase;
    const salt = custom ? custom.keyDerivationSalt : 'hearth:sso-secrets';
    return new SecretBox(derivedKey(material, 'hearth:aes-256-gcm:v1', salt));
  }

  static isEnvelope(value: string): boolean {
    return value.startsWith(PREFIX);
  }

  seal(plaintext: string, purpose: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(purpose));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ciphertext.toString('base64url')}`;
  }

  open(envelope: string, purpose: string): string {
    const parts = envelope.startsWith(PREFIX) ? envelope.slice(PREFIX.length).split(':') : [];
    if (parts.length !== 3) throw new SecretBoxError('not an encrypted value');
    const [iv, tag, ciphertext] = parts.map((part) => Buffer.from(part, 'base64url'));
    if (iv.length !== 12 || tag.length !== 16) throw new SecretBoxError('malformed encrypted value');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAAD(Buffer.from(purpose));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('encrypted value does not decrypt with the configured key');
    }
  }
}
