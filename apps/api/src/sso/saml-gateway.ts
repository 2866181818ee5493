import { Inject, Injectable } from '@nestjs/common';
import { sign, verify as verifySignature } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
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
  parseCertificates,
  RedirectMessage,
  redirectMessage,
  samlClaims,
  SamlRejection,
  SamlSessionRef,
  screenRedirectResponse,
  screenSamlResponse,
  XmlJs,
} from './saml-profile';
import { IssuingContext, SamlRequestCache } from './saml-request-cache';
import { SamlRepository, SamlRequestContext } from './saml.repository';
import { SecretBox } from './secret-box';
import type { SsoProvider } from './sso.entities';

/** Between our AuthnRequest and the IdP's answer (the same window as an OIDC sign-in). */
export const SAML_REQUEST_TTL_MS = 10 * 60_000;
/** Tolerated difference between the IdP's clock and ours: room for ordinary drift, never disabled. */
export const SAML_CLOCK_SKEW_MS = 60_000;
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const BINDING_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
/** Signature and digest algorithms accepted on IdP messages: SHA-256 or stronger, never SHA-1. */
const STRONG_ALGORITHMS = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmlenc#sha512',
]);

/**
 * The longest RelayState carried back. SAML Bindings 3.4.3 caps it at 80 bytes; some IdPs send more, so more is taken,
 * but not an unbounded value echoed into a Location header.
 */
const MAX_RELAY_STATE = 1024;

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

/** Query-signature algorithms accepted on HTTP-Redirect messages (the same strength), as node:crypto names the hash. */
const REDIRECT_SIGNATURE_HASHES: Record<string, string> = {
  [RSA_SHA256]: 'sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512': 'sha512',
};

/** Our SP addresses for one provider (docs/sso.md#saml-20); the entity ID is an identifier, not a route. */
export function samlUrls(origin: string, providerId: string): { entityId: string; acs: string; logout: string } {
  const entityId = `${origin}/auth/saml/${providerId}`;
  return { entityId, acs: `${entityId}/callback`, logout: `${entityId}/logout` };
}

export interface VerifiedSamlResponse {
  identity: ProviderClaims;
  /** The sign-in that sent the request this response answers (always bound to its browser). */
  request: SamlRequestContext & { browserHash: string };
}

/** The IdP's LogoutRequest as it arrived: POSTed form fields, or the raw query of a redirect. */
export type LogoutRequestMessage = { binding: 'post'; SAMLRequest: unknown; RelayState: unknown } | { binding: 'redirect'; query: string };

/** The IdP's LogoutResponse as it arrived: a POSTed form field, or the raw query of a redirect. */
export type LogoutResponseMessage = { binding: 'post'; SAMLResponse: unknown } | { binding: 'redirect'; query: string };

