// A SAML 2.0 identity provider for group G, written for the harness: it reads the AuthnRequest id out of the
// HTTP-Redirect binding and answers with a Response whose every field can be changed, signed with xml-crypto by the
// IdP key, an attacker key, or not at all. Keys and self-signed certificates come from openssl.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import xmlCrypto from 'xml-crypto';

const { SignedXml } = xmlCrypto;
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const TRANSIENT_FORMAT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
export const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

export function keyPair(cn) {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-saml-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2', '-subj', `/CN=${cn}`, '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'k.pem'), 'utf8'), cert: readFileSync(join(dir, 'c.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const esc = (v) => String(v).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const at = (name, value) => (value === null || value === undefined ? '' : ` ${name}="${esc(value)}"`);

/** The ID of the AuthnRequest in an HTTP-Redirect URL (SAMLRequest = base64 of raw DEFLATE). */
export function requestIdOf(url) {
  const xml = inflateRawSync(Buffer.from(new URL(url).searchParams.get('SAMLRequest'), 'base64')).toString('utf8');
  const id = /<(?:\w+:)?AuthnRequest\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`no AuthnRequest ID in ${xml.slice(0, 200)}`);
  return id;
}

/** The assertion (and optionally the whole response) as XML text; `nameIdXml` is inserted raw when given. */
export function assertionXml(f) {
  const attrs = Object.entries(f.attributes ?? {})
    .map(([name, values]) => `<saml:Attribute Name="${esc(name)}">${[].concat(values).map((v) => `<saml:AttributeValue>${esc(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`)
    .join('');
  return (
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${esc(f.assertionId)}" Version="2.0" IssueInstant="${f.issueInstant}">` +
    `<saml:Issuer>${esc(f.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${esc(f.nameIdFormat)}">${f.nameIdXml ?? esc(f.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${f.subjectNotOnOrAfter}"${at('Recipient', f.recipient)}${at('InResponseTo', f.inResponseTo)}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${f.notBefore}" NotOnOrAfter="${f.notOnOrAfter}">` +
    (f.audience === null ? '' : `<saml:AudienceRestriction><saml:Audience>${esc(f.audience)}</saml:Audience></saml:AudienceRestriction>`) +
    `</saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${f.issueInstant}" SessionIndex="_s${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : '') +
    `</saml:Assertion>`
  );
}

export function responseXml(f, assertions) {
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${esc(f.responseId)}" Version="2.0" IssueInstant="${f.issueInstant}"${at('Destination', f.destination)}${at('InResponseTo', f.inResponseTo)}>` +
    `<saml:Issuer>${esc(f.issuer)}</saml:Issuer>` +
    (f.extensions ?? '') +
    `<samlp:Status><samlp:StatusCode Value="${esc(f.statusCode)}"/></samlp:Status>` +
    assertions +
    `</samlp:Response>`
  );
}

/** Enveloped signature over the element with ID `id`, placed after its Issuer. */
export function signElement(xml, id, keys, algorithm = RSA_SHA256) {
  const sig = new SignedXml({ privateKey: keys.key, publicCert: keys.cert, signatureAlgorithm: algorithm, canonicalizationAlgorithm: EXC_C14N });
  sig.addReference({ xpath: `//*[@ID='${id}']`, digestAlgorithm: algorithm === RSA_SHA1 ? 'http://www.w3.org/2000/09/xmldsig#sha1' : 'http://www.w3.org/2001/04/xmlenc#sha256', transforms: [ENVELOPED, EXC_C14N] });
  sig.computeSignature(xml, { prefix: 'ds', location: { reference: `//*[@ID='${id}']/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}
export { RSA_SHA1 };

export class SamlIdp {
  constructor(keys, entityId = `https://idp.hostile.test/${randomUUID()}`) {
    this.keys = keys;
    this.entityId = entityId;
    this.ssoUrl = 'https://idp.hostile.test/sso';
  }

  /** From our SP metadata: entity ID and ACS. */
  trust(metadata) {
    this.spEntityId = /entityID="([^"]+)"/.exec(metadata)?.[1];
    this.acs = /<(?:\w+:)?AssertionConsumerService\b[^>]*Location="([^"]+)"/.exec(metadata)?.[1];
    if (!this.spEntityId || !this.acs) throw new Error(`SP metadata without entityID/ACS: ${metadata.slice(0, 300)}`);
  }

  fields(requestId, user, overrides = {}) {
    const now = Date.now();
    const iso = (ms) => new Date(ms).toISOString();
    return {
      responseId: `_r${randomUUID()}`,
      assertionId: `_a${randomUUID()}`,
      issueInstant: iso(now),
      destination: this.acs,
      inResponseTo: requestId,
      issuer: this.entityId,
      statusCode: SUCCESS,
      recipient: this.acs,
      subjectNotOnOrAfter: iso(now + 300_000),
      notBefore: iso(now - 5_000),
      notOnOrAfter: iso(now + 300_000),
      audience: this.spEntityId,
      nameId: user.email,
      nameIdFormat: EMAIL_FORMAT,
      attributes: { email: user.email, first_name: 'Saml', last_name: 'Tester', ...(user.attributes ?? {}) },
      ...overrides,
    };
  }

  /**
   * A base64 SAMLResponse. signing: 'assertion' (default), 'both', 'response', 'none'; keys: who signs;
   * mutate(xml, fields): last-minute surgery on the signed XML (wrapping attacks).
   */
  response(requestId, user, { fields = {}, signing = 'assertion', keys = this.keys, algorithm, mutate } = {}) {
    const f = this.fields(requestId, user, fields);
    let assertion = assertionXml(f);
    if (signing === 'assertion' || signing === 'both') assertion = signElement(assertion, f.assertionId, keys, algorithm);
    let xml = responseXml(f, assertion);
    if (signing === 'response' || signing === 'both') xml = signElement(xml, f.responseId, keys, algorithm);
    if (mutate) xml = mutate(xml, f);
    return Buffer.from(xml).toString('base64');
  }
}
