import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ROLE_RANK } from '@hearth/contracts';
import type { Role } from '@hearth/contracts';
import { canChangeRole, resolveRole } from '@hearth/domain/role-mapping';
import type { RoleMappingConfig } from '@hearth/domain/role-mapping';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Family } from '../finance/entities/family.entity';
import { User } from '../users/user.entity';
import { domainAllowed, parseEmailAddress } from './email-address';
import type { ProviderClaims } from './oidc-gateway';
import type { SsoIdentity, SsoProvider } from './sso.entities';
import { SsoRepository } from './sso.repository';

/** Groups beyond this many are ignored: a role decision never needs more, and the audit row stays small. */
const MAX_GROUPS = 1000;

/** What a verified provider identity leads to. `reason` codes are audited and shown to the browser as-is. */
export type AccountOutcome =
  | { kind: 'signed_in'; user: User; identity: SsoIdentity; created: boolean }
  | { kind: 'connected'; user: User; identity: SsoIdentity }
  | { kind: 'link_required'; user: User; email: string }
  | { kind: 'refused'; reason: string; userId?: string | null };

/** The provider's groups claim as a list of strings (a single string counts as one group; other shapes as none). */
export function groupsOf(claims: Record<string, unknown>, attribute: string): string[] {
  const value = claims[attribute];
  const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return list.filter((group): group is string => typeof group === 'string').slice(0, MAX_GROUPS);
}

const mappingConfigured = (config: RoleMappingConfig) => Boolean(config.groupMappings?.length || config.conditions?.length);

const text = (value: unknown, max: number): string | null => (typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null);

/**
 * Accounts behind SSO sign-ins: the identity's user (issuer pinned), linking, JIT creation under AUTH_JIT_MODE and
 * ALLOWED_OIDC_DOMAINS, and the role sync of every login.
 */
@Injectable()
export class SsoAccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repository: SsoRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async resolve(provider: SsoProvider, identity: ProviderClaims, connectUserId: string | null, origin: RequestOrigin): Promise<AccountOutcome> {
    const existing = await this.repository.findIdentity(provider.id, identity.uid);
    if (existing) return this.signInExisting(provider, identity, existing, connectUserId, origin);
    if (connectUserId) return this.connect(provider, identity, connectUserId, origin);

