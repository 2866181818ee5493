import { Injectable } from '@nestjs/common';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import { ApiError } from '../common/api-error';
import { ProviderSource } from './provider-source';
import { LogoutRequestMessage, LogoutResponseMessage, SamlGateway, VerifiedLogoutResponse } from './saml-gateway';
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
   * The SingleLogoutService, asked by the IdP (IdP-initiated logout, by HTTP-POST or HTTP-Redirect). A signed
   * LogoutRequest ends the sessions that the named identity opened through this provider (audited as logout_idp) and
   * is answered with a LogoutResponse; anything else (a refused request) just goes to the sign-in page.
   */
  async logoutRequested(providerId: string, message: LogoutRequestMessage, origin: string, requestOrigin: RequestOrigin): Promise<string> {
    const provider = await this.samlProvider(providerId);
    if (!provider || !this.source.isActive(provider)) return '/login';
    let verified: { nameId: string; responseUrl: string };
    try {
      verified = await this.gateway.verifyLogoutRequest(provider, origin, message);
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

  /**
   * The SingleLogoutService, answered by the IdP (SP-initiated logout: the session ended when the LogoutRequest was
   * sent). The browser goes to the sign-in page whatever the answer; one that is refused, or that reports a failure,
   * is audited as logout_idp with its result, since the user's IdP session may still be open.
   */
  async logoutAnswered(providerId: string, message: LogoutResponseMessage, origin: string, requestOrigin: RequestOrigin): Promise<string> {
    const provider = await this.samlProvider(providerId);
    if (!provider || !this.source.isActive(provider)) return '/login';
    let answer: VerifiedLogoutResponse;
    try {
      answer = await this.gateway.verifyLogoutResponse(provider, origin, message);
    } catch (error) {
      if (!(error instanceof SamlRejection)) throw error;
      // Not known to be the IdP's: it names nobody.
      await this.auditUnfinishedLogout(provider, null, requestOrigin, { result: 'response_refused', reason: error.reason, ...(error.detail ? { detail: error.detail } : {}) });
      return '/login';
    }
    if (answer.failure) await this.auditUnfinishedLogout(provider, answer.userId, requestOrigin, { result: 'idp_failed', detail: answer.failure });
    return '/login';
  }

  private auditUnfinishedLogout(provider: SsoProvider, userId: string | null, origin: RequestOrigin, details: Record<string, unknown>): Promise<void> {
    return this.audit.record('logout_idp', { userId, providerId: provider.id, providerName: provider.name, origin, details: { initiated_by: 'sp', ...details } });
  }

  private async samlProvider(id: string): Promise<SsoProvider | null> {
    const provider = UUID.test(id) ? await this.sso.findProvider(id) : null;
    return provider?.strategy === 'saml' ? provider : null;
  }
}
