import { Inject, Injectable } from '@nestjs/common';
import { verify } from 'argon2';
import { createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import type { SessionPrincipal } from '../auth/principal';
import { accountKey, hashToken, sameSecret } from '../auth/session-token';
import { SessionsService, SignedIn } from '../auth/sessions.service';
import { ApiError } from '../common/api-error';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Transactions } from '../database/transactions';
import type { User } from '../users/user.entity';
import { OidcGateway, ProviderClaims, ProviderExchangeError } from './oidc-gateway';
import { describeProviderFailure } from './provider-failure';
import { ProviderSource } from './provider-source';
import { SamlGateway } from './saml-gateway';
import { SamlNameId, SamlRejection, SamlSessionRef } from './saml-profile';
import { SamlRepository } from './saml.repository';
import { SecretBox } from './secret-box';
import { SsoAccountsRepository } from './sso-accounts.repository';
import { isRemovedIdentity, REMOVED_IDENTITY, SsoAccountsService } from './sso-accounts.service';
import { callbackUrl } from './sso-urls';
import type { SsoLoginState, SsoProvider, SsoSession } from './sso.entities';
import { SsoRepository } from './sso.repository';

/** Time between the redirect to the provider and its callback, and between callback and the link password. */
export const TRANSACTION_TTL_MS = 10 * 60_000;
export const CODE_VERIFIER_PURPOSE = 'sso_login_states.code_verifier';
const ID_TOKEN_PURPOSE = 'sso_sessions.id_token';
const SAML_NAME_ID_PURPOSE = 'sso_sessions.saml_name_id';

/** Between the IdP's POST to the ACS and the browser's return with its cookie (an immediate redirect). */
const SAML_COMPLETION_TTL_MS = 5 * 60_000;
const SAML_LOGIN = 'saml_login';
const SAML_CONNECT = 'saml_connect';
const SAML_TEST = 'saml_test';
const PARKED_PURPOSE: Record<string, string> = { login: SAML_LOGIN, connect: SAML_CONNECT, test: SAML_TEST };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Where the browser goes after a callback. */
export type CallbackResult =
  | { kind: 'signed_in'; signedIn: SignedIn }
  | { kind: 'connected'; providerName: string }
  | { kind: 'link_required' }
  | { kind: 'failed'; error: string };

/** A super admin's SAML test login came back verified (SsoTestLoginService describes it; nobody signs in). */
export interface SamlTestLogin {
  kind: 'test_login';
  provider: SsoProvider;
  identity: ProviderClaims;
  userId: string;
}

/** Refusal reasons -> the error code the sign-in page shows; anything not listed is the generic `sso_failed`. */
const USER_FACING: Record<string, string> = {
  provider_disabled: 'sso_provider_unavailable',
  provider_unknown: 'sso_provider_unavailable',
  provider_unavailable: 'sso_provider_unavailable',
  jit_disabled: 'sso_account_creation_disabled',
  domain_not_allowed: 'sso_domain_not_allowed',
  email_unverified: 'sso_email_unverified',
  email_missing: 'sso_email_unverified',
  suspended: 'sso_account_suspended',
  already_connected: 'sso_already_connected',
  identity_linked_to_another_user: 'sso_identity_in_use',
  removed_identity: 'sso_identity_removed',
};

export interface PendingLinkInfo {
  email: string;
  providerName: string;
  providerLabel: string;
}

/**
 * The browser side of SSO sign-in: the redirect to the provider with state, nonce and PKCE kept server-side and bound
 * to the browser, the callback (every refusal audited as login_failed with a reason, no session), the password-
 * confirmed link of an existing account, and RP-initiated logout.
 */
@Injectable()
export class SsoLoginService {
  private readonly box: SecretBox;

  constructor(
    private readonly transactions: Transactions,
    private readonly users: SsoAccountsRepository,
    private readonly repository: SsoRepository,
    private readonly oidc: OidcGateway,
    private readonly saml: SamlGateway,
    private readonly samlRepository: SamlRepository,
    private readonly accounts: SsoAccountsService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
    private readonly source: ProviderSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.box = SecretBox.fromConfig(config);
  }

  /** A fresh browser-binding token when the browser has none. */
  browserToken(existing: string | undefined): string {
    return existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : randomBytes(32).toString('base64url');
  }

