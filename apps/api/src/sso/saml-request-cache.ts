import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import type { SamlRepository, SamlRequestContext, SamlRequestKind } from './saml.repository';

/** What a request being issued is for; absent when the cache only answers responses. */
export interface IssuingContext extends SamlRequestContext {
  ttlMs: number;
}

/**
 * node-saml's InResponseTo cache backed by the saml_requests table, scoped to one provider and one kind of request (a
 * request ID minted for another provider, or a LogoutRequest's ID in a sign-in Response, is unknown here). One
 * instance per request: it remembers which request IDs this response itself consumed, because node-saml ignores the
 * result of removeAsync and two concurrent responses to one request would otherwise both pass its getAsync check.
 */
export class SamlRequestCache implements CacheProvider {
  private readonly consumed = new Map<string, SamlRequestContext>();

  constructor(
    private readonly repository: SamlRepository,
    private readonly providerId: string,
    private readonly kind: SamlRequestKind,
    private readonly issuing: IssuingContext | null = null,
  ) {}

  async saveAsync(key: string, value: string): Promise<CacheItem | null> {
    if (!this.issuing) throw new Error('this SAML request cache only answers responses');
    const { ttlMs, ...context } = this.issuing;
    const now = Date.now();
    await this.repository.saveRequest({ id: key, providerId: this.providerId, issueInstant: value, expiresAt: new Date(now + ttlMs), ...context });
    return { value, createdAt: now };
  }

  getAsync(key: string): Promise<string | null> {
    return this.repository.openRequestInstant(key, this.providerId, this.kind, new Date());
  }

  /** Consumes the request (single use); node-saml calls this on success and on every failure after reading the ID. */
  async removeAsync(key: string | null): Promise<string | null> {
    if (!key) return null;
    const context = await this.repository.consumeRequest(key, this.providerId, this.kind, new Date());
    if (!context) return null;
    this.consumed.set(key, context);
    return key;
  }

  /** The request this response answered, consumed by this instance (now, if node-saml did not); null if another did. */
  async claim(key: string): Promise<SamlRequestContext | null> {
    if (!this.consumed.has(key)) await this.removeAsync(key);
    return this.consumed.get(key) ?? null;
  }
}
