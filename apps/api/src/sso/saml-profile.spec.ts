import { deflateRawSync } from 'node:zlib';
import {
  bearerConfirmationExpiry,
  destinationProblem,
  MAX_RESPONSE_BYTES,
  NAMEID_EMAIL,
  redirectMessage,
  samlClaims,
  SamlRejection,
  screenRedirectResponse,
  screenSamlResponse,
  XmlJs,
} from './saml-profile';

const ACS = 'https://hearth.example/auth/saml/p1/callback';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const b64 = (xml: string) => Buffer.from(xml).toString('base64');

const reasonOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof SamlRejection) return error.reason;
    throw error;
  }
  return 'accepted';
};

describe('screenSamlResponse', () => {
  it('returns the XML of plain base64 (line breaks allowed)', () => {
    const encoded = b64('<?xml version="1.0"?><samlp:Response/>');
    expect(screenSamlResponse(`${encoded.slice(0, 10)}\r\n${encoded.slice(10)}`)).toBe('<?xml version="1.0"?><samlp:Response/>');
  });

  it.each([
    ['nothing', undefined, 'response_missing'],
    ['an empty string', '  ', 'response_missing'],
    ['a list', ['a'], 'response_missing'],
    ['non-base64 text', '%%%', 'response_malformed'],
    ['base64 of text that is not XML', b64('hello'), 'response_malformed'],
    ['a DOCTYPE', b64('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>'), 'response_malformed'],
    ['a comment (NameID truncation)', b64('<r><NameID>victim@x.test<!---->.evil.test</NameID></r>'), 'response_malformed'],
    ['more than the size cap', 'A'.repeat(Math.ceil(MAX_RESPONSE_BYTES / 3) * 4 + 4), 'response_too_large'],
  ])('refuses %s', (_label, input, reason) => {
    expect(reasonOf(() => screenSamlResponse(input))).toBe(reason);
  });
});

describe('screenRedirectResponse', () => {
  const deflated = (text: string | Buffer) => deflateRawSync(text).toString('base64');

  it('returns the XML of base64 raw DEFLATE', () => {
    expect(screenRedirectResponse(deflated('<samlp:LogoutResponse/>'))).toBe('<samlp:LogoutResponse/>');
  });

  it.each([
    ['nothing', undefined, 'response_missing'],
    ['base64 that is not DEFLATE', b64('<samlp:LogoutResponse/>'), 'response_malformed'],
    ['a DOCTYPE inside', deflated('<!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>'), 'response_malformed'],
    ['a comment inside', deflated('<r><!-- x --></r>'), 'response_malformed'],
    ['a small message that inflates beyond the size cap', deflated(Buffer.alloc(MAX_RESPONSE_BYTES + 1, 0x20)), 'response_too_large'],
  ])('refuses %s', (_label, input, reason) => {
    expect(reasonOf(() => screenRedirectResponse(input))).toBe(reason);
  });
});

describe('redirectMessage', () => {
  it('decodes the parameters and keeps the signed ones as sent, in the order of SAML Bindings 3.4.4.1', () => {
    const message = redirectMessage('Signature=c2ln%2B&SigAlg=http%3A%2F%2Fx%23rsa-sha256&other=1&SAMLResponse=YWJj%2B%3D&RelayState=r%20s', 'SAMLResponse');
    expect(message).toEqual({
      message: 'YWJj+=',
      RelayState: 'r s',
      SigAlg: 'http://x#rsa-sha256',
      Signature: 'c2ln+',
      signedOctets: 'SAMLResponse=YWJj%2B%3D&RelayState=r%20s&SigAlg=http%3A%2F%2Fx%23rsa-sha256',
    });
  });

  it('takes an unsigned message (the caller refuses it)', () => {
    expect(redirectMessage('SAMLResponse=YWJj', 'SAMLResponse')).toEqual({ message: 'YWJj', RelayState: null, SigAlg: null, Signature: null, signedOctets: 'SAMLResponse=YWJj' });
  });

  it('reads a SAMLRequest the same way, leaving any SAMLResponse out of what is signed', () => {
    expect(redirectMessage('SAMLRequest=cmVx&SAMLResponse=YWJj&SigAlg=a&Signature=b', 'SAMLRequest')).toEqual({
      message: 'cmVx',
      RelayState: null,
      SigAlg: 'a',
      Signature: 'b',
      signedOctets: 'SAMLRequest=cmVx&SigAlg=a',
    });
  });

  it.each([
    ['no SAMLResponse', 'SigAlg=a&Signature=b', 'response_missing'],
    ['only a SAMLRequest', 'SAMLRequest=YWJj', 'response_missing'],
    ['a parameter given twice', 'SAMLResponse=YWJj&SigAlg=a&SigAlg=b', 'response_malformed'],
    ['a broken escape', 'SAMLResponse=%E0%A4%A', 'response_malformed'],
  ])('refuses %s', (_label, query, reason) => {
    expect(reasonOf(() => redirectMessage(query, 'SAMLResponse'))).toBe(reason);
  });
});