  /** The provider's authorization URL, or a failure code when the provider cannot be used now. */
  async start(
    providerName: string,
    browserToken: string,
    origin: string,
    requestOrigin: RequestOrigin,
    connectUser: SessionPrincipal | null,
  ): Promise<{ url: string } | { error: string }> {
    const { provider, known } = await this.providerNamed(providerName);
    if (!provider) return this.fail(known, known ? 'provider_disabled' : 'provider_unknown', requestOrigin);
    if (provider.strategy === 'saml') return this.startSaml(provider, browserToken, origin, requestOrigin, connectUser);
    const redirectUri = callbackUrl(origin, provider.name);
    let request;
    try {
      request = await this.oidc.authorizationRequest(provider, redirectUri);
    } catch (error) {
      return this.fail(provider, 'provider_unavailable', requestOrigin, { detail: describeProviderFailure(error) });
    }
    // Finished and abandoned sign-ins are kept a day (for inspection), then dropped; cheap with the expires_at index.
    await this.repository.purgeExpiredLoginStates(new Date());
    await this.repository.createLoginState({
      stateHash: sha256(request.state),
      browserHash: sha256(browserToken),
      providerId: provider.id,
      purpose: connectUser ? 'connect' : 'login',
      userId: connectUser?.userId ?? null,
      codeVerifierEncrypted: this.box.seal(request.codeVerifier, CODE_VERIFIER_PURPOSE),
      nonce: request.nonce,
      redirectUri,
      expiresAt: new Date(Date.now() + TRANSACTION_TTL_MS),
    });
    return { url: request.url.toString() };
  }

  async callback(
    providerName: string,
    parameters: Record<string, string>,
    browserToken: string | undefined,
    requestOrigin: RequestOrigin,
  ): Promise<CallbackResult> {
    const { provider, known } = await this.providerNamed(providerName);
    if (!provider) return this.fail(known, known ? 'provider_disabled' : 'provider_unknown', requestOrigin);
    // SAML answers at its own ACS (/auth/saml/<id>/callback), never here.
    if (provider.strategy === 'saml') return this.fail(provider, 'wrong_callback', requestOrigin);
    const state = parameters.state;
    if (!state) return this.fail(provider, 'state_missing', requestOrigin);
    // Consumed before anything else, so a replayed or concurrent callback with the same state finds nothing.
    const transaction = await this.repository.consumeLoginState(sha256(state), new Date());
    if (!transaction) return this.fail(provider, 'state_invalid', requestOrigin);
    if (!browserToken || !sameSecret(transaction.browserHash, sha256(browserToken))) {
      return this.fail(provider, 'state_browser_mismatch', requestOrigin);
    }
    // Mix-up defence: a state minted for one provider is never redeemed at another's callback.
    if (transaction.providerId !== provider.id) return this.fail(provider, 'state_provider_mismatch', requestOrigin);

    let identity: ProviderClaims;
    try {
      const url = new URL(transaction.redirectUri);
      for (const [key, value] of Object.entries(parameters)) url.searchParams.set(key, value);
      identity = await this.oidc.complete(provider, url, {
        state,
        nonce: transaction.nonce,
        codeVerifier: this.box.open(transaction.codeVerifierEncrypted, CODE_VERIFIER_PURPOSE),
      });
    } catch (error) {
      if (error instanceof ProviderExchangeError) return this.fail(provider, error.reason, requestOrigin, { detail: error.detail });
      throw error;
    }

    return this.finishSignIn(provider, identity, transaction.purpose === 'connect' ? transaction.userId : null, transaction.browserHash, requestOrigin);
  }

  /**
   * SAML's assertion consumer: the POSTed SAMLResponse is verified (SamlGateway). The IdP's POST is cross-site and
   * carries none of our cookies, so the verified identity is parked under a one-time `state` bound to the browser that
   * sent the AuthnRequest; the browser then brings it to samlComplete with its own cookie (no login CSRF).
   */
  async samlCallback(
    providerId: string,
    samlResponse: unknown,
    origin: string,
    requestOrigin: RequestOrigin,
  ): Promise<{ kind: 'saml_verified'; state: string } | { kind: 'failed'; error: string }> {
    // A test login works before the provider is enabled; everything else needs it enabled (checked once the
    // response says which it answers).
    const provider = await this.samlProvider(providerId, requestOrigin);
    if ('kind' in provider) return provider;
    let verified;
    try {
      verified = await this.saml.verify(provider, origin, samlResponse);
    } catch (error) {
      if (error instanceof SamlRejection) return this.fail(provider, error.reason, requestOrigin, error.detail ? { detail: error.detail } : {});
      throw error;
    }
    const { identity, request } = verified;
    if (request.purpose !== 'test' && !this.usable(provider)) return this.fail(provider, 'provider_disabled', requestOrigin);
    const state = randomBytes(32).toString('base64url');
    await this.repository.createLoginState({
      stateHash: sha256(state),
      browserHash: request.browserHash,
      providerId: provider.id,
      purpose: PARKED_PURPOSE[request.purpose] ?? SAML_LOGIN,
      userId: request.purpose === 'login' ? null : request.userId,
      codeVerifierEncrypted: '',
      nonce: '',
      redirectUri: '',
      pendingLink: { uid: identity.uid, issuer: identity.issuer, claims: identity.claims, saml_session: identity.samlSession },
      expiresAt: new Date(Date.now() + SAML_COMPLETION_TTL_MS),
    });
    return { kind: 'saml_verified', state };
  }