export interface VerifiedLogoutResponse {
  /** Who signed out with the LogoutRequest it answers. */
  userId: string | null;
  /** The IdP's top-level status when it is not Success (the IdP session may still be open); null on success. */
  failure: string | null;
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
    const saml = this.client(provider, origin, new SamlRequestCache(this.repository, provider.id, 'sign_in', issuing));
    return saml.getAuthorizeUrlAsync('', undefined, {});
  }

  /**
   * The IdP's single logout URL with a LogoutRequest (HTTP-Redirect, signed like AuthnRequests) for the sign-in's
   * NameID and SessionIndex; its ID is remembered, with the user, for the IdP's LogoutResponse.
   */
  async logoutUrl(provider: SsoProvider, origin: string, session: SamlSessionRef, userId: string): Promise<string> {
    await this.repository.purgeExpired(new Date());
    const issuing: IssuingContext = { browserHash: null, purpose: 'logout', userId, ttlMs: SAML_REQUEST_TTL_MS };
    const saml = this.client(provider, origin, new SamlRequestCache(this.repository, provider.id, 'logout', issuing));
    const { value, format, nameQualifier, spNameQualifier } = session.nameId;
    // The NameID exactly as the assertion gave it: node-saml writes a Format, qualifier or SessionIndex only when given.
    const subject = {
      issuer: provider.idpEntityId ?? '',
      nameID: value,
      ...(format ? { nameIDFormat: format } : {}),
      ...(nameQualifier ? { nameQualifier } : {}),
      ...(spNameQualifier ? { spNameQualifier } : {}),
      ...(session.sessionIndex ? { sessionIndex: session.sessionIndex } : {}),
    } as Profile;
    return saml.getLogoutUrlAsync(subject, '', {});
  }

  /**
   * SP metadata; the signing certificate is included when request signing is on (never any key material). The
   * SingleLogoutService takes both bindings; node-saml writes only the HTTP-POST one, so the HTTP-Redirect one is
   * added beside it (the document is not signed).
   */
  metadata(provider: SsoProvider, origin: string): string {
    const urls = samlUrls(origin, provider.id);
    const signing = this.signing(provider);
    const xml = generateServiceProviderMetadata({
      issuer: urls.entityId,
      callbackUrl: urls.acs,
      logoutCallbackUrl: urls.logout,
      identifierFormat: NAMEID_EMAIL,
      wantAssertionsSigned: true,
      ...(signing ? { privateKey: signing.privateKey, publicCerts: signing.publicCert } : {}),
    });
    return xml.replace(/^([ \t]*)(<SingleLogoutService Binding=")urn:oasis:names:tc:SAML:2\.0:bindings:HTTP-POST(" [^>]*\/>)$/m, (post, indent, start, end) => `${post}\n${indent}${start}${BINDING_REDIRECT}${end}`);
  }

  /** Checks a POSTed SAMLResponse; throws SamlRejection with an audit reason on anything short of a clean sign-in. */
  async verify(provider: SsoProvider, origin: string, encodedResponse: unknown): Promise<VerifiedSamlResponse> {
    const urls = samlUrls(origin, provider.id);
    const xml = screenSamlResponse(encodedResponse);
    const { dom, root } = await parseProtocolMessage(xml, 'Response');
    const inResponseTo = root.getAttribute('InResponseTo') || null;
    const cache = new SamlRequestCache(this.repository, provider.id, 'sign_in');
    try {
      refuseWeakAlgorithms(dom);

      const profile = await this.validateWithLibrary(provider, origin, cache, xml);
      // node-saml reads the Status only when there is no assertion: a signed assertion inside a failure Response
      // (Responder, AuthnFailed, ...) is still a failed sign-in (SAML Core 3.2.2.2).
      const status = statusProblem(dom, 'Response');
      if (status) throw new SamlRejection('idp_status_error', status);
      const assertion = (profile.getAssertion?.() as { Assertion?: XmlJs } | undefined)?.Assertion;
      if (!assertion) throw new SamlRejection('assertion_missing');
      refuseOtherDestination(root, urls.acs);
      const confirmationExpiry = bearerConfirmationExpiry(assertion, urls.acs);
      if (!profile.issuer) throw new SamlRejection('issuer_missing');
      if (provider.idpEntityId && profile.issuer !== provider.idpEntityId) throw new SamlRejection('issuer_mismatch', 'assertion issuer is not the configured IdP entity ID');
      const nameId = profile.nameID;
      if (typeof nameId !== 'string' || nameId === '' || nameId.length > 500) throw new SamlRejection('nameid_missing');
      // A transient NameID changes on every sign-in, so it cannot identify an account.
      if (profile.nameIDFormat === NAMEID_TRANSIENT) throw new SamlRejection('nameid_transient');

      const request = await cache.claim(inResponseTo!);
      // A sign-in cache answers only AuthnRequests, and each of those is bound to the browser that sent it.
      if (!request?.browserHash) throw new SamlRejection('in_response_to_replayed');
      const assertionId = assertion.$?.ID;
      if (!assertionId || assertionId.length > 200) throw new SamlRejection('assertion_id_missing');
      const rememberUntil = new Date(confirmationExpiry.getTime() + SAML_CLOCK_SKEW_MS);
      if (!(await this.repository.recordAssertion(provider.id, assertionId, rememberUntil))) throw new SamlRejection('assertion_replayed');

      const claims = samlClaims({ nameId, nameIdFormat: profile.nameIDFormat ?? null, attributes: (profile.attributes as Record<string, unknown>) ?? {} }, provider.groupAttribute);
      const samlSession = {
        nameId: { value: nameId, format: profile.nameIDFormat ?? null, nameQualifier: profile.nameQualifier ?? null, spNameQualifier: profile.spNameQualifier ?? null },
        sessionIndex: profile.sessionIndex ?? null,
      };
      return { identity: { uid: nameId, issuer: profile.issuer, claims, idToken: null, samlSession }, request: { ...request, browserHash: request.browserHash } };
    } finally {
      // Whatever happened, a request ID answers at most one response.
      if (inResponseTo) await cache.removeAsync(inResponseTo);
    }
  }

  /**
   * An IdP-initiated LogoutRequest, by HTTP-POST (XML signature) or HTTP-Redirect (query signature, our own strict
   * check first): signed by the IdP's certificate with SHA-256 or stronger, from its entity ID, to our logout address,
   * recent, and seen once. Returns the NameID to sign out and the URL of our LogoutResponse (HTTP-Redirect, signed when
   * request signing is on), carrying the RelayState back as SAML Bindings 3.4.3 asks.
   */
  async verifyLogoutRequest(provider: SsoProvider, origin: string, message: LogoutRequestMessage): Promise<{ nameId: string; responseUrl: string }> {
    const { redirect, xml } = receivedMessage(message, 'SAMLRequest');
    let relayState = redirect?.RelayState ?? null;
    if (message.binding === 'post') {
      if (message.RelayState !== undefined && typeof message.RelayState !== 'string') throw new SamlRejection('response_malformed', 'RelayState not a string');
      relayState = message.RelayState ?? null;
    }
    if (relayState && relayState.length > MAX_RELAY_STATE) throw new SamlRejection('response_malformed', 'RelayState too long');
    const { dom, root } = await parseProtocolMessage(xml, 'LogoutRequest');
    refuseWeakAlgorithms(dom);
    if (redirect) this.checkRedirectSignature(provider, redirect);
    const saml = this.client(provider, origin, new SamlRequestCache(this.repository, provider.id, 'logout'));
    let profile: Profile | null;
    try {
      // node-saml reads the issuer, NotBefore/NotOnOrAfter and NameID; its own query-signature check is lax, but only
      // runs here on octets that passed ours.
      ({ profile } = redirect
        ? await saml.validateRedirectAsync(
            { SAMLRequest: redirect.message, ...(redirect.RelayState === null ? {} : { RelayState: redirect.RelayState }), SigAlg: redirect.SigAlg!, Signature: redirect.Signature! },
            redirect.signedOctets,
          )
        : await saml.validatePostRequestAsync({ SAMLRequest: Buffer.from(xml, 'utf8').toString('base64') }));
    } catch (error) {
      throw new SamlRejection(libraryReason(error), describe(error));
    }
    if (!profile) throw new SamlRejection('response_malformed', 'not a LogoutRequest');
    if (provider.idpEntityId && profile.issuer !== provider.idpEntityId) throw new SamlRejection('issuer_mismatch');
    // The IdP signs a request for each service the identity signed in to: one meant for another is not ours to act on.
    refuseOtherDestination(root, samlUrls(origin, provider.id).logout);
    // node-saml checks NotOnOrAfter only when present and remembers nothing: a captured request would end the
    // identity's later sessions whenever replayed. It must be recent, and each ID is accepted once.
    const issuedAt = Date.parse(root.getAttribute('IssueInstant') ?? '');
    const now = Date.now();
    if (!Number.isFinite(issuedAt) || issuedAt > now + SAML_CLOCK_SKEW_MS || issuedAt < now - SAML_REQUEST_TTL_MS - SAML_CLOCK_SKEW_MS) {
      throw new SamlRejection('logout_request_stale');
    }
    const notOnOrAfter = Date.parse(root.getAttribute('NotOnOrAfter') ?? '');
    const rememberUntil = new Date(Math.max(issuedAt + SAML_REQUEST_TTL_MS, Number.isFinite(notOnOrAfter) ? notOnOrAfter : 0) + SAML_CLOCK_SKEW_MS);
    const requestId = typeof profile.ID === 'string' ? profile.ID : '';
    if (!requestId || requestId.length > 190) throw new SamlRejection('logout_request_id_missing');
    if (!(await this.repository.recordAssertion(provider.id, `logout:${requestId}`, rememberUntil))) throw new SamlRejection('logout_request_replayed');
    return { nameId: profile.nameID, responseUrl: this.logoutResponseUrl(provider, saml, profile, relayState) };
  }

  /**
   * The IdP's LogoutResponse to one of our LogoutRequests, by HTTP-Redirect (query signature) or HTTP-POST (XML
   * signature): signed by the IdP's certificate with SHA-256 or stronger, from its entity ID (when configured), to our
   * logout address, answering a request of ours it has not answered before. A failure status is returned, not thrown:
   * the answer is genuine, and says the IdP session may still be open. Anything else throws SamlRejection.
   */
  async verifyLogoutResponse(provider: SsoProvider, origin: string, message: LogoutResponseMessage): Promise<VerifiedLogoutResponse> {
    const { redirect, xml } = receivedMessage(message, 'SAMLResponse');
    const { dom, root } = await parseProtocolMessage(xml, 'LogoutResponse');
    const inResponseTo = root.getAttribute('InResponseTo') || null;
    const cache = new SamlRequestCache(this.repository, provider.id, 'logout');
    try {
      refuseWeakAlgorithms(dom);
      if (redirect) this.checkRedirectSignature(provider, redirect);
      else await this.checkPostedLogoutResponse(provider, origin, cache, xml);
      const issuers = xpath.selectElements(dom, "/*[local-name()='LogoutResponse']/*[local-name()='Issuer']").map((issuer) => issuer.textContent);
      if (provider.idpEntityId && (issuers.length !== 1 || issuers[0] !== provider.idpEntityId)) throw new SamlRejection('issuer_mismatch');
      refuseOtherDestination(root, samlUrls(origin, provider.id).logout);
      const request = inResponseTo ? await cache.claim(inResponseTo) : null;
      if (!request) throw new SamlRejection('in_response_to_invalid');
      return { userId: request.userId, failure: statusProblem(dom, 'LogoutResponse') };
    } finally {
      // Whatever happened, a request ID answers at most one response.
      if (inResponseTo) await cache.removeAsync(inResponseTo);
    }
  }

  /**
   * Our LogoutResponse (Success) to an IdP's LogoutRequest by HTTP-Redirect, to the IdP's single logout URL (else its
   * SSO URL, as node-saml addresses it), signed when request signing is on. The query is built and signed here:
   * node-saml signs one encoding of it and sends another (they differ on a RelayState with a space or one of !'()*),
   * while the IdP verifies the octets it receives. Every character a browser might re-encode is escaped.
   */
  private logoutResponseUrl(provider: SsoProvider, saml: SAML, request: Profile, relayState: string | null): string {
    const parameters: [string, string][] = [['SAMLResponse', deflateRawSync(saml._generateLogoutResponse(request, true)).toString('base64')]];
    if (relayState) parameters.push(['RelayState', relayState]);
    const signing = this.signing(provider);
    if (signing) parameters.push(['SigAlg', RSA_SHA256]);
    let query = parameters.map(([name, value]) => `${name}=${strictlyEncoded(value)}`).join('&');
    if (signing) query += `&Signature=${strictlyEncoded(sign('sha256', Buffer.from(query, 'utf8'), signing.privateKey).toString('base64'))}`;
    const target = new URL(provider.sloUrl ?? provider.ssoUrl ?? '');
    return `${target.origin}${target.pathname}${target.search ? `${target.search}&` : '?'}${query}`;
  }

  /**
   * The query signature of an HTTP-Redirect message, required. node-saml's validateRedirectAsync cannot be relied on
   * for it: it takes an unsigned message, accepts SHA-1 and reads the status before the signature.
   */
  private checkRedirectSignature(provider: SsoProvider, message: RedirectMessage): void {
    if (!message.Signature || !message.SigAlg) throw new SamlRejection('signature_invalid', 'no query signature');
    const hash = REDIRECT_SIGNATURE_HASHES[message.SigAlg];
    if (!hash) throw new SamlRejection('weak_signature_algorithm', message.SigAlg.slice(0, 200));
    const signature = Buffer.from(message.Signature, 'base64');
    const signed = (parseCertificates(provider.idpCertificate ?? '') ?? []).some((certificate) => {
      try {
        return verifySignature(hash, Buffer.from(message.signedOctets, 'utf8'), certificate.publicKey, signature);
      } catch {
        return false;
      }
    });
    if (!signed) throw new SamlRejection('signature_invalid', 'query signature does not verify');
  }

  /**
   * A POSTed LogoutResponse: node-saml checks that the whole message is signed by the IdP. It reads InResponseTo on a
   * Response root only, so it is told not to; verifyLogoutResponse claims the LogoutResponse's own.
   */
  private async checkPostedLogoutResponse(provider: SsoProvider, origin: string, cache: SamlRequestCache, xml: string): Promise<void> {
    let result: { loggedOut: boolean };
    try {
      const saml = this.client(provider, origin, cache, { validateInResponseTo: ValidateInResponseTo.never });
      result = await saml.validatePostResponseAsync({ SAMLResponse: Buffer.from(xml, 'utf8').toString('base64') });
    } catch (error) {
      throw new SamlRejection(libraryReason(error), describe(error));
    }
    if (!result.loggedOut) throw new SamlRejection('response_invalid');
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

  private client(provider: SsoProvider, origin: string, cache: SamlRequestCache, overrides: Partial<SamlConfig> = {}): SAML {
    const urls = samlUrls(origin, provider.id);
    const signing = this.signing(provider);
    const options: SamlConfig = {
      issuer: urls.entityId,
      audience: urls.entityId,
      callbackUrl: urls.acs,
      logoutCallbackUrl: urls.logout,
      entryPoint: provider.ssoUrl ?? undefined,
      // Where LogoutRequests and LogoutResponses go (node-saml falls back to the SSO URL).
      logoutUrl: provider.sloUrl ?? undefined,
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
      ...overrides,
    };
    return new SAML(options);
  }

  private signing(provider: SsoProvider): { privateKey: string; publicCert: string } | null {
    if (!provider.signRequests || !provider.spPrivateKeyEncrypted || !provider.spCertificate) return null;
    return { privateKey: this.box.open(provider.spPrivateKeyEncrypted, SP_PRIVATE_KEY_PURPOSE), publicCert: provider.spCertificate };
  }
}

