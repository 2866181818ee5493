import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { resolveRole } from '@hearth/domain/role-mapping';
import type { RoleMappingConfig } from '@hearth/domain/role-mapping';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import type { SessionPrincipal } from '../auth/principal';
import { sameSecret } from '../auth/session-token';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import { parseEmailAddress } from './email-address';
import { OidcGateway, ProviderClaims, ProviderExchangeError } from './oidc-gateway';
import { connectionProblem, describeProviderFailure } from './provider-failure';
import { SamlGateway } from './saml-gateway';
import { SecretBox } from './secret-box';
import { groupsOf } from './sso-accounts.service';
import { CODE_VERIFIER_PURPOSE, SsoLoginService, TRANSACTION_TTL_MS } from './sso-login.service';
import type { TestLoginResultDto } from './sso-test-login.dto';
import { SsoAccountsRepository } from './sso-accounts.repository';
import { SsoTestLoginRepository } from './sso-test-login.repository';
import { callbackUrl } from './sso-urls';
import type { SsoLoginState, SsoProvider } from './sso.entities';
import { SsoRepository } from './sso.repository';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Claims beyond this size are not kept: the screen needs to show them, not archive a huge user-info document. */
const MAX_CLAIMS_BYTES = 64 * 1024;

/** The stored result: the DTO minus what the row itself says (status, times, provider). */
type StoredResult = Omit<TestLoginResultDto, 'status' | 'provider_id' | 'started_at' | 'completed_at'> & { completed_at: string };

/** A test's authorization URL and the transaction fields its callback will need. */
interface TestRequest {
  authorizationUrl: string;
  state: Pick<SsoLoginState, 'stateHash' | 'codeVerifierEncrypted' | 'nonce' | 'redirectUri'>;
}

const UNAVAILABLE = {
  oidc: "The provider's configuration could not be loaded (discovery or endpoints); check the issuer and that it is reachable.",
  saml: "The provider's SAML settings could not be used; check the SSO URL and the IdP certificate.",
};

/** Where the browser lands after a test login (the admin app's providers page shows the result). */
export const testLoginReturnPath = (providerId: string) => `/admin/sso_providers?test_login=${encodeURIComponent(providerId)}`;

/**
 * "Test login before enabling" (docs/sso.md#test-login): a super admin signs in at the provider, through the ordinary redirect
 * and callback with the same server-side state, PKCE, nonce and browser binding as a sign-in (purpose `test`), and sees
 * what the provider sent and which role its mapping would give. Nothing else happens: no user, identity or session is
 * created, no role changes, and the provider may still be disabled. Both ends are audited as provider_test_login.
 */
@Injectable()
export class SsoTestLoginService {
  private readonly box: SecretBox;

  constructor(
    private readonly accounts: SsoAccountsRepository,
    private readonly providers: SsoRepository,
    private readonly tests: SsoTestLoginRepository,
    private readonly oidc: OidcGateway,
    private readonly saml: SamlGateway,
    private readonly audit: AuditService,
    private readonly login: SsoLoginService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.box = SecretBox.fromConfig(config);
  }

  /** The browser-binding token of the transaction cookie: the one a sign-in uses, or a fresh one. */
  browserToken(existing: string | undefined): string {
    return this.login.browserToken(existing);
  }

  async start(
    actor: SessionPrincipal,
    providerId: string,
    browserToken: string,
    origin: string,
    requestOrigin: RequestOrigin,
  ): Promise<{ authorizationUrl: string; expiresAt: Date }> {
    const provider = await this.providers.findProvider(providerId);
    if (!provider) throw new ApiError(404, 'record_not_found', 'No SSO provider has that id');
    const browserHash = sha256(browserToken);
    let request: TestRequest;
    try {
      request = provider.strategy === 'saml' ? await this.samlRequest(provider, origin, browserHash, actor.userId) : await this.oidcRequest(provider, origin);
    } catch (error) {
      await this.record(actor.userId, actor.familyId, provider, requestOrigin, {
        stage: 'started',
        outcome: 'failed',
        reason: 'provider_unavailable',
        detail: describeProviderFailure(error),
      });
      const connection = connectionProblem(error);
      throw new ApiError(422, 'provider_unavailable', connection ? `The provider could not be reached: ${connection}.` : UNAVAILABLE[provider.strategy === 'saml' ? 'saml' : 'oidc']);
    }
    const expiresAt = new Date(Date.now() + TRANSACTION_TTL_MS);
    await this.providers.purgeExpiredLoginStates(new Date());
    await this.providers.createLoginState({ ...request.state, browserHash, providerId: provider.id, purpose: 'test', userId: actor.userId, expiresAt });
    await this.record(actor.userId, actor.familyId, provider, requestOrigin, { stage: 'started', enabled: provider.enabled });
    return { authorizationUrl: request.authorizationUrl, expiresAt };
  }