  /** The browser's return from the ACS: the parked SAML identity is signed in by the same code as an OIDC callback. */
  async samlComplete(
    providerId: string,
    state: unknown,
    browserToken: string | undefined,
    requestOrigin: RequestOrigin,
  ): Promise<CallbackResult | SamlTestLogin> {
    const provider = await this.samlProvider(providerId, requestOrigin);
    if ('kind' in provider) return provider;
    if (typeof state !== 'string' || !state) return this.fail(provider, 'state_missing', requestOrigin);
    const parked = await this.samlRepository.consumeCompletion(sha256(state), [SAML_LOGIN, SAML_CONNECT, SAML_TEST], new Date());
    if (!parked?.pendingLink) return this.fail(provider, 'state_invalid', requestOrigin);
    if (!browserToken || !sameSecret(parked.browserHash, sha256(browserToken))) return this.fail(provider, 'state_browser_mismatch', requestOrigin);
    if (parked.providerId !== provider.id) return this.fail(provider, 'state_provider_mismatch', requestOrigin);
    const identity: ProviderClaims = {
      uid: String(parked.pendingLink.uid),
      issuer: String(parked.pendingLink.issuer),
      claims: (parked.pendingLink.claims as Record<string, unknown>) ?? {},
      idToken: null,
      samlSession: (parked.pendingLink.saml_session as SamlSessionRef | undefined) ?? null,
    };
    if (parked.purpose === SAML_TEST) return { kind: 'test_login', provider, identity, userId: parked.userId! };
    if (!this.usable(provider)) return this.fail(provider, 'provider_disabled', requestOrigin);
    return this.finishSignIn(provider, identity, parked.purpose === SAML_CONNECT ? parked.userId : null, parked.browserHash, requestOrigin);
  }

  /** A verified provider identity -> session, connected account, pending link or refusal (OIDC, OAuth2 and SAML alike). */
  private async finishSignIn(
    provider: SsoProvider,
    identity: ProviderClaims,
    connectUserId: string | null,
    browserHash: string,
    requestOrigin: RequestOrigin,
  ): Promise<CallbackResult> {
    const outcome = await this.accounts.resolve(provider, identity, connectUserId, requestOrigin);
    switch (outcome.kind) {
      case 'refused':
        return this.fail(provider, outcome.reason, requestOrigin, {}, outcome.userId);
      case 'connected':
        return { kind: 'connected', providerName: provider.name };
      case 'link_required':
        await this.repository.createLoginState({
          stateHash: sha256(randomBytes(32).toString('base64url')),
          browserHash,
          providerId: provider.id,
          purpose: 'link',
          userId: outcome.user.id,
          codeVerifierEncrypted: '',
          nonce: '',
          redirectUri: '',
          pendingLink: {
            uid: identity.uid,
            issuer: identity.issuer,
            email: outcome.email,
            claims: identity.claims,
            id_token: identity.idToken ? this.box.seal(identity.idToken, ID_TOKEN_PURPOSE) : null,
            saml_session: identity.samlSession,
          },
          expiresAt: new Date(Date.now() + TRANSACTION_TTL_MS),
        });
        return { kind: 'link_required' };
      case 'signed_in':
        return { kind: 'signed_in', signedIn: await this.openSession(provider, outcome.user, identity, requestOrigin, outcome.created) };
    }
  }

  async pendingLink(browserToken: string | undefined): Promise<PendingLinkInfo> {
    const { pending, provider } = await this.findPendingLink(browserToken);
    return { email: String(pending.pendingLink!.email), providerName: provider.name, providerLabel: provider.label };
  }

