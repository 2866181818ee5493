import { Inject, Injectable } from '@nestjs/common';
import { generateServiceProviderMetadata, SAML, SamlConfig, SamlStatusError, ValidateInResponseTo } from '@node-saml/node-saml';
import type { Profile } from '@node-saml/node-saml';
import { parseDomFromString, xpath } from '@node-saml/node-saml/lib/xml';
import { APP_CONFIG, AppConfig } from '../config/config';
import type { ProviderClaims } from './oidc-gateway';
import { SP_PRIVATE_KEY_PURPOSE } from './provider-fields';
import {
  bearerConfirmationExpiry,
  destinationProblem,
  NAMEID_EMAIL,
  NAMEID_TRANSIENT,
  samlClaims,
  SamlRejection,
  screenSamlResponse,
  XmlJs,
} from './saml-profile';
import { IssuingContext, SamlRequestCache } from './saml-request-cache';
import { SamlRepository, SamlRequestContext } from './saml.repository';
import { SecretBox } from './secret-box';
import type { SsoProvider } from './sso.entities';

/** Between our AuthnRequest and the IdP's answer (the same window as an OIDC sign-in). */
export const SAML_REQUEST_TTL_MS = 10 * 60_000;
/** Tolerated difference between the IdP's clock and ours (reliability.md 1.4: 60-120 s, never disabled). */
export const SAML_CLOCK_SKEW_MS = 60_000;
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
/** Signature and digest algorithms accepted on IdP messages: SHA-256 or stronger, never SHA-1. */
const STRONG_ALGORITHMS = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmlenc#sha512',
]);

/** Our SP addresses for one provider (SPEC.md 4.3); the entity ID is an identifier, not a route. */
export function samlUrls(origin: string, providerId: string): { entityId: string; acs: string; logout: string } {
  const entityId = `${origin}/auth/saml/${providerId}`;
  return { entityId, acs: `${entityId}/callback`, logout: `${entityId}/logout` };
}

export interface VerifiedSamlResponse {
  identity: ProviderClaims;
  /** The sign-in that sent the request this response answers. */
  request: SamlRequestContext;
}

/**
 * The protocol side of SAML 2.0 through node-saml (signatures, audience, timestamps, InResponseTo with a database
 * cache) plus the checks node-saml leaves to the application: Destination, Recipient, IdP issuer, SHA-256, single use
 * of request IDs under concurrency, and replayed assertion IDs.
 */
@Injectable()
export class SamlGateway {
  private readonly box: SecretBox;

  constructor(
    private readonly repository: SamlRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.box = SecretBox.fromConfig(config);
  }

  /** The IdP's SSO URL with a (optionally signed) HTTP-Redirect AuthnRequest; its ID is remembered for the answer. */
  async authorizationUrl(provider: SsoProvider, origin: string, context: SamlRequestContext): Promise<string> {
    await this.repository.purgeExpired(new Date());
    const issuing: IssuingContext = { ...context, ttlMs: SAML_REQUEST_TTL_MS };
    const saml = this.client(provider, origin, new SamlRequestCache(this.repository, provider.id, issuing));
    return saml.getAuthorizeUrlAsync('', undefined, {});
  }

  /** SP metadata; the signing certificate is included when request signing is on (never any key material). */
  metadata(provider: SsoProvider, origin: string): string {
    const urls = samlUrls(origin, provider.id);
    const signing = this.signing(provider);
    return generateServiceProviderMetadata({
      issuer: urls.entityId,
      callbackUrl: urls.acs,
      logoutCallbackUrl: urls.logout,
      identifierFormat: NAMEID_EMAIL,
      wantAssertionsSigned: true,
      ...(signing ? { privateKey: signing.privateKey, publicCerts: signing.publicCert } : {}),
    });
  }

