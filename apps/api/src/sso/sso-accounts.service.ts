import { Inject, Injectable } from '@nestjs/common';
import { ROLE_RANK } from '@hearth/contracts';
import type { Role } from '@hearth/contracts';
import { resolveRole } from '@hearth/domain/role-mapping';
import type { ProviderAttributes, RoleMappingConfig } from '@hearth/domain/role-mapping';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import type { SessionPrincipal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Transaction, Transactions } from '../database/transactions';
import type { AdminUserRow } from '../users/admin-users.repository';
import { AdminUsersService } from '../users/admin-users.service';
import { IdentityBlocksRepository } from '../users/identity-blocks.repository';
import { MappingDecision, RoleChangesService } from '../users/role-changes.service';
import type { User } from '../users/user.entity';
import { domainAllowed, parseEmailAddress } from './email-address';
import type { ProviderClaims } from './oidc-gateway';
import { SsoAccountsRepository } from './sso-accounts.repository';
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

/** A permanently removed user's identity (sso_identity_blocks); the audited reason of every refusal of it. */
export const REMOVED_IDENTITY = 'removed_identity';

const removedIdentity = () =>
  new ApiError(403, REMOVED_IDENTITY, 'This single sign-on account was removed by an administrator and cannot be used to sign in.');

/** Whether `error` is the refusal of a removed identity, found under its lock after the callback's first check. */
export const isRemovedIdentity = (error: unknown): boolean => error instanceof ApiError && error.code === REMOVED_IDENTITY;

/** The role a sync gives, and the sentence saying why; `mapped` when the provider's mapping decided it. */
interface RoleDecision {
  role: Role;
  rule: string;
  mapped: boolean;
}

const mappingOf = (provider: SsoProvider, decision: Pick<RoleDecision, 'rule'>): MappingDecision => ({
  providerId: provider.id,
  providerName: provider.name,
  rule: decision.rule,
});

/** What "sync roles" did: the user before and after, and what it was applied to. */
export interface StoredGroupsSync {
  user: AdminUserRow;
  roleBefore: Role;
  roleAfter: Role;
  provider: string;
  groups: string[];
  groupsReceivedAt: Date;
  rule: string;
}

const text = (value: unknown, max: number): string | null => (typeof value === 'string' && value.trim() ? value.trim().slice(0, max) : null);

/**
 * Accounts behind SSO sign-ins: the identity's user (issuer pinned), linking, JIT creation under AUTH_JIT_MODE and
 * ALLOWED_OIDC_DOMAINS, and the role sync of every login. Identities of permanently removed users are refused first,
 * whatever the strategy, and again under the identity's lock wherever one is created.
 */
