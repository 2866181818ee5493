import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as validator from '@authenio/samlify-node-xmllint';
import { Constants, IdentityProvider, IdentityProviderInstance, SamlLib, ServiceProvider, ServiceProviderInstance, setSchemaValidator } from 'samlify';

// An in-process SAML 2.0 identity provider built on samlify: it parses (and schema-checks) our AuthnRequests,
// verifies their signature when asked to, and answers with signed Responses whose every field a test can change.

setSchemaValidator(validator);

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';

export interface KeyPair {
  /** PKCS#8 PEM private key. */
  key: string;
  /** PEM X.509 certificate. */
  cert: string;
}

/** A fresh RSA key and self-signed certificate (Node cannot issue certificates, openssl can). */
export function makeKeyPair(commonName: string): KeyPair {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-saml-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2', '-subj', `/CN=${commonName}`, '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface SamlUser {
  nameId: string;
  nameIdFormat?: string;
  attributes?: Record<string, string | string[]>;
}

/** Every value of the Response a test may override; `null` leaves the attribute (or element) out. */
export interface ResponseFields {
  responseId: string;
  assertionId: string;
  issueInstant: string;
  destination: string | null;
  inResponseTo: string | null;
  issuer: string;
  statusCode: string;
  recipient: string | null;
  subjectNotOnOrAfter: string;
  notBefore: string;
  notOnOrAfter: string;
  audience: string | null;
  /** The AuthnStatement's SessionIndex (the IdP session a LogoutRequest names). */
  sessionIndex: string;
}

export type Signing = 'assertion' | 'both' | 'response' | 'none';

export interface RespondOptions {
  fields?: Partial<ResponseFields>;
  signing?: Signing;
}

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const attr = (name: string, value: string | null) => (value === null ? '' : ` ${name}="${escape(value)}"`);

function responseXml(f: ResponseFields, user: SamlUser): string {
  const attributes = Object.entries(user.attributes ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${escape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">` +
        (Array.isArray(value) ? value : [value]).map((v) => `<saml:AttributeValue xsi:type="xs:string">${escape(v)}</saml:AttributeValue>`).join('') +
        '</saml:Attribute>',
    )
    .join('');
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${f.responseId}" Version="2.0" IssueInstant="${f.issueInstant}"${attr('Destination', f.destination)}${attr('InResponseTo', f.inResponseTo)}>` +
    `<saml:Issuer>${escape(f.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${f.statusCode}"/></samlp:Status>` +
    `<saml:Assertion xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="${f.assertionId}" Version="2.0" IssueInstant="${f.issueInstant}">` +
    `<saml:Issuer>${escape(f.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${escape(user.nameIdFormat ?? EMAIL_FORMAT)}">${escape(user.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${f.subjectNotOnOrAfter}"${attr('Recipient', f.recipient)}${attr('InResponseTo', f.inResponseTo)}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${f.notBefore}" NotOnOrAfter="${f.notOnOrAfter}">` +
    (f.audience === null ? '' : `<saml:AudienceRestriction><saml:Audience>${escape(f.audience)}</saml:Audience></saml:AudienceRestriction>`) +
    `</saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${f.issueInstant}" SessionIndex="${escape(f.sessionIndex)}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    `</saml:Assertion></samlp:Response>`
  );
}

/** Every value of a LogoutResponse a test may override; `null` leaves the attribute out. */
export interface LogoutResponseFields {
  id: string;
  issueInstant: string;
  destination: string | null;
  inResponseTo: string | null;
  issuer: string;
  statusCode: string;
}

export interface LogoutResponseOptions {
  fields?: Partial<LogoutResponseFields>;
  /** Signed (the default) in the query (HTTP-Redirect) or the XML (HTTP-POST); false sends it unsigned. */
  signed?: boolean;
  signatureAlgorithm?: string;
}

function logoutResponseXml(f: LogoutResponseFields): string {
  return (
    `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${f.id}" Version="2.0" IssueInstant="${f.issueInstant}"${attr('Destination', f.destination)}${attr('InResponseTo', f.inResponseTo)}>` +
    `<saml:Issuer>${escape(f.issuer)}</saml:Issuer><samlp:Status><samlp:StatusCode Value="${escape(f.statusCode)}"/></samlp:Status></samlp:LogoutResponse>`
  );
}

/** Every value of an IdP-initiated LogoutRequest a test may override; `null` leaves the attribute out. */
export interface LogoutRequestFields {
  id: string;
  issueInstant: string;
  destination: string | null;
  issuer: string;
}

export interface LogoutRequestOptions {
  fields?: Partial<LogoutRequestFields>;
  /** Signed (the default) in the query; false sends it unsigned. */
  signed?: boolean;
  signatureAlgorithm?: string;
  relayState?: string;
}

function logoutRequestXml(f: LogoutRequestFields, nameId: string): string {
  return (
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${f.id}" Version="2.0" IssueInstant="${f.issueInstant}"${attr('Destination', f.destination)}>` +
    `<saml:Issuer>${escape(f.issuer)}</saml:Issuer><saml:NameID Format="${EMAIL_FORMAT}">${escape(nameId)}</saml:NameID></samlp:LogoutRequest>`
  );
}

/**
 * The signed octet string of an HTTP-Redirect message: its parameters as sent, in this order (SAML Bindings 3.4.4.1).
 * Read from the address as given (URL would re-encode some characters of its query).
 */
const octetString = (address: string) =>
  address
    .slice(address.indexOf('?') + 1)
    .split('#')[0]
    .split('&')
    .filter((part) => /^(SAMLRequest|SAMLResponse|RelayState|SigAlg)=/.test(part))
    .join('&');

export class SamlIdp {
  readonly entityId: string;
  readonly ssoUrl: string;
  readonly sloUrl: string;
  private readonly idp: IdentityProviderInstance;
  private sp: { metadata: string; entityId: string; acs: string } | null = null;

  constructor(
    readonly keys: KeyPair,
    /** `baseUrl`: where the IdP's pages are, for a browser (no server behind the default address). */
    options: { entityId?: string; wantAuthnRequestsSigned?: boolean; signatureAlgorithm?: string; baseUrl?: string } = {},
  ) {
    const base = options.baseUrl ?? 'https://idp.test';
    this.entityId = options.entityId ?? `${base}/${randomUUID()}`;
    this.ssoUrl = `${base}/sso`;
    this.sloUrl = `${base}/slo`;
    this.idp = IdentityProvider({
      entityID: this.entityId,
      privateKey: keys.key,
      signingCert: keys.cert,
      wantAuthnRequestsSigned: options.wantAuthnRequestsSigned ?? false,
      wantLogoutRequestSigned: options.wantAuthnRequestsSigned ?? false,
      wantLogoutResponseSigned: options.wantAuthnRequestsSigned ?? false,
      requestSignatureAlgorithm: options.signatureAlgorithm ?? SHA256,
      nameIDFormat: [EMAIL_FORMAT],
      singleSignOnService: [{ Binding: Constants.namespace.binding.redirect, Location: this.ssoUrl }],
      singleLogoutService: [{ Binding: Constants.namespace.binding.redirect, Location: this.sloUrl }],
    });
  }

  /** Another IdP claiming this one's entity ID but signing with other keys (an attacker). */
  impostor(keys: KeyPair, options: { signatureAlgorithm?: string } = {}): SamlIdp {
    const other = new SamlIdp(keys, { entityId: this.entityId, ...options });
    other.sp = this.sp;
    return other;
  }

  /** Registers the service provider from its metadata document (what an administrator uploads at the IdP). */
  trust(metadata: string): void {
    const sp = ServiceProvider({ metadata });
    this.sp = { metadata, entityId: sp.entityMeta.getEntityID(), acs: sp.entityMeta.getAssertionConsumerService('post') as string };
  }

  /** Parses the AuthnRequest of the redirect URL (schema-validated; signature checked if this IdP wants it). */
  async parseRequest(authorizationUrl: string): Promise<{ id: string; extract: Record<string, unknown> }> {
    const url = new URL(authorizationUrl);
    if (`${url.origin}${url.pathname}` !== this.ssoUrl) throw new Error(`AuthnRequest sent to ${url.origin}${url.pathname}, not ${this.ssoUrl}`);
    const result = await this.idp.parseLoginRequest(this.serviceProvider(), 'redirect', { query: Object.fromEntries(url.searchParams), octetString: octetString(authorizationUrl) });
    return { id: (result.extract.request as { id: string }).id, extract: result.extract as Record<string, unknown> };
  }

  /** Parses the LogoutRequest of our logout URL (schema-validated; signature checked if this IdP wants signed requests). */
  async parseLogoutRequest(logoutUrl: string): Promise<{ id: string; xml: string; extract: Record<string, unknown> }> {
    const url = new URL(logoutUrl);
    if (`${url.origin}${url.pathname}` !== this.sloUrl) throw new Error(`LogoutRequest sent to ${url.origin}${url.pathname}, not ${this.sloUrl}`);
    const result = await this.idp.parseLogoutRequest(this.serviceProvider(), 'redirect', { query: Object.fromEntries(url.searchParams), octetString: octetString(logoutUrl) });
    return { id: (result.extract.request as { id: string }).id, xml: result.samlContent, extract: result.extract as Record<string, unknown> };
  }

  /** The fields of a successful answer to our LogoutRequest `requestId`. */
  logoutDefaults(requestId: string | null): LogoutResponseFields {
    return {
      id: `_${randomUUID()}`,
      issueInstant: new Date().toISOString(),
      destination: this.spLogoutUrl(),
      inResponseTo: requestId,
      issuer: this.entityId,
      statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
    };
  }

  /** The IdP's LogoutResponse by HTTP-Redirect: the address on our side it sends the browser to (path and query). */
  logoutResponseUrl(requestId: string | null, options: LogoutResponseOptions = {}): string {
    return this.redirectTo('SAMLResponse', logoutResponseXml({ ...this.logoutDefaults(requestId), ...options.fields }), options);
  }

  /** The fields of a LogoutRequest to our logout address, issued now. */
  logoutRequestDefaults(): LogoutRequestFields {
    return { id: `_${randomUUID()}`, issueInstant: new Date().toISOString(), destination: this.spLogoutUrl(), issuer: this.entityId };
  }

  /** An IdP-initiated LogoutRequest for `nameId` by HTTP-Redirect: the address on our side it sends the browser to. */
  logoutRequestUrl(nameId: string, options: LogoutRequestOptions = {}): string {
    return this.redirectTo('SAMLRequest', logoutRequestXml({ ...this.logoutRequestDefaults(), ...options.fields }, nameId), options);
  }

  /** Parses our LogoutResponse by HTTP-Redirect (its signature checked if this IdP wants signed requests; Success only). */
  async parseLogoutResponse(responseUrl: string): Promise<{ xml: string; extract: Record<string, unknown> }> {
    const url = new URL(responseUrl);
    if (`${url.origin}${url.pathname}` !== this.sloUrl) throw new Error(`LogoutResponse sent to ${url.origin}${url.pathname}, not ${this.sloUrl}`);
    const result = await this.idp.parseLogoutResponse(this.serviceProvider(), 'redirect', { query: Object.fromEntries(url.searchParams), octetString: octetString(responseUrl) });
    return { xml: result.samlContent, extract: result.extract as Record<string, unknown> };
  }

  /** An HTTP-Redirect message to our logout address (path and query), its query signed unless `signed` is false. */
  private redirectTo(parameter: 'SAMLRequest' | 'SAMLResponse', xml: string, options: { signed?: boolean; signatureAlgorithm?: string; relayState?: string }): string {
    const algorithm = options.signatureAlgorithm ?? SHA256;
    let query = `${parameter}=${encodeURIComponent(deflateRawSync(xml).toString('base64'))}`;
    // Escaped beyond encodeURIComponent, as a browser would otherwise re-encode ' after signing.
    if (options.relayState !== undefined) query += `&RelayState=${encodeURIComponent(options.relayState).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
    if (options.signed !== false) {
      query += `&SigAlg=${encodeURIComponent(algorithm)}`;
      query += `&Signature=${encodeURIComponent(SamlLib.constructMessageSignature(query, this.keys.key, undefined, true, algorithm) as string)}`;
    }
    return `${new URL(this.spLogoutUrl()).pathname}?${query}`;
  }

  /** The IdP's LogoutResponse by HTTP-POST: the base64 SAMLResponse of its auto-submitted form. */
  logoutResponsePost(requestId: string | null, options: LogoutResponseOptions = {}): string {
    const xml = logoutResponseXml({ ...this.logoutDefaults(requestId), ...options.fields });
    if (options.signed === false) return Buffer.from(xml).toString('base64');
    return this.signMessage(xml, 'LogoutResponse', options.signatureAlgorithm);
  }

  /** The fields of a correct answer to request `requestId` (valid five minutes). */
  defaults(requestId: string | null): ResponseFields {
    const sp = this.requireSp();
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000).toISOString();
    return {
      responseId: `_${randomUUID()}`,
      assertionId: `_${randomUUID()}`,
      issueInstant: now.toISOString(),
      destination: sp.acs,
      inResponseTo: requestId,
      issuer: this.entityId,
      statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      recipient: sp.acs,
      subjectNotOnOrAfter: later,
      notBefore: now.toISOString(),
      notOnOrAfter: later,
      audience: sp.entityId,
      sessionIndex: `_session-${randomUUID()}`,
    };
  }

  /** A base64 SAMLResponse for `user` answering `requestId`, signed as asked. */
  async response(requestId: string | null, user: SamlUser, options: RespondOptions = {}): Promise<string> {
    const fields = { ...this.defaults(requestId), ...options.fields };
    const xml = responseXml(fields, user);
    const signing = options.signing ?? 'assertion';
    if (signing === 'none') return Buffer.from(xml).toString('base64');
    const sp = this.serviceProvider(signing);
    const result = await this.idp.createLoginResponse(sp, { extract: { request: { id: requestId ?? '' } } }, 'post', { email: user.nameId }, {
      customTagReplacement: () => ({ id: fields.responseId, context: xml }),
    });
    return result.context;
  }

  /** The whole IdP side of a sign-in: parse the app's AuthnRequest, answer it. */
  async respond(authorizationUrl: string, user: SamlUser, options: RespondOptions = {}): Promise<{ SAMLResponse: string; requestId: string }> {
    const { id } = await this.parseRequest(authorizationUrl);
    return { SAMLResponse: await this.response(id, user, options), requestId: id };
  }

  /** A signed IdP-initiated LogoutRequest (HTTP-POST binding) for `nameId`, base64; to our logout URL unless `destination`. */
  logoutRequest(nameId: string, issueInstant = new Date(), signatureAlgorithm = SHA256, destination?: string): string {
    const fields = { ...this.logoutRequestDefaults(), issueInstant: issueInstant.toISOString(), ...(destination ? { destination } : {}) };
    return this.signMessage(logoutRequestXml(fields, nameId), 'LogoutRequest', signatureAlgorithm);
  }

  /** A protocol message signed in its XML (enveloped, after the Issuer), base64. */
  private signMessage(xml: string, root: 'LogoutRequest' | 'LogoutResponse', signatureAlgorithm = SHA256): string {
    return SamlLib.constructSAMLSignature({
      rawSamlMessage: xml,
      privateKey: this.keys.key,
      signingCert: this.idp.entityMeta.getX509Certificate('signing') as string,
      signatureAlgorithm,
      isMessageSigned: true,
      isBase64Output: true,
      signatureConfig: { prefix: 'ds', location: { reference: `/*[local-name(.)='${root}']/*[local-name(.)='Issuer']`, action: 'after' } },
    }) as string;
  }

  /** Our SingleLogoutService, beside the ACS. */
  private spLogoutUrl(): string {
    return this.requireSp().acs.replace(/callback$/, 'logout');
  }

  /** samlify's view of our SP; `response` signs the Response only, `both` the Response and the assertion. */
  private serviceProvider(signing: Signing = 'assertion'): ServiceProviderInstance {
    const { metadata } = this.requireSp();
    if (signing === 'response') return ServiceProvider({ metadata: metadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"'), wantMessageSigned: true });
    return ServiceProvider({ metadata, wantMessageSigned: signing === 'both' });
  }

  private requireSp() {
    if (!this.sp) throw new Error('call trust(<SP metadata>) first');
    return this.sp;
  }
}

/** XML of a base64 SAMLResponse, and back: for the signature-wrapping fixtures. */
export const decode = (samlResponse: string): string => Buffer.from(samlResponse, 'base64').toString('utf8');
export const encode = (xml: string): string => Buffer.from(xml, 'utf8').toString('base64');
