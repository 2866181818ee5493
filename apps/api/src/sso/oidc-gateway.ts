import { Inject, Injectable } from '@nestjs/common';
import type { Configuration, IDToken } from 'openid-client';
import { APP_CONFIG, AppConfig } from '../config/config';
import { openIdClient } from './openid-client';
import { describeProviderFailure, providerUnavailable } from './provider-failure';
import type { SamlSessionRef } from './saml-profile';
import { SecretBox } from './secret-box';
import type { SsoProvider } from './sso.entities';

/** Outbound calls to a provider give up after this many seconds (hostile-input case F75). */
const TIMEOUT_SECONDS = 10;
export const CLIENT_SECRET_PURPOSE = 'sso_providers.client_secret';

export interface AuthorizationRequest {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface ProviderClaims {
  /** The provider's subject: OIDC `sub`, or the OAuth2 user-info `sub`/`id` as text. */
  uid: string;
  /** `iss` of the verified ID token; for OAuth2 the configured issuer or authorization origin. */
  issuer: string;
  claims: Record<string, unknown>;
  idToken: string | null;
  /** SAML only: the NameID and SessionIndex a LogoutRequest for this sign-in names. */
  samlSession: SamlSessionRef | null;
}

/** Why a provider exchange failed, as audited; library messages are never shown to the user. */
export class ProviderExchangeError extends Error {
  constructor(
    readonly reason: string,
    readonly detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

/**
 * The protocol side of OIDC and OAuth2 through openid-client v6: discovery (issuer checked by the library), PKCE S256,
 * state, nonce, ID-token signature (JWKS), issuer, audience, expiry and nonce checks, user info, end-session URLs.
 */
@Injectable()
export class OidcGateway {
  private readonly box: SecretBox;
  /** Keyed by provider id and update time, so an edited provider is re-discovered on the next request. */
  private readonly configurations = new Map<string, Promise<Configuration>>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.box = SecretBox.fromConfig(config);
  }

  /** Fetches and checks the discovery document of an issuer (used when a provider is saved). */
  async discover(issuer: string, clientId: string): Promise<{ issuer: string; endSessionEndpoint: string | null }> {
    const client = await openIdClient();
    const configuration = await client.discovery(new URL(issuer), clientId, undefined, undefined, {
      execute: this.config.sso.allowInsecureHttp ? [client.allowInsecureRequests] : [],
      timeout: TIMEOUT_SECONDS,
    });
    const metadata = configuration.serverMetadata();
    return { issuer: metadata.issuer, endSessionEndpoint: metadata.end_session_endpoint ?? null };
  }

  async authorizationRequest(provider: SsoProvider, redirectUri: string): Promise<AuthorizationRequest> {
    const client = await openIdClient();
    const configuration = await this.configuration(provider);
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const parameters: Record<string, string> = {
      redirect_uri: redirectUri,
      scope: provider.scopes,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
    };
    if (provider.strategy === 'openid_connect') parameters.nonce = nonce;
    return { url: client.buildAuthorizationUrl(configuration, parameters), state, nonce, codeVerifier };
  }

  /** Exchanges the code and returns verified claims; throws ProviderExchangeError on any failed check. */
  async complete(
    provider: SsoProvider,
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<ProviderClaims> {
    const client = await openIdClient();
    const configuration = await this.configuration(provider).catch((error: unknown) => {
      throw new ProviderExchangeError('provider_unavailable', describe(error));
    });
    const oidc = provider.strategy === 'openid_connect';
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: oidc ? checks.nonce : undefined,
        idTokenExpected: oidc,
      });
    } catch (error) {
      throw new ProviderExchangeError(exchangeFailure(client, error), describe(error));
    }
    const idTokenClaims: IDToken | undefined = oidc ? tokens.claims() : undefined;
    if (idTokenClaims) checkIdTokenFreshAndOurs(idTokenClaims, provider.clientId!);
    let userinfo: Record<string, unknown> = {};
    const userinfoEndpoint = configuration.serverMetadata().userinfo_endpoint;
    if (userinfoEndpoint) {
      try {
        userinfo = idTokenClaims
          ? await client.fetchUserInfo(configuration, tokens.access_token, idTokenClaims.sub)
          : await plainUserInfo(client, configuration, tokens.access_token, userinfoEndpoint);
      } catch (error) {
        // User info that names another subject is a forged or mixed-up answer; one that fails leaves the groups
        // (role mapping) unknown. Either way no sign-in on half the facts.
        const code = (error as { code?: string }).code;
        throw new ProviderExchangeError(code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' ? 'invalid_userinfo' : 'provider_unavailable', describe(error));
      }
    }
    // The ID token's claims win; user info fills in what it lacks (often groups).
    const claims: Record<string, unknown> = { ...userinfo, ...(idTokenClaims ?? {}) };
    const rawUid = idTokenClaims?.sub ?? userinfo.sub ?? userinfo.id;
    const uid = typeof rawUid === 'number' && Number.isSafeInteger(rawUid) ? String(rawUid) : rawUid;
    if (typeof uid !== 'string' || uid === '' || uid.length > 500) throw new ProviderExchangeError('invalid_id_token', 'no usable subject');
    const issuer = idTokenClaims?.iss ?? configuration.serverMetadata().issuer;
    return { uid, issuer, claims, idToken: tokens.id_token ?? null, samlSession: null };
  }