  /** Links the pending identity to the account with its e-mail, when that account's own password is given. */
  async completeLink(browserToken: string | undefined, password: string, requestOrigin: RequestOrigin): Promise<SignedIn> {
    const { pending, provider } = await this.findPendingLink(browserToken);
    const user = await this.users.findUser(pending.userId!);
    if (!user) throw linkExpired();
    const account = accountKey(user.email, this.config.secretKeyBase);
    // The account's password, so the account's failure budget: the same as sign-in's.
    const attempter = { user, origin: requestOrigin, providerId: provider.id, providerName: provider.name };
    const refusal = await this.sessions.passwordAttempt(account, attempter, async () => {
      const matches = user.passwordHash ? await verify(user.passwordHash, password).catch(() => false) : false;
      const reason = !matches ? 'link_password_invalid' : user.status !== 'active' ? 'suspended' : null;
      if (reason) {
        await this.audit.record('login_failed', {
          userId: user.id,
          familyId: user.familyId,
          providerId: provider.id,
          providerName: provider.name,
          origin: requestOrigin,
          details: { reason, account },
        });
      }
      return reason;
    });
    if (refusal) throw new ApiError(401, 'invalid_credentials', 'The password is not correct for this account.');
    const link = pending.pendingLink!;
    const identity: ProviderClaims = {
      uid: String(link.uid),
      issuer: String(link.issuer),
      claims: (link.claims as Record<string, unknown>) ?? {},
      idToken: typeof link.id_token === 'string' ? this.box.open(link.id_token, ID_TOKEN_PURPOSE) : null,
      samlSession: (link.saml_session as SamlSessionRef | undefined) ?? null,
    };
    try {
      await this.transactions.run(async (tx) => {
        if (!(await this.repository.consumePendingLink(pending.id, tx))) throw linkExpired();
        if (await this.repository.findIdentity(provider.id, identity.uid, tx)) {
          throw new ApiError(409, 'identity_in_use', 'This provider account is already linked to a user.');
        }
        await this.accounts.link(provider, identity, user, requestOrigin, tx);
      });
    } catch (error) {
      // The identity's user was removed between the callback and this password.
      if (isRemovedIdentity(error)) await this.fail(provider, REMOVED_IDENTITY, requestOrigin);
      throw error;
    }
    const synced = await this.accounts.syncRole(provider, identity, user, requestOrigin);
    return this.openSession(provider, synced, identity, requestOrigin, false);
  }

  /**
   * Ends the session. When it came from a provider the browser can sign out at too (an OIDC end-session endpoint, or
   * the single logout URL of a SAML provider still enabled), returns that URL, audited as logout_idp; otherwise a
   * local logout.
   */
  async logout(principal: SessionPrincipal, origin: string, requestOrigin: RequestOrigin): Promise<string | null> {
    const ssoSession = await this.repository.findSsoSession(principal.sessionId);
    const url = ssoSession?.provider ? await this.providerLogoutUrl(ssoSession, ssoSession.provider, origin, principal.userId) : null;
    if (!url || !ssoSession?.provider) {
      await this.sessions.signOut(principal, requestOrigin);
      return null;
    }
    await this.repository.revokeSession(principal.sessionId);
    await this.audit.record('logout_idp', {
      userId: principal.userId,
      familyId: principal.familyId,
      providerId: ssoSession.provider.id,
      providerName: ssoSession.provider.name,
      origin: requestOrigin,
    });
    return url;
  }

  /** OIDC's end-session URL (back to /login), or the SAML IdP's single logout URL with a LogoutRequest; else null. */
  private async providerLogoutUrl(ssoSession: SsoSession, provider: SsoProvider, origin: string, userId: string): Promise<string | null> {
    try {
      if (provider.strategy !== 'saml') {
        const idToken = ssoSession.idTokenEncrypted ? this.box.open(ssoSession.idTokenEncrypted, ID_TOKEN_PURPOSE) : null;
        return idToken ? await this.oidc.endSessionUrl(provider, idToken, `${origin}/login`) : null;
      }
      if (!provider.sloUrl || !ssoSession.samlNameIdEncrypted || !this.usable(provider)) return null;
      const nameId = JSON.parse(this.box.open(ssoSession.samlNameIdEncrypted, SAML_NAME_ID_PURPOSE)) as SamlNameId;
      return await this.saml.logoutUrl(provider, origin, { nameId, sessionIndex: ssoSession.samlSessionIndex }, userId);
    } catch {
      // Signing out of Hearth never fails on the IdP's account: an ID token or NameID sealed under keys since rotated,
      // or a request that cannot be signed, leaves a local logout (as an unreachable OIDC provider does).
      return null;
    }
  }

