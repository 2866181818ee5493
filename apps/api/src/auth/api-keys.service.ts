import { Injectable } from '@nestjs/common';
import type { ApiKeyScope, RequiredScope } from '@hearth/contracts';
import { ApiError } from '../common/api-error';
import { apiKeyNameProblems, apiKeyPrefix, generateApiKey, hashApiKey } from './api-key-token';
import { ApiKeysRepository } from './api-keys.repository';
import type { ApiKey } from './auth.entities';
import type { Principal } from './principal';

const INVALID_KEY = 'Access token or API key is invalid, expired, or missing';
/** last_used_at is a hint for people, not an audit trail: write it at most once a minute per key. */
const TOUCH_INTERVAL_MS = 60_000;

export const unauthorized = (message = INVALID_KEY) => new ApiError(401, 'unauthorized', message);

export function scopeAllows(granted: ApiKeyScope, required: RequiredScope): boolean {
  return required === 'read' || granted === 'read_write';
}


@Injectable()
export class ApiKeysService {
  constructor(private readonly keys: ApiKeysRepository) {}

  /** Resolves an X-Api-Key header value to its principal, or throws the 401 body of the spec. */
  async authenticate(rawKey: string | undefined, now = new Date()): Promise<Principal> {
    if (!rawKey || apiKeyPrefix(rawKey.trim()) === null) throw unauthorized();
    const key = await this.keys.findByHash(hashApiKey(rawKey.trim()));
    if (!key || key.revokedAt || (key.expiresAt && key.expiresAt <= now)) throw unauthorized();
    if (key.status !== 'active') throw unauthorized('Account has been deactivated');
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.keys.touch(key.id, now);
    }
    return { userId: key.userId, familyId: key.familyId, role: key.role, apiKeyId: key.id, scope: key.scope };
  }

  authorize(principal: Principal, required: RequiredScope): void {
    if (!scopeAllows(principal.scope, required)) {
      throw new ApiError(403, 'insufficient_scope', `This action requires the '${required}' scope`);
    }
  }

  /** Creates a key; the plaintext is returned once and never stored. */
  async create(input: { userId: string; name: string; scope: ApiKeyScope; expiresAt?: Date | null; uniqueName?: boolean }) {
    const problems = apiKeyNameProblems(input.name);
    if (problems.length) throw ApiError.validation(problems);
    const name = input.name.trim();
    const generated = generateApiKey();
    const key = { userId: input.userId, name, prefix: generated.prefix, keyHash: generated.hash, scope: input.scope, expiresAt: input.expiresAt ?? null };
    const saved = input.uniqueName ? await this.keys.insertWithFreeName(key, new Date()) : await this.keys.insert(key);
    if (!saved) throw ApiError.validation(['name is already used by another of your active API keys']);
    return { id: saved.id, key: generated.key, prefix: saved.prefix, scope: saved.scope, name: saved.name, record: saved };
  }

  listForUser(userId: string): Promise<ApiKey[]> {
    return this.keys.listForUser(userId);
  }

  /** Revokes one of the user's keys by id; null when the user has no such key. Revoking twice changes nothing. */
  async revokeById(id: string, userId: string): Promise<ApiKey | null> {
    const key = await this.keys.findForUser(id, userId);
    if (!key) return null;
    if (!key.revokedAt) await this.keys.revoke({ prefix: key.prefix, userId }, new Date());
    return key;
  }

  /** Revokes the active key with this prefix (an operator's CLI command); the key revoked, or null when none was active. */
  async revoke(prefix: string): Promise<ApiKey | null> {
    const key = await this.keys.findActiveByPrefix(prefix);
    if (!key || !(await this.keys.revoke({ prefix }, new Date()))) return null;
    return key;
  }
}