    const address = parseEmailAddress(identity.claims.email);
    if (!address) return { kind: 'refused', reason: 'email_missing' };
    // Only a boolean true counts: "true" strings and absent claims are not a verified address.
    if (identity.claims.email_verified !== true) return { kind: 'refused', reason: 'email_unverified' };
    const email = address.address.toLowerCase();
    const user = await this.dataSource.getRepository(User).findOneBy({ email });
    // Same e-mail as a local account: never a silent takeover; the owner must confirm with that account's password.
    if (user) return { kind: 'link_required', user, email };
    if (this.config.sso.jitMode === 'link_only') return { kind: 'refused', reason: 'jit_disabled' };
    if (!domainAllowed(address, this.config.sso.allowedDomains)) return { kind: 'refused', reason: 'domain_not_allowed' };
    return this.createAccount(provider, identity, email, origin);
  }

  /** After the local password was confirmed: links the identity to that user and signs them in. */
  async link(provider: SsoProvider, identity: ProviderClaims, user: User, origin: RequestOrigin, manager: EntityManager): Promise<SsoIdentity> {
    const created = await this.repository.createIdentity(
      { userId: user.id, providerId: provider.id, uid: identity.uid, issuer: identity.issuer, email: text(identity.claims.email, 320) },
      manager,
    );
    await this.audit.record('link', { userId: user.id, familyId: user.familyId, providerId: provider.id, providerName: provider.name, origin, details: { identity_id: created.id } }, manager);
    return created;
  }

  /**
   * Applies the provider's role mapping (SPEC.md 5.5) when it has one: the highest mapped role, else the default role.
   * A user alone in their family stays at least its admin; the last active super admin is never demoted.
   */
  async syncRole(provider: SsoProvider, identity: ProviderClaims, user: User, origin: RequestOrigin): Promise<User> {
    const config = provider.roleMapping as RoleMappingConfig;
    if (!mappingConfigured(config)) return user;
    const resolution = resolveRole({
      groups: groupsOf(identity.claims, provider.groupAttribute),
      attributes: identity.claims,
      config,
      defaultRole: provider.defaultRole,
    });
    return this.dataSource.transaction(async (tx) => {
      const current = await tx.getRepository(User).findOneByOrFail({ id: user.id });
      let target: Role = resolution.role;
      if (ROLE_RANK[target] < ROLE_RANK.admin && (await tx.getRepository(User).countBy({ familyId: current.familyId })) === 1) target = 'admin';
      if (target === current.role) return current;
      const superAdmins: { id: string }[] = await tx.query(`SELECT id FROM users WHERE role = 'super_admin' AND status = 'active' FOR UPDATE`);
      const decision = canChangeRole({ currentRole: current.role, newRole: target, superAdminCount: superAdmins.length });
      const base = { userId: current.id, familyId: current.familyId, providerId: provider.id, providerName: provider.name, origin };
      if (!decision.allowed) {
        await this.audit.record('role_changed', { ...base, details: { from: current.role, to: current.role, refused: target, reason: decision.reason, source: 'sso_role_mapping' } }, tx);
        return current;
      }
      await tx.getRepository(User).update({ id: current.id }, { role: target });
      await this.audit.record('role_changed', { ...base, details: { from: current.role, to: target, source: 'sso_role_mapping', rule: resolution.explanation } }, tx);
      current.role = target;
      return current;
    });
  }

  private async signInExisting(
    provider: SsoProvider,
    identity: ProviderClaims,
    existing: SsoIdentity,
    connectUserId: string | null,
    origin: RequestOrigin,
  ): Promise<AccountOutcome> {
    // Issuer pinning: an identity made with one issuer is never signed in by another under the same provider name.
    if (existing.issuer !== null && existing.issuer !== identity.issuer) return { kind: 'refused', reason: 'issuer_mismatch', userId: existing.userId };
    if (connectUserId && connectUserId !== existing.userId) return { kind: 'refused', reason: 'identity_linked_to_another_user', userId: connectUserId };
    const user = await this.dataSource.getRepository(User).findOneBy({ id: existing.userId });
    if (!user) return { kind: 'refused', reason: 'unknown_account' };
    if (user.status !== 'active') return { kind: 'refused', reason: 'suspended', userId: user.id };
    await this.repository.touchIdentity(existing.id, text(identity.claims.email, 320) ?? existing.email, this.dataSource.manager);
    if (connectUserId) return { kind: 'connected', user, identity: existing };
    return { kind: 'signed_in', user: await this.syncRole(provider, identity, user, origin), identity: existing, created: false };
  }

  /** A signed-in user adds this provider; their session proves the account, the IdP proves the identity. */
  private async connect(provider: SsoProvider, identity: ProviderClaims, userId: string, origin: RequestOrigin): Promise<AccountOutcome> {
    const user = await this.dataSource.getRepository(User).findOneBy({ id: userId });
    if (!user || user.status !== 'active') return { kind: 'refused', reason: 'unknown_account', userId };
    if (await this.repository.findIdentityForUser(provider.id, user.id)) return { kind: 'refused', reason: 'already_connected', userId };
    const created = await this.dataSource.transaction((tx) => this.link(provider, identity, user, origin, tx));
    return { kind: 'connected', user, identity: created };
  }

  /** JIT: a new family with this user as its admin (or the provider's higher default), the identity, the audit row. */
  private async createAccount(provider: SsoProvider, identity: ProviderClaims, email: string, origin: RequestOrigin): Promise<AccountOutcome> {
    const config = provider.roleMapping as RoleMappingConfig;
    const resolved = resolveRole({ groups: groupsOf(identity.claims, provider.groupAttribute), attributes: identity.claims, config, defaultRole: provider.defaultRole });
    const mapped = resolved.mappedFields;
    const firstName = text(mapped.first_name ?? identity.claims.given_name, 100);
    const lastName = text(mapped.last_name ?? identity.claims.family_name, 100);
    // The creator of a new family is its admin whatever the default role; a higher mapped role is kept.
    const role: Role = ROLE_RANK[resolved.role] >= ROLE_RANK.admin ? resolved.role : 'admin';
    try {
      return await this.dataSource.transaction(async (tx) => {
        const families = tx.getRepository(Family);
        const family = await families.save(families.create({ name: `${firstName ?? email.split('@')[0]}'s household`.slice(0, 200) }));
        const users = tx.getRepository(User);
        const user = await users.save(users.create({ email, role, familyId: family.id, firstName, lastName, passwordHash: null }));
        const created = await this.repository.createIdentity(
          { userId: user.id, providerId: provider.id, uid: identity.uid, issuer: identity.issuer, email },
          tx,
        );
        await this.audit.record(
          'jit_account_created',
          { userId: user.id, familyId: family.id, providerId: provider.id, providerName: provider.name, origin, details: { identity_id: created.id, role, rule: resolved.explanation } },
          tx,
        );
        return { kind: 'signed_in', user, identity: created, created: true } as const;
      });
    } catch (error) {
      // Two first sign-ins racing for one e-mail or subject: the loser is refused, nothing half-written remains.
      if ((error as { code?: string }).code === '23505') return { kind: 'refused', reason: 'account_exists' };
      throw error;
    }
  }
}