  private async openSession(provider: SsoProvider, user: User, identity: ProviderClaims, origin: RequestOrigin, created: boolean): Promise<SignedIn> {
    const signedIn = await this.sessions.openSession(user, origin, { method: 'sso', strategy: provider.strategy, ...(created ? { jit: true } : {}) }, provider.name);
    const saml = identity.samlSession;
    await this.repository.recordSsoSession(hashToken(signedIn.token), provider.id, {
      idTokenEncrypted: identity.idToken ? this.box.seal(identity.idToken, ID_TOKEN_PURPOSE) : null,
      samlNameIdEncrypted: saml ? this.box.seal(JSON.stringify(saml.nameId), SAML_NAME_ID_PURPOSE) : null,
      samlSessionIndex: saml?.sessionIndex ?? null,
    });
    return signedIn;
  }

  private async findPendingLink(browserToken: string | undefined): Promise<{ pending: SsoLoginState; provider: SsoProvider }> {
    if (!browserToken) throw linkExpired();
    const pending = await this.repository.findPendingLink(sha256(browserToken), new Date());
    const provider = pending ? await this.usableProvider(pending.providerId) : null;
    if (!pending || !provider || !pending.pendingLink) throw linkExpired();
    return { pending, provider };
  }

  /** Read from the database on every request: a provider disabled or deleted a moment ago is refused at once. */
  private async usableProvider(id: string): Promise<SsoProvider | null> {
    const provider = await this.repository.findProvider(id);
    return provider && this.usable(provider) ? provider : null;
  }

  /** `known` is set for an existing provider, so the audit names only real providers (never a name from the URL). */
  private async providerNamed(name: string): Promise<{ provider: SsoProvider | null; known: SsoProvider | null }> {
    const known = await this.repository.findProviderByName(name.slice(0, 100));
    return { provider: known && this.usable(known) ? known : null, known };
  }

  private usable(provider: SsoProvider): boolean {
    return this.source.isActive(provider);
  }

  /**
   * A stored SAML provider by id, enabled or not (the callers check, since a test login works before enabling), or
   * the audited refusal (unknown ids are audited without a provider).
   */
  private async samlProvider(id: string, requestOrigin: RequestOrigin): Promise<SsoProvider | { kind: 'failed'; error: string }> {
    const found = UUID.test(id) ? await this.repository.findProvider(id) : null;
    if (found?.strategy === 'saml') return found;
    return this.fail(null, 'provider_unknown', requestOrigin);
  }

  private async startSaml(
    provider: SsoProvider,
    browserToken: string,
    origin: string,
    requestOrigin: RequestOrigin,
    connectUser: SessionPrincipal | null,
  ): Promise<{ url: string } | { error: string }> {
    try {
      // Parked SAML identities and pending links live in sso_login_states too; dropped a day after expiry as for OIDC.
      await this.repository.purgeExpiredLoginStates(new Date());
      const context = { browserHash: sha256(browserToken), purpose: connectUser ? 'connect' : 'login', userId: connectUser?.userId ?? null };
      return { url: await this.saml.authorizationUrl(provider, origin, context) };
    } catch (error) {
      return this.fail(provider, 'provider_unavailable', requestOrigin, { detail: describeProviderFailure(error) });
    }
  }

  private async fail(
    provider: SsoProvider | null,
    reason: string,
    origin: RequestOrigin,
    details: Record<string, unknown> = {},
    userId?: string | null,
  ): Promise<{ kind: 'failed'; error: string }> {
    await this.audit.record('login_failed', {
      userId: userId ?? null,
      providerId: provider?.id ?? null,
      providerName: provider?.name ?? null,
      origin,
      details: { reason, ...details },
    });
    // The IdP's fault, not the user's: operators look for it in the log (an untrusted certificate, a 5xx, no answer).
    if (reason === 'provider_unavailable') this.logger.warn({ provider: provider?.name, detail: details.detail }, 'Identity provider unavailable');
    return { kind: 'failed', error: USER_FACING[reason] ?? 'sso_failed' };
  }
}

const linkExpired = () => new ApiError(404, 'link_not_found', 'There is no pending single sign-on link for this browser, or it expired. Sign in with the provider again.');
