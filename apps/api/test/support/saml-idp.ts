import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
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
    `<saml:AuthnStatement AuthnInstant="${f.issueInstant}" SessionIndex="_session-${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    `</saml:Assertion></samlp:Response>`
  );
}

export class SamlIdp {
  readonly entityId: string;
  readonly ssoUrl: string;
  private readonly idp: IdentityProviderInstance;
  private sp: { metadata: string; entityId: string; acs: string } | null = null;

  constructor(
    readonly keys: KeyPair,
    options: { entityId?: string; wantAuthnRequestsSigned?: boolean; signatureAlgorithm?: string } = {},
  ) {
    this.entityId = options.entityId ?? `https://idp.test/${randomUUID()}`;
    this.ssoUrl = 'https://idp.test/sso';
    this.idp = IdentityProvider({
      entityID: this.entityId,
      privateKey: keys.key,
      signingCert: keys.cert,
      wantAuthnRequestsSigned: options.wantAuthnRequestsSigned ?? false,
      requestSignatureAlgorithm: options.signatureAlgorithm ?? SHA256,
      nameIDFormat: [EMAIL_FORMAT],
      singleSignOnService: [{ Binding: Constants.namespace.binding.redirect, Location: this.ssoUrl }],
      singleLogoutService: [{ Binding: Constants.namespace.binding.redirect, Location: 'https://idp.test/slo' }],
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
    // The signed octet string is the query as sent: SAMLRequest, RelayState, SigAlg in that order.
    const octetString = url.search
      .slice(1)
      .split('&')
      .filter((part) => /^(SAMLRequest|RelayState|SigAlg)=/.test(part))
      .join('&');
    const result = await this.idp.parseLoginRequest(this.serviceProvider(), 'redirect', { query: Object.fromEntries(url.searchParams), octetString });
    return { id: (result.extract.request as { id: string }).id, extract: result.extract as Record<string, unknown> };
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
    const sp = this.requireSp();
    const xml =
      `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${issueInstant.toISOString()}" Destination="${escape(destination ?? sp.acs.replace(/callback$/, 'logout'))}">` +
      `<saml:Issuer>${escape(this.entityId)}</saml:Issuer><saml:NameID Format="${EMAIL_FORMAT}">${escape(nameId)}</saml:NameID></samlp:LogoutRequest>`;
    return SamlLib.constructSAMLSignature({
      rawSamlMessage: xml,
      privateKey: this.keys.key,
      signingCert: this.idp.entityMeta.getX509Certificate('signing') as string,
      signatureAlgorithm,
      isMessageSigned: true,
      isBase64Output: true,
      signatureConfig: { prefix: 'ds', location: { reference: "/*[local-name(.)='LogoutRequest']/*[local-name(.)='Issuer']", action: 'after' } },
    }) as string;
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