  /** Checks a POSTed SAMLResponse; throws SamlRejection with an audit reason on anything short of a clean sign-in. */
  async verify(provider: SsoProvider, origin: string, encodedResponse: unknown): Promise<VerifiedSamlResponse> {
    const urls = samlUrls(origin, provider.id);
    const xml = screenSamlResponse(encodedResponse);
    const dom = await parseDomFromString(xml).catch((error: unknown) => {
      throw new SamlRejection('response_malformed', describe(error));
    });
    const root = dom.documentElement;
    if (!root || root.localName !== 'Response' || root.namespaceURI !== PROTOCOL_NS) throw new SamlRejection('response_malformed', 'not a SAML Response');
    const inResponseTo = root.getAttribute('InResponseTo') || null;
    const cache = new SamlRequestCache(this.repository, provider.id);
    try {
      refuseWeakAlgorithms(dom);

      const profile = await this.validateWithLibrary(provider, origin, cache, xml);
      // node-saml reads the Status only when there is no assertion: a signed assertion inside a failure Response
      // (Responder, AuthnFailed, ...) is still a failed sign-in (SAML Core 3.2.2.2).
      const status = xpath
        .selectAttributes(dom, "/*[local-name()='Response']/*[local-name()='Status']/*[local-name()='StatusCode']/@Value")
        .map((attribute) => attribute.value);
      if (status.length !== 1 || status[0] !== STATUS_SUCCESS) throw new SamlRejection('idp_status_error', `top-level status ${status.join(', ') || 'missing'}`);
      const assertion = (profile.getAssertion?.() as { Assertion?: XmlJs } | undefined)?.Assertion;
      if (!assertion) throw new SamlRejection('assertion_missing');
      const destination = destinationProblem(root.hasAttribute('Destination') ? root.getAttribute('Destination') : null, urls.acs);
      if (destination) throw new SamlRejection(destination);
      const confirmationExpiry = bearerConfirmationExpiry(assertion, urls.acs);
      if (!profile.issuer) throw new SamlRejection('issuer_missing');
      if (provider.idpEntityId && profile.issuer !== provider.idpEntityId) throw new SamlRejection('issuer_mismatch', 'assertion issuer is not the configured IdP entity ID');
      const nameId = profile.nameID;
      if (typeof nameId !== 'string' || nameId === '' || nameId.length > 500) throw new SamlRejection('nameid_missing');
      // A transient NameID changes on every sign-in, so it cannot identify an account.
      if (profile.nameIDFormat === NAMEID_TRANSIENT) throw new SamlRejection('nameid_transient');

      const request = await cache.claim(inResponseTo!);
      if (!request) throw new SamlRejection('in_response_to_replayed');
      const assertionId = assertion.$?.ID;
      if (!assertionId || assertionId.length > 200) throw new SamlRejection('assertion_id_missing');
      const rememberUntil = new Date(confirmationExpiry.getTime() + SAML_CLOCK_SKEW_MS);
      if (!(await this.repository.recordAssertion(provider.id, assertionId, rememberUntil))) throw new SamlRejection('assertion_replayed');

      const claims = samlClaims({ nameId, nameIdFormat: profile.nameIDFormat ?? null, attributes: (profile.attributes as Record<string, unknown>) ?? {} }, provider.groupAttribute);
      return { identity: { uid: nameId, issuer: profile.issuer, claims, idToken: null }, request };
    } finally {
      // Whatever happened, a request ID answers at most one response.
      if (inResponseTo) await cache.removeAsync(inResponseTo);
    }
  }

  /**
   * An IdP-initiated LogoutRequest (HTTP-POST binding, our metadata's SingleLogoutService): signature required, issuer
   * and timestamps checked by node-saml. Returns the NameID to sign out and the LogoutResponse URL to send back.
   */
  async verifyLogoutRequest(provider: SsoProvider, origin: string, encodedRequest: unknown): Promise<{ nameId: string; responseUrl: string }> {
    const xml = screenSamlResponse(encodedRequest);
    const dom = await parseDomFromString(xml).catch((error: unknown) => {
      throw new SamlRejection('response_malformed', describe(error));
    });
    refuseWeakAlgorithms(dom);
    const cache = new SamlRequestCache(this.repository, provider.id);
    const saml = this.client(provider, origin, cache);
    let profile: Profile;
    try {
      ({ profile } = await saml.validatePostRequestAsync({ SAMLRequest: Buffer.from(xml, 'utf8').toString('base64') }));
    } catch (error) {
      throw new SamlRejection(libraryReason(error), describe(error));
    }
    if (provider.idpEntityId && profile.issuer !== provider.idpEntityId) throw new SamlRejection('issuer_mismatch');
    const root = dom.documentElement;
    // The IdP signs a request for each service the identity signed in to: one meant for another is not ours to act on.
    const destination = destinationProblem(root?.hasAttribute('Destination') ? root.getAttribute('Destination') : null, samlUrls(origin, provider.id).logout);
    if (destination) throw new SamlRejection(destination);
    // node-saml checks NotOnOrAfter only when present and remembers nothing: a captured request would end the
    // identity's later sessions whenever replayed. It must be recent, and each ID is accepted once.
    const issuedAt = Date.parse(root?.getAttribute('IssueInstant') ?? '');
    const now = Date.now();
    if (!Number.isFinite(issuedAt) || issuedAt > now + SAML_CLOCK_SKEW_MS || issuedAt < now - SAML_REQUEST_TTL_MS - SAML_CLOCK_SKEW_MS) {
      throw new SamlRejection('logout_request_stale');
    }
    const notOnOrAfter = Date.parse(root?.getAttribute('NotOnOrAfter') ?? '');
    const rememberUntil = new Date(Math.max(issuedAt + SAML_REQUEST_TTL_MS, Number.isFinite(notOnOrAfter) ? notOnOrAfter : 0) + SAML_CLOCK_SKEW_MS);
    const requestId = typeof profile.ID === 'string' ? profile.ID : '';
    if (!requestId || requestId.length > 190) throw new SamlRejection('logout_request_id_missing');
    if (!(await this.repository.recordAssertion(provider.id, `logout:${requestId}`, rememberUntil))) throw new SamlRejection('logout_request_replayed');
    return { nameId: profile.nameID, responseUrl: await saml.getLogoutResponseUrlAsync(profile, '', {}, true) };
  }