  /** OIDC and OAuth2: state, PKCE and nonce as for a sign-in; the callback finds the test row by its state. */
  private async oidcRequest(provider: SsoProvider, origin: string): Promise<TestRequest> {
    const redirectUri = callbackUrl(origin, provider.name);
    const request = await this.oidc.authorizationRequest(provider, redirectUri);
    return {
      authorizationUrl: request.url.toString(),
      state: {
        stateHash: sha256(request.state),
        codeVerifierEncrypted: this.box.seal(request.codeVerifier, CODE_VERIFIER_PURPOSE),
        nonce: request.nonce,
        redirectUri,
      },
    };
  }

  /**
   * SAML: the AuthnRequest is remembered with purpose `test` (the ACS parks the verified answer, and the browser that
   * started brings it back to samlCallback), which then finds the test row by its admin: SAML carries no state of ours.
   */
  private async samlRequest(provider: SsoProvider, origin: string, browserHash: string, userId: string): Promise<TestRequest> {
    return {
      authorizationUrl: await this.saml.authorizationUrl(provider, origin, { browserHash, purpose: 'test', userId }),
      state: { stateHash: sha256(randomBytes(32).toString('base64url')), codeVerifierEncrypted: '', nonce: '', redirectUri: '' },
    };
  }

  /**
   * A verified SAML answer to a test login, already checked to come back to the browser that started it: the
   * admin's open test with this provider gets the result. Returns where to send the browser.
   */
  async samlCallback(provider: SsoProvider, identity: ProviderClaims, userId: string, requestOrigin: RequestOrigin): Promise<string> {
    const transaction = await this.tests.consumeLatest(provider.id, userId, new Date());
    if (transaction) await this.complete(transaction, provider, await this.describe(provider, identity), requestOrigin);
    return testLoginReturnPath(provider.id);
  }

  /**
   * The callback of a test login: null when `state` belongs to no test login (then it is an ordinary sign-in), else
   * where to send the browser. Failures are results too: the admin sees why the provider's answer was refused.
   */
  async callback(
    providerName: string,
    parameters: Record<string, string>,
    browserToken: string | undefined,
    requestOrigin: RequestOrigin,
  ): Promise<{ redirect: string } | null> {
    if (!parameters.state) return null;
    const transaction = await this.tests.consume(sha256(parameters.state), new Date());
    if (!transaction) return null;
    const provider = await this.providers.findProvider(transaction.providerId);
    await this.complete(transaction, provider, await this.outcome(provider, providerName, transaction, parameters, browserToken), requestOrigin);
    return { redirect: testLoginReturnPath(transaction.providerId) };
  }

  /** Keeps a test's result on its row for the admin to read, and audits the completion. */
  private async complete(transaction: SsoLoginState, provider: SsoProvider | null, result: StoredResult, requestOrigin: RequestOrigin): Promise<void> {
    await this.tests.saveResult(transaction.id, result as unknown as Record<string, unknown>);
    if (!provider) return;
    const actor = await this.accounts.findUser(transaction.userId!);
    await this.record(transaction.userId, actor?.familyId ?? null, provider, requestOrigin, {
      stage: 'completed',
      outcome: result.error ? 'failed' : 'succeeded',
      ...(result.error ? { reason: result.error } : { mapped_role: result.role_mapping?.role, groups: result.groups.length }),
    });
  }