type Dom = Awaited<ReturnType<typeof parseDomFromString>>;

/**
 * The XML of an IdP message as either binding delivered it, screened; with the parts of its query (for the signature
 * check) when it came by HTTP-Redirect.
 */
function receivedMessage(
  message: LogoutRequestMessage | LogoutResponseMessage,
  field: 'SAMLRequest' | 'SAMLResponse',
): { redirect: RedirectMessage | null; xml: string } {
  if (message.binding === 'redirect') {
    const redirect = redirectMessage(message.query, field);
    return { redirect, xml: screenRedirectResponse(redirect.message) };
  }
  return { redirect: null, xml: screenSamlResponse((message as Record<string, unknown>)[field]) };
}


/** An IdP message parsed, refused unless its root is the SAML protocol element expected here. */
async function parseProtocolMessage(xml: string, name: 'Response' | 'LogoutRequest' | 'LogoutResponse'): Promise<{ dom: Dom; root: NonNullable<Dom['documentElement']> }> {
  const dom = await parseDomFromString(xml).catch((error: unknown) => {
    throw new SamlRejection('response_malformed', describe(error));
  });
  const root = dom.documentElement;
  if (!root || root.localName !== name || root.namespaceURI !== PROTOCOL_NS) throw new SamlRejection('response_malformed', `not a SAML ${name}`);
  return { dom, root };
}

