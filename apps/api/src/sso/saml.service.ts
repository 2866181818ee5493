import { Injectable } from '@nestjs/common';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import { ApiError } from '../common/api-error';
import { ProviderSource } from './provider-source';
import { SamlGateway } from './saml-gateway';
import { SamlRejection } from './saml-profile';
import { SamlRepository } from './saml.repository';
import type { SsoProvider } from './sso.entities';
import { SsoRepository } from './sso.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** SAML SP metadata and single logout; sign-in itself goes through SsoLoginService like every other provider. */
@Injectable()
export class SamlService {
  constructor(
    private readonly sso: SsoRepository,
    private readonly repository: SamlRepository,
    private readonly gateway: SamlGateway,
    private readonly audit: AuditService,
    private readonly source: ProviderSource,
  ) {}

  /**
   * Metadata of any stored SAML provider, enabled or not: the IdP must know our entity ID and ACS before the provider
   * can be tested and enabled, and nothing in it is secret.
   */
  async metadata(providerId: string, origin: string): Promise<string> {
    const provider = await this.samlProvider(providerId);
    if (!provider) throw ApiError.notFound();
    return this.gateway.metadata(provider, origin);
  }

  /**
   * The SingleLogoutService. A signed LogoutRequest from the IdP ends the sessions that the named identity opened
   * through this provider (audited as logout_idp) and is answered with a LogoutResponse; anything else (including
   * the IdP's answer to a logout, or a refused request) just goes to the sign-in page.
   */
  async logout(providerId: string, body: Record<string, unknown>, origin: string, requestOrigin: RequestOrigin): Promise<string> {
    const provider = await this.samlProvider(providerId);
    if (!provider || !this.source.isActive(provider) || typeof body.SAMLRequest !== 'string') return '/login';
    let verified: { nameId: string; responseUrl: string };
    try {
      verified = await this.gateway.verifyLogoutRequest(provider, origin, body.SAMLRequest);
    } catch (error) {
      if (error instanceof SamlRejection) return '/login';
      throw error;
    }
    const identity = await this.sso.findIdentity(provider.id, verified.nameId);
    if (identity) {
      const sessions = await this.repository.revokeProviderSessions(identity.userId, provider.id, new Date());
      await this.audit.record('logout_idp', {
        userId: identity.userId,
        providerId: provider.id,
        providerName: provider.name,
        origin: requestOrigin,
        details: { initiated_by: 'idp', sessions },
      });
    }
    return verified.responseUrl;
  }

  private async samlProvider(id: string): Promise<SsoProvider | null> {
    const provider = UUID.test(id) ? await this.sso.findProvider(id) : null;
    return provider?.strategy === 'saml' ? provider : null;
  }
}