  /** The admin's latest test login with this provider. */
  async result(actor: SessionPrincipal, providerId: string): Promise<TestLoginResultDto> {
    const row = await this.tests.latest(providerId, actor.userId);
    if (!row) throw new ApiError(404, 'test_login_not_found', 'You have not started a test login with this provider.');
    const base = { provider_id: row.providerId, started_at: row.createdAt.toISOString() };
    if (!row.consumedAt || !row.pendingLink) {
      const status = row.expiresAt > new Date() ? 'pending' : 'expired';
      return { ...base, ...empty(), status, completed_at: null };
    }
    const stored = row.pendingLink as unknown as StoredResult;
    return { ...base, ...stored, status: stored.error ? 'failed' : 'succeeded' };
  }

  private async outcome(
    provider: SsoProvider | null,
    providerName: string,
    transaction: SsoLoginState,
    parameters: Record<string, string>,
    browserToken: string | undefined,
  ): Promise<StoredResult> {
    // Same checks as a sign-in: the state was minted for this provider's callback, in this browser.
    if (!provider || provider.name !== providerName) return failed('state_provider_mismatch');
    if (!browserToken || !sameSecret(transaction.browserHash, sha256(browserToken))) return failed('state_browser_mismatch');
    let identity: ProviderClaims;
    try {
      const url = new URL(transaction.redirectUri);
      for (const [key, value] of Object.entries(parameters)) url.searchParams.set(key, value);
      identity = await this.oidc.complete(provider, url, {
        state: parameters.state,
        nonce: transaction.nonce,
        codeVerifier: this.box.open(transaction.codeVerifierEncrypted, CODE_VERIFIER_PURPOSE),
      });
    } catch (error) {
      if (error instanceof ProviderExchangeError) return failed(error.reason, error.detail);
      throw error;
    }
    return this.describe(provider, identity);
  }

  /** What a sign-in would have worked with; read-only (role mapping is pure, the two lookups only read). */
  private async describe(provider: SsoProvider, identity: ProviderClaims): Promise<StoredResult> {
    const config = (provider.roleMapping ?? {}) as RoleMappingConfig;
    const groups = groupsOf(identity.claims, provider.groupAttribute);
    const resolution = resolveRole({ groups, attributes: identity.claims, config, defaultRole: provider.defaultRole });
    const email = parseEmailAddress(identity.claims.email)?.address.toLowerCase() ?? null;
    const linked = await this.providers.findIdentity(provider.id, identity.uid);
    const sameEmailUserId = email ? await this.accounts.findUserIdByEmail(email) : null;
    const claimsText = JSON.stringify(identity.claims);
    return {
      ...empty(),
      completed_at: new Date().toISOString(),
      subject: identity.uid,
      issuer: identity.issuer,
      email,
      email_verified: typeof identity.claims.email_verified === 'boolean' ? identity.claims.email_verified : null,
      groups,
      claims: Buffer.byteLength(claimsText) <= MAX_CLAIMS_BYTES ? identity.claims : { _omitted: `claims larger than ${MAX_CLAIMS_BYTES} bytes` },
      role_mapping: {
        configured: Boolean(config.groupMappings?.length || config.conditions?.length),
        role: resolution.role,
        effective_roles: resolution.effectiveRoles,
        decided_by: resolution.decidedBy as unknown as Record<string, unknown>,
        matched_rules: resolution.matchedRules as unknown as Record<string, unknown>[],
        mapped_fields: resolution.mappedFields,
        explanation: resolution.explanation,
      },
      account: { identity_user_id: linked?.userId ?? null, email_user_id: sameEmailUserId },
    };
  }

  private record(userId: string | null, familyId: string | null, provider: SsoProvider, origin: RequestOrigin, details: Record<string, unknown>) {
    return this.audit.record('provider_test_login', {
      userId,
      familyId,
      providerId: provider.id,
      providerName: provider.name,
      origin,
      details: { actor_user_id: userId, strategy: provider.strategy, ...details },
    });
  }
}

function empty(): Omit<StoredResult, 'completed_at'> {
  return { error: null, error_detail: null, subject: null, issuer: null, email: null, email_verified: null, groups: [], claims: {}, role_mapping: null, account: null };
}

function failed(reason: string, detail: string | null = null): StoredResult {
  return { ...empty(), completed_at: new Date().toISOString(), error: reason, error_detail: detail };
}