describe('bearerConfirmationExpiry', () => {
  const assertion = (...confirmations: { Method?: string; Recipient?: string; NotOnOrAfter?: string }[]): XmlJs => ({
    Subject: [
      {
        SubjectConfirmation: confirmations.map(({ Method = BEARER, ...data }) => ({ $: { Method }, SubjectConfirmationData: [{ $: data }] })),
      },
    ],
  });

  it('returns NotOnOrAfter of the bearer confirmation addressed to our ACS', () => {
    const expiry = bearerConfirmationExpiry(assertion({ Recipient: 'https://other.example/acs' }, { Recipient: ACS, NotOnOrAfter: '2030-01-01T00:00:00Z' }), ACS);
    expect(expiry.toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });

  it.each([
    ['no subject confirmation', assertion(), 'subject_confirmation_missing'],
    ['only a holder-of-key confirmation', assertion({ Method: 'urn:oasis:names:tc:SAML:2.0:cm:holder-of-key', Recipient: ACS, NotOnOrAfter: '2030-01-01T00:00:00Z' }), 'subject_confirmation_missing'],
    ['another Recipient', assertion({ Recipient: `${ACS}/x`, NotOnOrAfter: '2030-01-01T00:00:00Z' }), 'recipient_mismatch'],
    ['no Recipient', assertion({ NotOnOrAfter: '2030-01-01T00:00:00Z' }), 'recipient_missing'],
    ['no NotOnOrAfter', assertion({ Recipient: ACS }), 'subject_confirmation_expiry_missing'],
  ])('refuses %s', (_label, input, reason) => {
    expect(reasonOf(() => bearerConfirmationExpiry(input, ACS))).toBe(reason);
  });
});

describe('destinationProblem', () => {
  it('accepts our ACS or no Destination, refuses anything else', () => {
    expect(destinationProblem(ACS, ACS)).toBeNull();
    expect(destinationProblem(null, ACS)).toBeNull();
    expect(destinationProblem('https://evil.example/acs', ACS)).toBe('destination_mismatch');
    expect(destinationProblem('', ACS)).toBe('destination_mismatch');
  });
});

describe('samlClaims', () => {
  it('maps the reference attribute names (incl. the xmlsoap and Microsoft claim URIs)', () => {
    const claims = samlClaims(
      {
        nameId: 'opaque-123',
        nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
        attributes: {
          'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': 'ann@corp.test',
          givenName: 'Ann',
          'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname': 'Lee',
          'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups': 'admins',
          department: ['ops', 'finance'],
          structured: { NameID: [{}] },
        },
      },
      'groups',
    );
    expect(claims).toMatchObject({ email: 'ann@corp.test', email_verified: true, given_name: 'Ann', family_name: 'Lee', groups: ['admins'], department: ['ops', 'finance'] });
    expect(claims).not.toHaveProperty('structured');
  });

  it('reads groups only from a configured custom attribute', () => {
    const claims = samlClaims({ nameId: 'a@b.test', nameIdFormat: NAMEID_EMAIL, attributes: { memberOf: ['x', 'y'], groups: ['root'] } }, 'memberOf');
    expect(claims.memberOf).toEqual(['x', 'y']);
    expect(samlClaims({ nameId: 'a@b.test', nameIdFormat: NAMEID_EMAIL, attributes: { groups: ['root'] } }, 'memberOf').memberOf).toEqual([]);
  });

  it('falls back to an emailAddress-format NameID for the e-mail, never to another format', () => {
    expect(samlClaims({ nameId: 'n@b.test', nameIdFormat: NAMEID_EMAIL, attributes: {} }, 'groups')).toMatchObject({ email: 'n@b.test', email_verified: true });
    const opaque = samlClaims({ nameId: 'n@b.test', nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', attributes: {} }, 'groups');
    expect(opaque).not.toHaveProperty('email');
    expect(opaque.email_verified).toBe(false);
  });
});