/** The message's Destination, when it has one, must be exactly our address `expected` (node-saml does not compare it). */
function refuseOtherDestination(root: NonNullable<Dom['documentElement']>, expected: string): void {
  const problem = destinationProblem(root.hasAttribute('Destination') ? root.getAttribute('Destination') : null, expected);
  if (problem) throw new SamlRejection(problem);
}

/**
 * What is wrong with the top-level status of a Response or LogoutResponse: null when it is Success. Second-level codes
 * (PartialLogout) do not change what the IdP says at the top.
 */
function statusProblem(dom: Dom, root: 'Response' | 'LogoutResponse'): string | null {
  const status = xpath
    .selectAttributes(dom, `/*[local-name()='${root}']/*[local-name()='Status']/*[local-name()='StatusCode']/@Value`)
    .map((attribute) => attribute.value);
  return status.length === 1 && status[0] === STATUS_SUCCESS ? null : `top-level status ${status.join(', ').slice(0, 300) || 'missing'}`;
}

/** Every signature and digest algorithm in an IdP message must be SHA-256 or stronger. */
function refuseWeakAlgorithms(dom: Dom): void {
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

/** Percent-encoding of everything but letters, digits and -_.~ (encodeURIComponent leaves !'()* as they are). */
function strictlyEncoded(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : 'unknown error';
}