  private async validateWithLibrary(provider: SsoProvider, origin: string, cache: SamlRequestCache, xml: string): Promise<Profile> {
    let result: { profile: Profile | null; loggedOut: boolean };
    try {
      result = await this.client(provider, origin, cache).validatePostResponseAsync({ SAMLResponse: Buffer.from(xml, 'utf8').toString('base64') });
    } catch (error) {
      throw new SamlRejection(libraryReason(error), describe(error));
    }
    if (!result.profile || result.loggedOut) throw new SamlRejection('assertion_missing');
    return result.profile;
  }

  private client(provider: SsoProvider, origin: string, cache: SamlRequestCache): SAML {
    const urls = samlUrls(origin, provider.id);
    const signing = this.signing(provider);
    const options: SamlConfig = {
      issuer: urls.entityId,
      audience: urls.entityId,
      callbackUrl: urls.acs,
      logoutCallbackUrl: urls.logout,
      entryPoint: provider.ssoUrl ?? undefined,
      idpCert: provider.idpCertificate ?? '',
      idpIssuer: provider.idpEntityId ?? undefined,
      identifierFormat: NAMEID_EMAIL,
      // The assertion must always carry a valid signature; a signature over the whole response is then optional
      // (many IdPs sign only the assertion by default).
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      signatureAlgorithm: 'sha256',
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
      cacheProvider: cache,
      // Any authentication method the IdP chooses (a fixed PasswordProtectedTransport breaks MFA and passkeys).
      disableRequestedAuthnContext: true,
      ...(signing ?? {}),
    };
    return new SAML(options);
  }

  private signing(provider: SsoProvider): { privateKey: string; publicCert: string } | null {
    if (!provider.signRequests || !provider.spPrivateKeyEncrypted || !provider.spCertificate) return null;
    return { privateKey: this.box.open(provider.spPrivateKeyEncrypted, SP_PRIVATE_KEY_PURPOSE), publicCert: provider.spCertificate };
  }
}

/** Every signature and digest algorithm in an IdP message must be SHA-256 or stronger. */
function refuseWeakAlgorithms(dom: Awaited<ReturnType<typeof parseDomFromString>>): void {
  const weak = xpath
    .selectAttributes(dom, "//*[local-name()='SignatureMethod' or local-name()='DigestMethod']/@Algorithm")
    .map((attribute) => attribute.value)
    .filter((algorithm) => !STRONG_ALGORITHMS.has(algorithm));
  if (weak.length) throw new SamlRejection('weak_signature_algorithm', weak[0]);
}

/** node-saml's error messages -> our audit reasons (the message itself goes to the audit detail, never to the user). */
function libraryReason(error: unknown): string {
  if (error instanceof SamlStatusError) return 'idp_status_error';
  const message = error instanceof Error ? error.message : '';
  if (/InResponseTo/i.test(message)) return 'in_response_to_invalid';
  if (/not yet valid/i.test(message)) return 'assertion_not_yet_valid';
  if (/expired|subject confirmation/i.test(message)) return 'assertion_expired';
  if (/audience/i.test(message)) return 'audience_mismatch';
  if (/issuer/i.test(message)) return 'issuer_mismatch';
  if (/signature|signed|referenced|multiple assertions|ID cannot refer/i.test(message)) return 'signature_invalid';
  if (/Missing SAML assertion/i.test(message)) return 'assertion_missing';
  return 'response_invalid';
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : 'unknown error';
}
