import { Inject, Injectable } from '@nestjs/common';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import type { SessionPrincipal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Transaction, Transactions } from '../database/transactions';
import { OidcGateway } from './oidc-gateway';
import { connectionProblem } from './provider-failure';
import { ProviderSource } from './provider-source';
import { SecretBox } from './secret-box';
import type { CreateProviderDto, UpdateProviderDto } from './sso-providers.dto';
import { SsoProvider } from './sso.entities';
import { applyProviderFields, newProvider, providerProblems } from './provider-fields';
import { SsoRepository } from './sso.repository';

const notFound = () => new ApiError(404, 'record_not_found', 'No SSO provider has that id');

/**
 * Provider administration (super admins only). Every change is audited with the acting user's id in
 * the same transaction; sign-in reads providers from the database on each request, so changes apply at once.
 */
@Injectable()
export class SsoProvidersService {
  private readonly box: SecretBox;

  constructor(
    private readonly transactions: Transactions,
    private readonly repository: SsoRepository,
    private readonly oidc: OidcGateway,
    private readonly audit: AuditService,
    private readonly source: ProviderSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.box = SecretBox.fromConfig(config);
  }

  get sourceKind(): 'db' | 'yaml' {
    return this.source.kind;
  }

  list(): Promise<SsoProvider[]> {
    return this.repository.listProviders();
  }

  async get(id: string): Promise<SsoProvider> {
    const provider = await this.repository.findProvider(id);
    if (!provider) throw notFound();
    return provider;
  }

  async create(actor: SessionPrincipal, input: CreateProviderDto, origin: RequestOrigin): Promise<SsoProvider> {
    this.source.assertManagedInDatabase();
    const provider = newProvider(input.strategy, input.name);
    const changed = applyProviderFields(provider, input, this.box);
    await this.validate(provider, changed, true);
    return this.transactions.run(async (tx) => {
      await this.assertNameFree(provider.name, null, tx);
      const saved = await this.repository.saveProvider(provider, tx);
      await this.record('provider_created', actor, saved, origin, tx, { changed: changed.filter((f) => f !== 'name') });
      return saved;
    });
  }

  async update(actor: SessionPrincipal, id: string, input: UpdateProviderDto, origin: RequestOrigin): Promise<SsoProvider> {
    this.source.assertManagedInDatabase();
    const provider = await this.get(id);
    const changed = applyProviderFields(provider, input, this.box);
    if (!changed.length) return provider;
    await this.validate(provider, changed, false);
    return this.transactions.run(async (tx) => {
      if (changed.includes('name')) await this.assertNameFree(provider.name, provider.id, tx);
      const saved = await this.repository.saveProvider(provider, tx);
      const ended = changed.includes('enabled') && !saved.enabled ? { sessions_ended: await this.endSessions(actor, saved, tx) } : {};
      await this.record('provider_updated', actor, saved, origin, tx, { changed, ...ended });
      return saved;
    });
  }

  setEnabled(actor: SessionPrincipal, id: string, enabled: boolean, origin: RequestOrigin): Promise<SsoProvider> {
    return this.update(actor, id, { enabled }, origin);
  }

  async remove(actor: SessionPrincipal, id: string, origin: RequestOrigin): Promise<void> {
    this.source.assertManagedInDatabase();
    const provider = await this.get(id);
    await this.transactions.run(async (tx) => {
      const ended = await this.endSessions(actor, provider, tx);
      await this.repository.deleteProvider(provider.id, tx);
      await this.record('provider_deleted', actor, provider, origin, tx, { sessions_ended: ended });
    });
  }

  /**
   * Disabled or deleted means nobody is signed in through the provider any more, at once. The acting super admin's
   * own session is kept, so switching off the provider they came in through cannot lock them out mid-change.
   */
  private endSessions(actor: SessionPrincipal, provider: SsoProvider, tx: Transaction): Promise<number> {
    return this.repository.revokeProviderSessions(provider.id, actor.sessionId, tx);
  }

  private async validate(provider: SsoProvider, changed: string[], creating: boolean): Promise<void> {
    const errors = providerProblems(provider, changed, creating, this.config.sso.allowInsecureHttp);
    if (errors.length) throw ApiError.validation(errors);
    if (provider.strategy === 'openid_connect' && (creating || changed.some((f) => f === 'issuer' || f === 'client_id'))) {
      await this.checkDiscovery(provider);
    }
  }

  /** The issuer's discovery document must be reachable and name exactly this issuer. */
  private async checkDiscovery(provider: SsoProvider): Promise<void> {
    let discovered: string;
    try {
      discovered = (await this.oidc.discover(provider.issuer!, provider.clientId!)).issuer;
    } catch (error) {
      // "fetch failed" says nothing: name the connection problem (an untrusted certificate, a refused connection).
      const detail = connectionProblem(error) ?? (error instanceof Error ? error.message : 'unknown error');
      const hint = /unexpected JSON attribute value|issuer/i.test(detail)
        ? 'the document names a different issuer; copy the issuer exactly as the provider returns it (watch trailing slashes)'
        : detail;
      throw new ApiError(422, 'discovery_failed', `OIDC discovery failed for ${provider.issuer}: ${hint}`);
    }
    // URL parsing forgives a trailing slash; ID tokens carry the issuer as text, so it must match as text.
    if (discovered !== provider.issuer) {
      const slash = discovered.replace(/\/$/, '') === provider.issuer!.replace(/\/$/, '');
      throw new ApiError(
        422,
        'discovery_failed',
        `OIDC discovery failed for ${provider.issuer}: the document names a different issuer (${discovered})${slash ? ', a trailing slash mismatch' : ''}; copy the issuer exactly as the provider returns it`,
      );
    }
  }

  private async assertNameFree(name: string, exceptId: string | null, tx: Transaction): Promise<void> {
    const existing = await this.repository.findProviderByName(name, tx);
    if (existing && existing.id !== exceptId) {
      throw new ApiError(409, 'name_taken', `Another provider is already named "${name}"; names decide the callback path and must be unique.`);
    }
  }

  private record(
    event: 'provider_created' | 'provider_updated' | 'provider_deleted',
    actor: SessionPrincipal,
    provider: SsoProvider,
    origin: RequestOrigin,
    tx: Transaction,
    details: Record<string, unknown>,
  ) {
    return this.audit.record(
      event,
      {
        userId: actor.userId,
        familyId: actor.familyId,
        providerId: provider.id,
        providerName: provider.name,
        origin,
        details: { actor_user_id: actor.userId, strategy: provider.strategy, enabled: provider.enabled, ...details },
      },
      tx,
    );
  }
}