@Injectable()
export class SsoAccountsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly repository: SsoRepository,
    private readonly users: SsoAccountsRepository,
    private readonly audit: AuditService,
    private readonly adminUsers: AdminUsersService,
    private readonly blocks: IdentityBlocksRepository,
    private readonly roleChanges: RoleChangesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async resolve(provider: SsoProvider, identity: ProviderClaims, connectUserId: string | null, origin: RequestOrigin): Promise<AccountOutcome> {
    // Before anything else: a removed identity neither signs in, nor links, nor gets a new account.
    if (await this.blocks.isBlocked(provider.id, identity.uid)) return { kind: 'refused', reason: REMOVED_IDENTITY };
    const existing = await this.repository.findIdentity(provider.id, identity.uid);
    if (existing) return this.signInExisting(provider, identity, existing, connectUserId, origin);
    if (connectUserId) return this.connect(provider, identity, connectUserId, origin);

    const address = parseEmailAddress(identity.claims.email);
    if (!address) return { kind: 'refused', reason: 'email_missing' };
    // Only a boolean true counts: "true" strings and absent claims are not a verified address.
    if (identity.claims.email_verified !== true) return { kind: 'refused', reason: 'email_unverified' };
    const email = address.address.toLowerCase();
    const user = await this.users.findUserByEmail(email);
    // Same e-mail as a local account: never a silent takeover; the owner must confirm with that account's password.
    if (user) return { kind: 'link_required', user, email };
    if (this.config.sso.jitMode === 'link_only') return { kind: 'refused', reason: 'jit_disabled' };
    if (!domainAllowed(address, this.config.sso.allowedDomains)) return { kind: 'refused', reason: 'domain_not_allowed' };
    return this.createAccount(provider, identity, email, origin);
  }

  /**
   * After the local password was confirmed (or from a signed-in user's connect): links the identity to that user.
   * Refused (403 removed_identity) when a removal blocked the identity since the callback checked.
   */
  async link(provider: SsoProvider, identity: ProviderClaims, user: User, origin: RequestOrigin, tx: Transaction): Promise<SsoIdentity> {
    await this.claimIdentity(provider, identity, tx);
    const created = await this.repository.createIdentity(
      {
        userId: user.id,
        providerId: provider.id,
        uid: identity.uid,
        issuer: identity.issuer,
        email: text(identity.claims.email, 320),
        groups: groupsOf(identity.claims, provider.groupAttribute),
      },
      tx,
    );
    await this.audit.record('link', { userId: user.id, familyId: user.familyId, providerId: provider.id, providerName: provider.name, origin, details: { identity_id: created.id } }, tx);
    return created;
  }

  /**
   * The role sync of a sign-in (docs/sso.md#role-mapping), with the groups and attributes the provider sent this time: see
   * `decide` for the rule, and RoleChangesService for the guards (a change refused to protect the last super admin is
   * audited, and the sign-in goes on).
   */
  async syncRole(provider: SsoProvider, identity: ProviderClaims, user: User, origin: RequestOrigin): Promise<User> {
    return this.transactions.run(async (tx) => {
      const stored = await this.repository.findIdentity(provider.id, identity.uid, tx);
      const current = await this.users.getUser(user.id, tx);
      if (!stored) return current;
      const decision = this.decide(provider, groupsOf(identity.claims, provider.groupAttribute), identity.claims, stored, current);
      if (decision) {
        const change = await this.roleChanges.apply(current, decision.role, { source: 'sso_role_mapping', mapping: mappingOf(provider, decision) }, origin, tx);
        current.role = change.role;
      }
      await this.repository.setMappedRole(stored.id, decision?.mapped ? current.role : null, tx);
      return current;
    });
  }

  /**
   * "Sync roles" of user management: the provider's current mapping applied to the groups of the user's
   * last sign-in, without one, under the rules of changing a role by hand (who may manage whom, who may grant which
   * role, the last super admin). Uses the identity whose groups arrived last: the provider the user signs in with.
   */
  async syncStoredGroups(principal: SessionPrincipal, userId: string, origin: RequestOrigin): Promise<StoredGroupsSync> {
    return this.transactions.run(async (tx) => {
      const { actor, target } = await this.adminUsers.manageable(principal, userId, tx);
      const identities = await this.repository.identitiesByLastGroups(target.id, tx);
      if (identities.length === 0) throw new ApiError(422, 'no_sso_identity', 'This user has no SSO identity, so there is no role mapping to apply.');
      const [identity] = identities;
      const provider = identity.provider!;
      if (identity.groups === null || identity.groupsReceivedAt === null) {
        throw new ApiError(422, 'no_stored_groups', 'No groups are stored for this user: they have not signed in through SSO since groups are kept. Their next sign-in syncs the roles.');
      }
      // Conditions on attributes need the claims of a sign-in, which are not stored: never decide on half the facts.
      if (((provider.roleMapping as RoleMappingConfig).conditions ?? []).some((condition) => condition.attribute)) {
        throw new ApiError(422, 'sign_in_needed', `The role mapping of ${provider.name} has conditions on provider attributes, which only a sign-in provides.`);
      }
      const decision = this.decide(provider, identity.groups, {}, identity, target) ?? {
        role: null,
        rule: `${provider.name} has no role mapping and did not decide this role, so it stays`,
        mapped: false,
      };
      const change = await this.roleChanges.apply(target, decision.role, { source: 'admin_role_sync', actor, mapping: mappingOf(provider, decision) }, origin, tx);
      await this.repository.setMappedRole(identity.id, decision.mapped ? change.role : null, tx);
      const after = await this.adminUsers.get(actor, target.id, tx);
      return { user: after, roleBefore: target.role, roleAfter: change.role, provider: provider.name, groups: identity.groups, groupsReceivedAt: identity.groupsReceivedAt, rule: change.rule };
    });
  }

  /**
   * What a sync makes of the user's role (roles no longer mapped are removed); null leaves it alone.
   * - The provider has group mappings or conditions: the highest role they grant, else the provider's default role.
   * - It has none (any more), but its mapping gave this identity's user their role at an earlier sync and the user
   *   still has that role: the provider's default role. The mapping that granted the role is gone, so is the role;
   *   this happens once (the identity then forgets the mapped role).
   * - Otherwise (the mapping never decided this user's role, or an administrator changed it since): unchanged.
   * Applying it keeps a user alone in their family its admin (RoleChangesService).
   */
  private decide(provider: SsoProvider, groups: readonly string[], attributes: ProviderAttributes, identity: SsoIdentity, user: Pick<User, 'role'>): RoleDecision | null {
    const config = provider.roleMapping as RoleMappingConfig;
    if (mappingConfigured(config)) {
      const resolution = resolveRole({ groups, attributes, config, defaultRole: provider.defaultRole });
      return { role: resolution.role, rule: resolution.explanation, mapped: true };
    }
    if (identity.mappedRole !== null && identity.mappedRole === user.role) {
      const rule = `the role mapping of ${provider.name} no longer grants ${identity.mappedRole}, so the default role ${provider.defaultRole} applies`;
      return { role: provider.defaultRole, rule, mapped: false };
    }
    return null;
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
    const user = await this.users.findUser(existing.userId);
    if (!user) return { kind: 'refused', reason: 'unknown_account' };
    if (user.status !== 'active') return { kind: 'refused', reason: 'suspended', userId: user.id };
    await this.repository.touchIdentity(
      existing.id,
      text(identity.claims.email, 320) ?? existing.email,
      groupsOf(identity.claims, provider.groupAttribute),
    );
    if (connectUserId) return { kind: 'connected', user, identity: existing };
    return { kind: 'signed_in', user: await this.syncRole(provider, identity, user, origin), identity: existing, created: false };
  }

  /** A signed-in user adds this provider; their session proves the account, the IdP proves the identity. */
  private async connect(provider: SsoProvider, identity: ProviderClaims, userId: string, origin: RequestOrigin): Promise<AccountOutcome> {
    const user = await this.users.findUser(userId);
    if (!user || user.status !== 'active') return { kind: 'refused', reason: 'unknown_account', userId };
    if (await this.repository.findIdentityForUser(provider.id, user.id)) return { kind: 'refused', reason: 'already_connected', userId };
    try {
      const created = await this.transactions.run((tx) => this.link(provider, identity, user, origin, tx));
      return { kind: 'connected', user, identity: created };
    } catch (error) {
      if (isRemovedIdentity(error)) return { kind: 'refused', reason: REMOVED_IDENTITY, userId };
      throw error;
    }
  }

  /** JIT: a new family with this user as its admin (or the provider's higher default), the identity, the audit row. */
  private async createAccount(provider: SsoProvider, identity: ProviderClaims, email: string, origin: RequestOrigin): Promise<AccountOutcome> {
    const config = provider.roleMapping as RoleMappingConfig;
    const groups = groupsOf(identity.claims, provider.groupAttribute);
    const resolved = resolveRole({ groups, attributes: identity.claims, config, defaultRole: provider.defaultRole });
    const mapped = resolved.mappedFields;
    const firstName = text(mapped.first_name ?? identity.claims.given_name, 100);
    const lastName = text(mapped.last_name ?? identity.claims.family_name, 100);
    // The creator of a new family is its admin whatever the default role; a higher mapped role is kept.
    const role: Role = ROLE_RANK[resolved.role] >= ROLE_RANK.admin ? resolved.role : 'admin';
    try {
      return await this.transactions.run(async (tx) => {
        await this.claimIdentity(provider, identity, tx);
        const family = await this.users.createFamily(`${firstName ?? email.split('@')[0]}'s household`.slice(0, 200), tx);
        const user = await this.users.createUser({ email, role, familyId: family.id, firstName, lastName, passwordHash: null }, tx);
        const created = await this.repository.createIdentity(
          // With a mapping, the role is the mapping's to take back when the mapping goes (see `decide`).
          { userId: user.id, providerId: provider.id, uid: identity.uid, issuer: identity.issuer, email, groups, mappedRole: mappingConfigured(config) ? role : null },
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
      if (isRemovedIdentity(error)) return { kind: 'refused', reason: REMOVED_IDENTITY };
      // Two first sign-ins racing for one e-mail or subject: the loser is refused, nothing half-written remains.
      if ((error as { code?: string }).code === '23505') return { kind: 'refused', reason: 'account_exists' };
      throw error;
    }
  }

  /** Takes the identity's lock for the transaction, then refuses it if a removal blocked it (race-safe with removals). */
  private async claimIdentity(provider: SsoProvider, identity: ProviderClaims, tx: Transaction): Promise<void> {
    await this.blocks.lockIdentity(provider.id, identity.uid, tx);
    if (await this.blocks.isBlocked(provider.id, identity.uid, tx)) throw removedIdentity();
  }
}
