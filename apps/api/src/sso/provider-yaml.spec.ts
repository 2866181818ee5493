import { parseProvidersYaml } from './provider-yaml';

describe('parseProvidersYaml', () => {
  it('reads the environment section, falls back to default, and fills ${VARIABLES}', () => {
    const text = `
default:
  providers:
    - id: fallback
      strategy: openid_connect
production:
  providers:
    - id: corp
      strategy: openid_connect
      label: Corp
      issuer: https://idp.example.com
      client_id: hearth
      client_secret: \${CORP_SECRET}
      settings:
        default_role: admin
        role_mapping: { groupMappings: [{ group: admins, role: super_admin }] }
`;
    const parsed = parseProvidersYaml(text, 'production', { CORP_SECRET: 's3cret' });
    expect(parsed.problems).toEqual([]);
    expect(parsed.providers).toEqual([
      {
        name: 'corp',
        strategy: 'openid_connect',
        label: 'Corp',
        issuer: 'https://idp.example.com',
        client_id: 'hearth',
        client_secret: 's3cret',
        default_role: 'admin',
        role_mapping: { groupMappings: [{ group: 'admins', role: 'super_admin' }] },
        enabled: true,
      },
    ]);
    expect(parseProvidersYaml(text, 'test', {}).providers.map((p) => p.name)).toEqual(['fallback']);
  });

  it("reads Sure's SAML settings idp_sso_url and idp_slo_url as sso_url and slo_url; our own name wins when both are given", () => {
    const text = `
providers:
  - id: sure-saml
    strategy: saml
    settings:
      idp_sso_url: https://idp.example.com/sso
      idp_slo_url: https://idp.example.com/slo
      idp_certificate: PEM
  - id: both
    strategy: saml
    sso_url: https://idp.example.com/ours
    settings:
      idp_sso_url: https://idp.example.com/theirs
`;
    const parsed = parseProvidersYaml(text, 'production', {});
    expect(parsed.problems).toEqual([]);
    expect(parsed.providers).toEqual([
      { name: 'sure-saml', strategy: 'saml', sso_url: 'https://idp.example.com/sso', slo_url: 'https://idp.example.com/slo', idp_certificate: 'PEM', enabled: true },
      { name: 'both', strategy: 'saml', sso_url: 'https://idp.example.com/ours', enabled: true },
    ]);
  });

  it("skips an entry that leans on Sure's idp_metadata_url or idp_cert_fingerprint, saying what to set instead; given that setting too, they are ignored", () => {
    const text = `
providers:
  - id: by-metadata
    strategy: saml
    settings:
      idp_metadata_url: https://idp.example.com/metadata
  - id: by-fingerprint
    strategy: saml
    settings:
      idp_sso_url: https://idp.example.com/sso
      idp_cert_fingerprint: "AB:CD"
  - id: both
    strategy: saml
    settings:
      idp_metadata_url: https://idp.example.com/metadata
      idp_sso_url: https://idp.example.com/sso
      idp_cert_fingerprint: "AB:CD"
      idp_certificate: PEM
`;
    const parsed = parseProvidersYaml(text, 'production', {});
    expect(parsed.problems).toEqual([
      "by-metadata: idp_metadata_url is not read (Sure's sign-in ignores it too): copy the IdP's SSO URL, entity ID and signing certificate from its metadata into sso_url, idp_entity_id and idp_certificate",
      "by-fingerprint: idp_cert_fingerprint is not accepted: set idp_certificate to the IdP's signing certificate (PEM), which responses are verified against",
    ]);
    expect(parsed.providers).toEqual([{ name: 'both', strategy: 'saml', sso_url: 'https://idp.example.com/sso', idp_certificate: 'PEM', enabled: true }]);
  });

  it("reads Sure's role_mapping, { role: [groups] }, as groupMappings; a shape it is not (guest: no such role) is left to validation", () => {
    const text = `
providers:
  - id: corp
    strategy: openid_connect
    settings:
      role_mapping: { super_admin: [Owners], admin: [Admins, IT], member: ['*'] }
  - id: guests
    strategy: openid_connect
    settings:
      role_mapping: { guest: [Visitors] }
`;
    const [corp, guests] = parseProvidersYaml(text, 'production', {}).providers;
    expect(corp.role_mapping).toEqual({
      groupMappings: [
        { group: 'Owners', role: 'super_admin' },
        { group: 'Admins', role: 'admin' },
        { group: 'IT', role: 'admin' },
        { group: '*', role: 'member' },
      ],
    });
    expect(guests.role_mapping).toEqual({ guest: ['Visitors'] });
  });

  it('skips entries with a bad name, an unknown strategy or a missing variable, naming why', () => {
    const text = `
providers:
  - { name: "Bad Name", strategy: openid_connect }
  - { name: github, strategy: github }
  - { name: corp, strategy: oauth2, client_secret: "\${NOPE}" }
  - { name: off, strategy: oauth2, enabled: false }
`;
    const parsed = parseProvidersYaml(text, 'test', {});
    expect(parsed.problems).toEqual([
      'providers[0]: name must be lower-case letters, digits, _ or -',
      'github: strategy must be one of openid_connect, oauth2, saml',
      'corp: environment variables not set: NOPE',
    ]);
    expect(parsed.providers).toEqual([{ name: 'off', strategy: 'oauth2', enabled: false }]);
  });

  it('keeps the first of two entries with one name and names the one skipped (the second would replace it unseen)', () => {
    const text = `
providers:
  - { id: corp, strategy: openid_connect, label: First }
  - { id: corp, strategy: saml, label: Second }
`;
    const parsed = parseProvidersYaml(text, 'production', {});
    expect(parsed.providers.map((p) => [p.name, p.label])).toEqual([['corp', 'First']]);
    expect(parsed.problems).toEqual(['providers[1]: corp is already the name of providers[0]; names must be unique']);
  });

  it('refuses a providers value that is not a list', () => {
    expect(() => parseProvidersYaml('providers: corp', 'test', {})).toThrow('providers must be a list');
  });
});
