// Pure SAML checks and mappings (no I/O), used by the SAML gateway around node-saml's own validation.

import { X509Certificate } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';

export const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const NAMEID_TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** A decoded SAMLResponse larger than this is refused before any parsing (real responses are a few KB). */
export const MAX_RESPONSE_BYTES = 256 * 1024;

/** Why a SAML message was refused; `reason` is audited, never the library's message. */
export class SamlRejection extends Error {
  constructor(
    readonly reason: string,
    readonly detail = '',
  ) {
    super(detail ? `${reason}: ${detail}` : reason);
  }
}

/**
 * The XML of a POSTed SAMLResponse, refused before parsing when it is not plain base64, too large, or uses DTDs
 * (XXE, entity expansion) or comments (the NameID comment-truncation class: `victim@x.test<!---->.evil.test`).
 */
export function screenSamlResponse(encoded: unknown): string {
  return screenXml(decodeBase64(encoded).toString('utf8'));
}

/**
 * The XML of an HTTP-Redirect SAMLRequest or SAMLResponse (base64 of raw DEFLATE), screened like a POSTed one;
 * inflating stops at the size limit, so a small message cannot expand into a large one.
 */
export function screenRedirectResponse(encoded: unknown): string {
  let xml: Buffer;
  try {
    xml = inflateRawSync(decodeBase64(encoded), { maxOutputLength: MAX_RESPONSE_BYTES });
  } catch (error) {
    if (error instanceof SamlRejection) throw error;
    throw new SamlRejection((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'response_too_large' : 'response_malformed', 'not DEFLATE');
  }
  return screenXml(xml.toString('utf8'));
}

function decodeBase64(encoded: unknown): Buffer {
  if (typeof encoded !== 'string' || encoded.trim() === '') throw new SamlRejection('response_missing');
  const compact = encoded.replace(/\s+/g, '');
  if (compact.length > Math.ceil(MAX_RESPONSE_BYTES / 3) * 4) throw new SamlRejection('response_too_large');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) throw new SamlRejection('response_malformed', 'not base64');
  return Buffer.from(compact, 'base64');
}

function screenXml(xml: string): string {
  if (!/^\s*(<\?xml[^>]*\?>\s*)?<[A-Za-z_]/.test(xml)) throw new SamlRejection('response_malformed', 'not XML');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlRejection('response_malformed', 'DTD not allowed');
  if (xml.includes('<!--')) throw new SamlRejection('response_malformed', 'comments not allowed');
  return xml;
}

/** An HTTP-Redirect message (SAMLRequest or SAMLResponse): its parameters (decoded) and the octet string its signature covers. */
export interface RedirectMessage {
  /** The SAMLRequest or SAMLResponse: base64 of raw DEFLATE. */
  message: string;
  RelayState: string | null;
  SigAlg: string | null;
  Signature: string | null;
  /** `SAMLRequest=...&RelayState=...&SigAlg=...` (or SAMLResponse) exactly as sent, in this order (SAML Bindings 3.4.4.1). */
  signedOctets: string;
}

/**
 * Reads the raw query of an HTTP-Redirect message of the given kind. The signature covers the parameters as they were
 * encoded, so they are taken from the raw text, not re-encoded; a parameter given twice is refused rather than guessed at.
 */
export function redirectMessage(rawQuery: string, kind: 'SAMLRequest' | 'SAMLResponse'): RedirectMessage {
  const signedParameters = [kind, 'RelayState', 'SigAlg'];
  const raw = new Map<string, string>();
  for (const part of rawQuery.split('&')) {
    const separator = part.indexOf('=');
    const name = separator === -1 ? part : part.slice(0, separator);
    if (!signedParameters.includes(name) && name !== 'Signature') continue;
    if (raw.has(name)) throw new SamlRejection('response_malformed', `${name} given twice`);
    raw.set(name, part);
  }
  const value = (name: string): string | null => {
    const part = raw.get(name);
    if (part === undefined) return null;
    try {
      return decodeURIComponent(part.slice(name.length + 1));
    } catch {
      throw new SamlRejection('response_malformed', `${name} is not URL-encoded`);
    }
  };
  const message = value(kind);
  if (message === null) throw new SamlRejection('response_missing');
  const signedOctets = signedParameters.flatMap((name) => raw.get(name) ?? []).join('&');
  return { message, RelayState: value('RelayState'), SigAlg: value('SigAlg'), Signature: value('Signature'), signedOctets };
}

/** The X.509 certificates of an IdP certificate setting: PEM blocks, or one base64 body without the PEM lines; null when any is not one. */
export function parseCertificates(text: string): X509Certificate[] | null {
  const pem = [...text.matchAll(/-----BEGIN CERTIFICATE-----([^-]*)-----END CERTIFICATE-----/g)].map((m) => m[1]);
  const bodies = text.includes('-----BEGIN') ? pem : [text];
  try {
    const certificates = bodies.map((body) => new X509Certificate(Buffer.from(body.replace(/\s+/g, ''), 'base64')));
    return certificates.length ? certificates : null;
  } catch {
    return null;
  }
}

