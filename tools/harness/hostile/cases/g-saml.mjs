// G. SAML 2.0 ACS (POST /auth/saml/<id>/callback), with responses built and signed by the harness's own IdP
// (saml-idp.mjs: IdP key, attacker key, no key). When the server has no SAML sign-in (creating a saml provider or
// reading its metadata fails), every G case is listed as not run.
import { randomUUID } from 'node:crypto';
import { cookiesOf } from '../http.mjs';
import { keyPair, requestIdOf, RSA_SHA1, SamlIdp, TRANSIENT_FORMAT } from '../saml-idp.mjs';

const REFUSED = { status: 302, location: /^\/login\?error=sso_[a-z_]+$/ };
const NOT_AVAILABLE = 'not run: SAML not available (no saml provider with /auth/saml/<id>/metadata on this server)';

export default (ctx) => {
  const run = ctx.run;
  const mail = (name) => `${name}-${run}@${ctx.allowedDomain}`;
  const names = { saml: `saml-${run}`, saml2: `saml2-${run}` };
  const g = {};

  async function setupG() {
    if (g.tried) return;
    g.tried = true;
    g.keys = keyPair('Hostile harness IdP');
    g.attacker = keyPair('Attacker');
    g.idp = new SamlIdp(g.keys);
    const create = async (name) =>
      ctx.req({
        method: 'POST',
        path: '/api/v1/admin/sso_providers',
        session: ctx.sessions.ops,
        json: { name, strategy: 'saml', sso_url: g.idp.ssoUrl, idp_entity_id: g.idp.entityId, idp_certificate: g.keys.cert, group_attribute: 'memberOf', enabled: true },
      });
    const a = await create(names.saml);
    const b = await create(names.saml2);
    if (a.status !== 201 || b.status !== 201) return;
    g.ids = { saml: a.json.id, saml2: b.json.id };
    const metadata = await ctx.req({ path: `/auth/saml/${g.ids.saml}/metadata` });
    if (metadata.status !== 200 || !metadata.text.includes('EntityDescriptor')) return;
    g.metadata = metadata.text;
    g.idp.trust(metadata.text);
    g.available = true;
  }

  async function begin(name = names.saml) {
    const res = await ctx.req({ path: `/auth/${name}` });
    if (res.status !== 302 || !res.location?.startsWith(g.idp.ssoUrl)) throw new Error(`GET /auth/${name}: ${res.status} -> ${res.location}`);
    return { url: res.location, cookie: cookiesOf(res.setCookies), requestId: requestIdOf(res.location) };
  }
  /** The IdP's cross-site POST to the ACS: no cookies of ours. */
  const post = (SAMLResponse, providerId = g.ids.saml, relay = 'https://evil.example/') =>
    ctx.req({ method: 'POST', path: `/auth/saml/${providerId}/callback`, form: { SAMLResponse, RelayState: relay } });
  /** The POST, then the browser following the 303 with the cookies of the browser that started. */
  async function postAndReturn(SAMLResponse, cookie, providerId = g.ids.saml) {
    const posted = await post(SAMLResponse, providerId);
    if (posted.status !== 303) return posted;
    const res = await ctx.req({ path: posted.location, headers: { cookie } });
    for (const c of res.setCookies) {
      const token = /^hearth_session=([^;]+)/.exec(c)?.[1];
      if (token) ctx.secret(token, 'session token (SAML)');
      const csrf = /^hearth_csrf=([^;]+)/.exec(c)?.[1];
      if (csrf) ctx.secret(csrf, 'CSRF token (SAML)');
    }
    return res;
  }
  /** A sign-in with the IdP's answer built by `make(requestId)`. */
  async function login(make) {
    const s = await begin();
    return postAndReturn(make(s.requestId, s), s.cookie);
  }
  const person = (name, attributes = {}) => ({ email: mail(name), attributes });

  const counts = async () => (await ctx.q(`SELECT (SELECT count(*) FROM users) AS u, (SELECT count(*) FROM sessions) AS s, (SELECT count(*) FROM sso_identities) AS i`))[0];

  const cases = [];
  const add = (c) => {
    const own = c.before;
    c.before = async () => {
      await setupG();
      if (!g.available) c.notRun = NOT_AVAILABLE;
      else if (own) await own();
    };
    cases.push(c);
  };
  /** A refused response: /login?error=sso_..., no session cookie, no new user/session/identity, audited as login_failed. */
  const refusal = (id, title, act, reason) =>
    add({
      id,
      title,
      run: async () => {
        let before = await counts();
        let startedAt = new Date(Date.now() - 1000);
        const mark = async () => {
          before = await counts();
          startedAt = new Date(Date.now() - 50);
        };
        const res = await act(mark);
        const after = await counts();
        const problems = [];
        if (res.setCookies?.some((c) => c.startsWith('hearth_session='))) problems.push('session cookie set');
        if (JSON.stringify(before) !== JSON.stringify(after)) problems.push(`rows changed ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
        const [audit] = await ctx.q(`SELECT details FROM audit_logs WHERE event = 'login_failed' AND created_at >= $1 ORDER BY created_at DESC LIMIT 1`, [startedAt]);
        if (!audit) problems.push('no login_failed audit row');
        else if (reason && !new RegExp(`^(${reason})$`).test(audit.details?.reason ?? '')) problems.push(`audited reason "${audit.details?.reason}", expected ${reason}`);
        if (audit && JSON.stringify(audit).includes('SAMLResponse')) problems.push('raw SAMLResponse in the audit row');
        res.problem = problems.join('; ') || null;
        return res;
      },
      expect: REFUSED,
      check: (res) => res.problem,
    });
  const signedWith = (options, user = person('mallory')) => () => login((requestId) => g.idp.response(requestId, user, typeof options === 'function' ? options() : options));

  add({
    id: 'G91a',
    title: 'happy path: cross-site POST without cookies to the ACS, then the starting browser -> signed in (JIT)',
    run: () => login((requestId) => g.idp.response(requestId, person('sally'))),
    expect: { status: 302, location: /^\/$/ },
  });
  refusal('G77a', 'response and assertion unsigned', signedWith({ signing: 'none' }), 'signature_invalid');
  refusal('G77b', 'response signed, assertion unsigned', signedWith({ signing: 'response' }), 'signature_invalid');
  refusal('G78a', 'signed by an attacker key (its certificate in KeyInfo)', signedWith(() => ({ signing: 'both', keys: g.attacker })), 'signature_invalid');
  refusal('G78b', 'SHA-1 signature by the right key', signedWith({ algorithm: RSA_SHA1 }), 'weak_signature_algorithm|signature_invalid');
  const forgedFrom = (xml, f, victim) =>
    xml
      .slice(xml.indexOf('<saml:Assertion'), xml.indexOf('</saml:Assertion>') + '</saml:Assertion>'.length)
      .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
      .replace(new RegExp(f.assertionId, 'g'), `_forged${randomUUID()}`)
      .split(f.nameId)
      .join(victim);
  const victim = () => ctx.jitUserEmail ?? mail('happy');
  refusal('G79a', 'XSW: a second, unsigned assertion appended', signedWith({ mutate: (xml, f) => xml.replace('</samlp:Response>', `${forgedFrom(xml, f, victim())}</samlp:Response>`) }), 'signature_invalid|response_malformed');
  refusal('G79b', 'XSW: the signed assertion moved into samlp:Extensions, a forged one in its place', signedWith({
    mutate: (xml, f) => {
      const signed = xml.slice(xml.indexOf('<saml:Assertion'), xml.indexOf('</saml:Assertion>') + '</saml:Assertion>'.length);
      return xml.replace(signed, forgedFrom(xml, f, victim())).replace('<samlp:Status>', `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`);
    },
  }), 'signature_invalid|response_malformed');
  refusal('G79c', 'XSW: a forged assertion carrying the signed one’s ID, before it', signedWith({
    mutate: (xml, f) => {
      const forged = forgedFrom(xml, f, victim()).replace(/ID="_forged[^"]+"/, `ID="${f.assertionId}"`);
      return xml.replace('<saml:Assertion', `${forged}<saml:Assertion`);
    },
  }), 'signature_invalid|response_malformed');
  refusal('G79d', 'XSW: two XML roots (a forged response after the signed one)', signedWith({ mutate: (xml, f) => `${xml}${xml.replace(f.nameId, victim())}` }), 'signature_invalid|response_malformed');
  refusal('G79e', 'signed error response (Responder) carrying a forged unsigned assertion', signedWith({
    signing: 'response',
    fields: { statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Responder' },
  }), null);
  refusal('G79f', 'Reference URI without # (signature over nothing we read)', signedWith({ mutate: (xml) => xml.replace(/URI="#[^"]+"/, 'URI=""') }), 'signature_invalid|response_malformed');
  add({
    id: 'G80',
    title: 'NameID with a comment (victim@domain<!---->.evil): never resolves to the victim',
    run: async () => {
      const target = victim();
      const res = await login((requestId) =>
        g.idp.response(requestId, { email: `${target}.evil.test`, attributes: { email: `${target}.evil.test` } }, { fields: { nameIdXml: `${target}<!---->.evil.test` } }),
      );
      const rows = await ctx.q(`SELECT i.uid, u.email FROM sso_identities i JOIN users u ON u.id = i.user_id WHERE i.provider_id = $1 AND (i.uid = $2 OR u.email = $2)`, [g.ids.saml, target]);
      res.problem = rows.length ? `resolved to the victim: ${JSON.stringify(rows)}` : null;
      return res;
    },
    expect: { status: 302, location: /^(\/|\/login\?error=sso_[a-z_]+|\/sso\/link)$/ },
    check: (res) => res.problem,
  });
  const dtd = (xml, decl) => Buffer.from(`<?xml version="1.0"?>${decl}${Buffer.from(xml, 'base64').toString()}`).toString('base64');
  refusal('G81a', 'DOCTYPE with SYSTEM file:///etc/passwd', () => login((requestId) => dtd(g.idp.response(requestId, person('xxe')), '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>')), 'response_malformed');
  refusal('G81b', 'billion laughs', () => login((requestId) => dtd(g.idp.response(requestId, person('lol')), `<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${'b'.repeat(i + 1)} "${`&${i ? 'b'.repeat(i) : 'a'};`.repeat(10)}">`).join('')}]>`)), 'response_malformed');
  refusal('G81c', 'parameter entities', () => login((requestId) => dtd(g.idp.response(requestId, person('pe')), '<!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:1/x.dtd"> %p;]>')), 'response_malformed');
  refusal('G82', 'the same SAMLResponse posted twice', async (mark) => {
    const s = await begin();
    const response = g.idp.response(s.requestId, person('replay'));
    const first = await postAndReturn(response, s.cookie);
    if (first.location !== '/') throw new Error(`first use went to ${first.location}`);
    await mark();
    return post(response);
  }, 'in_response_to_invalid|assertion_replayed');
  refusal('G82b', 'an assertion ID seen before, in an answer to a fresh request', async (mark) => {
    const assertionId = `_a${randomUUID()}`;
    const first = await login((requestId) => g.idp.response(requestId, person('aid'), { fields: { assertionId } }));
    if (first.location !== '/') throw new Error(`first use went to ${first.location}`);
    await mark();
    return login((requestId) => g.idp.response(requestId, person('aid'), { fields: { assertionId } }));
  }, 'assertion_replayed');
  refusal('G83a', 'unsolicited response (no InResponseTo)', signedWith({ fields: { inResponseTo: null } }), 'in_response_to_invalid');
  refusal('G83b', 'InResponseTo we never issued', signedWith({ fields: { inResponseTo: `_${randomUUID()}` } }), 'in_response_to_invalid');
  refusal('G83c', 'InResponseTo minted for another provider', async () => {
    const other = await begin(names.saml2);
    return login(() => g.idp.response(other.requestId, person('mallory')));
  }, 'in_response_to_invalid');
  refusal('G84a', 'Audience of another SP', () => login((requestId) => g.idp.response(requestId, person('mallory'), { fields: { audience: `${ctx.appUrl}/auth/saml/${g.ids.saml2}` } })), 'audience_mismatch');
  refusal('G84b', 'no AudienceRestriction', signedWith({ fields: { audience: null } }), 'audience_mismatch');
  refusal('G84c', 'empty Audience', signedWith({ fields: { audience: '' } }), 'audience_mismatch');
  refusal('G85a', 'Destination = attacker URL', signedWith({ fields: { destination: 'https://evil.example/acs' } }), 'destination_mismatch');
  refusal('G85b', 'Destination = the ACS of another provider', () => login((requestId) => g.idp.response(requestId, person('mallory'), { fields: { destination: `${ctx.appUrl}/auth/saml/${g.ids.saml2}/callback` } })), 'destination_mismatch');
  refusal('G85c', 'bearer Recipient differs from our ACS', signedWith({ fields: { recipient: 'https://evil.example/acs' } }), 'recipient_mismatch');
  refusal('G85d', 'bearer Recipient missing', signedWith({ fields: { recipient: null } }), 'recipient_missing');
  const iso = (ms) => new Date(Date.now() + ms).toISOString();
  refusal('G86a', 'NotOnOrAfter 5 minutes ago', () => login((requestId) => g.idp.response(requestId, person('mallory'), { fields: { notOnOrAfter: iso(-300_000), subjectNotOnOrAfter: iso(-300_000) } })), 'assertion_expired');
  refusal('G86b', 'NotBefore in 5 minutes', () => login((requestId) => g.idp.response(requestId, person('mallory'), { fields: { notBefore: iso(300_000) } })), 'assertion_not_yet_valid');
  refusal('G86c', 'SubjectConfirmationData expired', () => login((requestId) => g.idp.response(requestId, person('mallory'), { fields: { subjectNotOnOrAfter: iso(-300_000) } })), 'assertion_expired|subject_confirmation_expired|recipient_mismatch');
  add({ id: 'G86d', title: 'NotOnOrAfter 30 s ago, inside the 60 s skew -> accepted', run: () => login((requestId) => g.idp.response(requestId, person('skew'), { fields: { notOnOrAfter: iso(-30_000), subjectNotOnOrAfter: iso(60_000) } })), expect: { status: 302, location: /^\/$/ } });
  add({ id: 'G86e', title: 'NotBefore in 30 s, inside the skew -> accepted', run: () => login((requestId) => g.idp.response(requestId, person('skew2'), { fields: { notBefore: iso(30_000) } })), expect: { status: 302, location: /^\/$/ } });
  refusal('G87', 'assertion Issuer differs from the configured IdP (same key)', signedWith({ fields: { issuer: 'https://other-idp.hostile.test/' } }), 'issuer_mismatch');
  refusal('G88a', 'status Responder around a validly signed assertion', signedWith({ fields: { statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Responder' } }), 'idp_status_error');
  refusal('G88b', 'status AuthnFailed around a validly signed assertion', signedWith({ fields: { statusCode: 'urn:oasis:names:tc:SAML:2.0:status:AuthnFailed' } }), 'idp_status_error');
  refusal('G88c', 'an EncryptedAssertion we hold no key for', signedWith({ signing: 'response', mutate: (xml) => xml.replace(/<saml:Assertion[\s\S]*<\/saml:Assertion>/, '<saml:EncryptedAssertion><xenc:EncryptedData xmlns:xenc="http://www.w3.org/2001/04/xmlenc#"/></saml:EncryptedAssertion>') }), null);
  refusal('G89a', 'SAMLResponse not base64', () => post('%%%not base64%%%'), 'response_malformed');
  refusal('G89b', 'SAMLResponse not XML', () => post(Buffer.from('hello, not xml').toString('base64')), 'response_malformed');
  refusal('G89c', 'SAMLResponse empty', () => post(''), 'response_malformed|response_missing');
  add({ id: 'G89d', title: 'SAMLResponse of 5 MB -> 413 from the body limit, before any parsing', run: () => post(Buffer.from(`<samlp:Response>${'x'.repeat(5 * 1024 * 1024)}</samlp:Response>`).toString('base64')), expect: { status: 413, error: 'payload_too_large' } });
  refusal('G89e', 'SAMLResponse missing, or an array', () => ctx.req({ method: 'POST', path: `/auth/saml/${g.ids.saml}/callback`, form: { 'SAMLResponse[]': 'x', RelayState: '/' } }), null);
  add({
    id: 'G90',
    title: 'RelayState https://evil.example/ and //evil.example: the sign-in ends on a same-origin path',
    run: async () => {
      const s = await begin();
      const posted = await post(g.idp.response(s.requestId, person('relay')), g.ids.saml, '//evil.example/x');
      if (posted.status !== 303) return posted;
      const res = await ctx.req({ path: posted.location, headers: { cookie: s.cookie } });
      res.problem = /evil/.test(`${posted.location} ${res.location}`) ? 'redirected off-site' : null;
      return res;
    },
    expect: { status: 302, location: /^\/$/ },
    check: (res) => res.problem,
  });
  refusal('G91b', 'transient NameID format -> no JIT', () => login((requestId) => g.idp.response(requestId, person('transient'), { fields: { nameIdFormat: TRANSIENT_FORMAT } })), 'nameid_transient');
  refusal('G91c', 'a GET to the ACS carrying a SAMLResponse in the query', () => ctx.req({ path: `/auth/saml/${g.ids.saml}/callback?SAMLResponse=abc` }), 'state_missing');
  refusal('G91d', 'the ACS result completed in another browser (no sign-in cookie)', async () => {
    const s = await begin();
    const posted = await post(g.idp.response(s.requestId, person('csrf')));
    if (posted.status !== 303) return posted;
    return ctx.req({ path: posted.location });
  }, 'state_browser_mismatch');
  add({
    id: 'G92a',
    title: 'SP metadata: XML with entityID and ACS, no private key material',
    run: async () => ctx.req({ path: `/auth/saml/${g.ids.saml}/metadata` }),
    expect: { status: 200 },
    check: (res) => (!/entityID=/.test(res.text) || !/AssertionConsumerService/.test(res.text) ? 'no entityID/ACS' : /PRIVATE KEY/.test(res.text) ? 'private key in metadata' : null),
  });
  add({ id: 'G92b', title: 'metadata of an unknown provider id -> 404', run: () => ctx.req({ path: `/auth/saml/${randomUUID()}/metadata` }), expect: { status: 404 } });
  add({ id: 'G92c', title: 'metadata of a non-UUID id -> 404', run: () => ctx.req({ path: '/auth/saml/..%2F..%2Fetc/metadata' }), expect: { status: 404 } });
  add({ id: 'G92d', title: 'metadata of an OIDC provider id -> 404', run: () => ctx.req({ path: `/auth/saml/${ctx.oidcProviderId ?? randomUUID()}/metadata` }), expect: { status: 404 } });
  add({
    id: 'G92e',
    // Decided: metadata stays readable while a provider is disabled (new providers start disabled, and the IdP is set
    // up from this document before the provider is enabled); sign-in through it is refused.
    title: 'a disabled SAML provider: the ACS refuses its responses (metadata stays readable for setting up the IdP)',
    run: async () => {
      const s = await begin(names.saml2);
      const off = await ctx.req({ method: 'POST', path: `/api/v1/admin/sso_providers/${g.ids.saml2}/disable`, session: ctx.sessions.ops });
      if (off.status !== 200) throw new Error(`disable: ${off.status}`);
      const meta = await ctx.req({ path: `/auth/saml/${g.ids.saml2}/metadata` });
      const res = await post(g.idp.response(s.requestId, person('disabled')), g.ids.saml2);
      res.problem = meta.status !== 200 || /PRIVATE KEY/.test(meta.text) ? `metadata ${meta.status}` : null;
      return res;
    },
    expect: REFUSED,
    check: (res) => res.problem,
  });
  return cases;
};