  /** The provider's RP-initiated logout URL, or null when it has none (or cannot be reached now). */
  async endSessionUrl(provider: SsoProvider, idToken: string, postLogoutRedirectUri: string): Promise<string | null> {
    if (provider.strategy !== 'openid_connect') return null;
    try {
      const client = await openIdClient();
      const configuration = await this.configuration(provider);
      if (!configuration.serverMetadata().end_session_endpoint) return null;
      return client
        .buildEndSessionUrl(configuration, { id_token_hint: idToken, post_logout_redirect_uri: postLogoutRedirectUri })
        .toString();
    } catch {
      return null;
    }
  }

  private configuration(provider: SsoProvider): Promise<Configuration> {
    const key = `${provider.id}:${provider.updatedAt.getTime()}`;
    let configuration = this.configurations.get(key);
    if (!configuration) {
      for (const existing of this.configurations.keys()) if (existing.startsWith(`${provider.id}:`)) this.configurations.delete(existing);
      configuration = this.build(provider);
      this.configurations.set(key, configuration);
      configuration.catch(() => this.configurations.delete(key));
    }
    return configuration;
  }

  private async build(provider: SsoProvider): Promise<Configuration> {
    const client = await openIdClient();
    const secret = provider.clientSecretEncrypted ? this.box.open(provider.clientSecretEncrypted, CLIENT_SECRET_PURPOSE) : undefined;
    const auth = provider.tokenAuthMethod === 'client_secret_basic' ? client.ClientSecretBasic(secret) : client.ClientSecretPost(secret);
    const execute = this.config.sso.allowInsecureHttp ? [client.allowInsecureRequests] : [];
    let configuration: Configuration;
    if (provider.strategy === 'openid_connect') {
      configuration = await client.discovery(new URL(provider.issuer!), provider.clientId!, undefined, auth, { execute, timeout: TIMEOUT_SECONDS });
      // ID tokens from the token endpoint are verified against the provider's JWKS too, not only trusted for TLS.
      client.enableNonRepudiationChecks(configuration);
    } else {
      configuration = new client.Configuration(
        {
          issuer: provider.issuer ?? new URL(provider.authorizationUrl!).origin,
          authorization_endpoint: provider.authorizationUrl!,
          token_endpoint: provider.tokenUrl!,
          userinfo_endpoint: provider.userinfoUrl!,
        },
        provider.clientId!,
        undefined,
        auth,
      );
      for (const step of execute) step(configuration);
    }
    configuration.timeout = TIMEOUT_SECONDS;
    return configuration;
  }
}

/** ID tokens come fresh from the token endpoint; an old one is a replay, not a sign-in (hostile-input cases F61). */
const MAX_ID_TOKEN_AGE_SECONDS = 600;

/** Checks openid-client leaves to the client: no audience besides ours (OIDC Core 3.1.3.7 item 3), a recent iat. */
function checkIdTokenFreshAndOurs(claims: IDToken, clientId: string): void {
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (audiences.some((aud) => aud !== clientId)) throw new ProviderExchangeError('invalid_id_token', 'the ID token names audiences besides this client');
  if (Date.now() / 1000 - claims.iat > MAX_ID_TOKEN_AGE_SECONDS) throw new ProviderExchangeError('invalid_id_token', 'the ID token was issued too long ago');
}

/**
 * Generic OAuth2 user info: any JSON object (GitHub-style numeric `id`, no `sub`), which openid-client's OIDC
 * user-info parser would refuse for lacking `sub`.
 */
async function plainUserInfo(
  client: Awaited<ReturnType<typeof openIdClient>>,
  configuration: Configuration,
  accessToken: string,
  endpoint: string,
): Promise<Record<string, unknown>> {
  const response = await client.fetchProtectedResource(configuration, accessToken, new URL(endpoint), 'GET', undefined, new Headers({ accept: 'application/json' }));
  if (!response.ok) throw new Error(`user info answered HTTP ${response.status}`);
  const body: unknown = await response.json().catch(() => null);
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('user info is not a JSON object');
  return body as Record<string, unknown>;
}

/**
 * Why the code exchange failed, as audited: the provider refused the authorization or the code (provider_error,
 * token_exchange_failed), could not be reached or answered a server error or no JSON (provider_unavailable: the IdP's
 * fault, worth trying again later), or its answer failed our checks of the ID token (invalid_id_token).
 */
function exchangeFailure(client: Awaited<ReturnType<typeof openIdClient>>, error: unknown): string {
  if (error instanceof client.AuthorizationResponseError || (error as { code?: string }).code === 'OAUTH_AUTHORIZATION_RESPONSE_ERROR') return 'provider_error';
  if (providerUnavailable(error)) return 'provider_unavailable';
  if (error instanceof client.ResponseBodyError || error instanceof client.WWWAuthenticateChallengeError) return 'token_exchange_failed';
  return 'invalid_id_token';
}

/** A short, secret-free description for the audit record (error codes and names only, or the connection problem). */
const describe = describeProviderFailure;