/** xml2js output as node-saml builds it: elements as arrays, attributes under `$`, text under `_`. */
export type XmlJs = { $?: Record<string, string>; _?: string } & { [element: string]: unknown };

const children = (node: XmlJs | undefined, name: string): XmlJs[] => {
  const value = node?.[name];
  return Array.isArray(value) ? (value as XmlJs[]) : [];
};

/**
 * Checks the bearer SubjectConfirmation of a (signed) assertion against our ACS URL, which node-saml leaves to the
 * application: at least one bearer confirmation must name exactly our ACS as Recipient and carry NotOnOrAfter.
 * Returns that NotOnOrAfter (how long the assertion ID must be remembered).
 */
export function bearerConfirmationExpiry(assertion: XmlJs, acsUrl: string): Date {
  const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation').filter((c) => c.$?.Method === BEARER);
  if (!confirmations.length) throw new SamlRejection('subject_confirmation_missing');
  const data = confirmations.map((c) => children(c, 'SubjectConfirmationData')[0]?.$ ?? {});
  const mine = data.filter((d) => d.Recipient === acsUrl);
  if (!mine.length) throw new SamlRejection(data.some((d) => d.Recipient) ? 'recipient_mismatch' : 'recipient_missing');
  const expiry = mine.map((d) => Date.parse(d.NotOnOrAfter ?? '')).find((ms) => Number.isFinite(ms));
  if (expiry === undefined) throw new SamlRejection('subject_confirmation_expiry_missing');
  return new Date(expiry);
}

/** A Response's Destination, when present, must be exactly our ACS (node-saml does not compare it). */
export function destinationProblem(destination: string | null, acsUrl: string): string | null {
  return destination !== null && destination !== acsUrl ? 'destination_mismatch' : null;
}

/** Attribute names IdPs use for the fields we read, first match wins (the names Sure reads, plus the common OIDs). */
export const SAML_ATTRIBUTES = {
  email: ['email', 'mail', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3'],
  first_name: ['first_name', 'firstName', 'givenName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', 'urn:oid:2.5.4.42'],
  last_name: ['last_name', 'lastName', 'surname', 'sn', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', 'urn:oid:2.5.4.4'],
  groups: ['groups', 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups'],
} as const;

/** Attribute values as text: a single string, or a list of strings; structured values are dropped. */
function textValues(value: unknown): string | string[] | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const strings = value.filter((v): v is string => typeof v === 'string');
    return strings.length ? strings : undefined;
  }
  return undefined;
}

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** The assertion's NameID as a LogoutRequest must repeat it (SAML Core 3.7.1: the same value, Format and qualifiers). */
export interface SamlNameId {
  value: string;
  format: string | null;
  nameQualifier: string | null;
  spNameQualifier: string | null;
}

/** What SP-initiated logout needs of a sign-in: whom (the NameID) and which IdP session (the AuthnStatement's SessionIndex). */
export interface SamlSessionRef {
  nameId: SamlNameId;
  sessionIndex: string | null;
}

export interface SamlSubject {
  nameId: string;
  nameIdFormat: string | null;
  attributes: Record<string, unknown>;
}

/**
 * The claims the shared account code reads (email, email_verified, given_name, family_name, the group attribute),
 * plus every text attribute under its own name for role-mapping conditions. The e-mail comes from the attributes,
 * else from an emailAddress-format NameID. `email_verified` is true: the address is in an assertion signed by the
 * IdP the administrator configured, and SAML has no separate verification flag.
 */
export function samlClaims(subject: SamlSubject, groupAttribute: string): Record<string, unknown> {
  const attributes: Record<string, string | string[]> = {};
  for (const [name, raw] of Object.entries(subject.attributes)) {
    const value = textValues(raw);
    if (value !== undefined) attributes[name] = value;
  }
  const pick = (names: readonly string[]) => names.map((name) => first(attributes[name])).find((v) => v !== undefined && v.trim() !== '');
  const email = pick(SAML_ATTRIBUTES.email) ?? (subject.nameIdFormat === NAMEID_EMAIL ? subject.nameId : undefined);
  const groupNames = groupAttribute === 'groups' ? SAML_ATTRIBUTES.groups : [groupAttribute];
  const groups = groupNames.map((name) => attributes[name]).find((v) => v !== undefined);
  return {
    ...attributes,
    ...(email !== undefined ? { email } : {}),
    email_verified: email !== undefined,
    given_name: pick(SAML_ATTRIBUTES.first_name),
    family_name: pick(SAML_ATTRIBUTES.last_name),
    [groupAttribute]: groups === undefined ? [] : Array.isArray(groups) ? groups : [groups],
  };
}
