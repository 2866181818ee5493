import { ROLES } from '@hearth/contracts';
import { validateRoleMappingConfig } from '@hearth/domain/role-mapping';
import type { RoleMappingConfig } from '@hearth/domain/role-mapping';
import { CLIENT_SECRET_PURPOSE } from './oidc-gateway';
import { parseCertificates } from './saml-profile';
import { SecretBox } from './secret-box';
import { TOKEN_AUTH_METHODS } from './sso-providers.dto';
import type { CreateProviderDto, UpdateProviderDto } from './sso-providers.dto';
import { SsoProvider } from './sso.entities';

// Provider fields: copying admin-API or YAML input onto a provider and checking it. Kept apart from the service so
// the YAML seeder can use them without importing the service (which depends on the provider source).

export const SP_PRIVATE_KEY_PURPOSE = 'sso_providers.sp_private_key';

/**
 * Path segments under /auth that are routes of their own, so no provider may take them as its name: its sign-in
 * address /auth/<name> would be answered by that route instead (a test checks every such route is listed).
 */
export const RESERVED_PROVIDER_NAMES: ReadonlySet<string> = new Set(['config', 'link', 'logout', 'password_reset', 'providers', 'saml', 'session', 'setup']);

/** Provider fields as the admin API and config/auth.yml spell them. */
export type ProviderFields = Partial<CreateProviderDto & UpdateProviderDto>;

/** Request field -> entity column, for fields copied as they are. */
const PLAIN_FIELDS = {
  label: 'label',
  enabled: 'enabled',
  issuer: 'issuer',
  client_id: 'clientId',
  scopes: 'scopes',
  authorization_url: 'authorizationUrl',
  token_url: 'tokenUrl',
  userinfo_url: 'userinfoUrl',
  token_auth_method: 'tokenAuthMethod',
  sso_url: 'ssoUrl',
  slo_url: 'sloUrl',
  idp_entity_id: 'idpEntityId',
  idp_certificate: 'idpCertificate',
  sign_requests: 'signRequests',
  sp_certificate: 'spCertificate',
  default_role: 'defaultRole',
  group_attribute: 'groupAttribute',
  role_mapping: 'roleMapping',
  name: 'name',
} as const satisfies Record<string, keyof SsoProvider>;

/** Copies the given fields onto the entity; returns the names of those that changed (secrets by name only). */
export function applyProviderFields(provider: SsoProvider, input: ProviderFields, box: SecretBox): string[] {
  const changed: string[] = [];
  for (const [field, column] of Object.entries(PLAIN_FIELDS)) {
    const value = (input as Record<string, unknown>)[field];
    if (value === undefined) continue;
    const normalized = typeof value === 'string' ? value.trim() : value;
    const next = normalized === '' && field !== 'label' ? null : normalized;
    if (JSON.stringify((provider as unknown as Record<string, unknown>)[column]) === JSON.stringify(next)) continue;
    (provider as unknown as Record<string, unknown>)[column] = next;
    changed.push(field);
  }
  // A blank secret keeps the stored one (the admin form never receives it back); the same secret changes nothing.
  const secret = (value: string | undefined, stored: string | null, purpose: string): string | null => {
    const plain = value?.trim();
    if (!plain) return null;
    const current = stored && SecretBox.isEnvelope(stored) ? tryOpen(box, stored, purpose) : stored;
    return current === plain ? null : box.seal(plain, purpose);
  };
  const clientSecret = secret(input.client_secret, provider.clientSecretEncrypted ?? null, CLIENT_SECRET_PURPOSE);
  if (clientSecret) {
    provider.clientSecretEncrypted = clientSecret;
    changed.push('client_secret');
  }
  const privateKey = secret(input.sp_private_key, provider.spPrivateKeyEncrypted ?? null, SP_PRIVATE_KEY_PURPOSE);
  if (privateKey) {
    provider.spPrivateKeyEncrypted = privateKey;
    changed.push('sp_private_key');
  }
  return changed;
}

/** What is wrong with a provider as it would be saved (field names as the API spells them); empty when fine. */
export function providerProblems(provider: SsoProvider, changed: string[], creating: boolean, allowInsecureHttp: boolean): string[] {
  const errors: string[] = [];
  if ((creating || changed.includes('name')) && RESERVED_PROVIDER_NAMES.has(provider.name)) errors.push(`name "${provider.name}" is reserved`);
  if (!provider.label?.trim()) errors.push('label must not be empty');
  // Blank input becomes null (applyProviderFields), which these NOT NULL columns cannot hold.
  if (!provider.scopes) errors.push('scopes must not be empty');
  if (!provider.groupAttribute) errors.push('group_attribute must not be empty');
  // The admin API's DTO checks these too; config/auth.yml reaches here without it.
  if (!(ROLES as readonly unknown[]).includes(provider.defaultRole)) errors.push(`default_role must be one of ${ROLES.join(', ')}`);
  if (!(TOKEN_AUTH_METHODS as readonly unknown[]).includes(provider.tokenAuthMethod)) {
    errors.push(`token_auth_method must be one of ${TOKEN_AUTH_METHODS.join(', ')}`);
  }
  // Refused here, not at the first sign-in: PEM blocks, or the bare base64 body IdP metadata prints.
  const certificate = (value: string | null, field: string) => {
    if (value && !parseCertificates(value)) errors.push(`${field} must be an X.509 certificate (PEM, or its base64 body)`);
  };
  const required = (value: unknown, field: string) => {
    if (value === null || value === undefined || value === '') errors.push(`${field} is required for ${provider.strategy} providers`);
  };
  const url = (value: string | null, field: string) => {
    if (value) {
      const problem = urlProblem(value, allowInsecureHttp);
      if (problem) errors.push(`${field} ${problem}`);
    }
  };
  if (provider.strategy === 'openid_connect') {
    required(provider.issuer, 'issuer');
    required(provider.clientId, 'client_id');
    required(provider.clientSecretEncrypted, 'client_secret');
    url(provider.issuer, 'issuer');
    if (provider.scopes && !provider.scopes.split(/\s+/).includes('openid')) errors.push('scopes must include openid');
  } else if (provider.strategy === 'oauth2') {
    for (const [value, field] of [
      [provider.authorizationUrl, 'authorization_url'],
      [provider.tokenUrl, 'token_url'],
      [provider.userinfoUrl, 'userinfo_url'],
    ] as const) {
      required(value, field);
      url(value, field);
    }
    required(provider.clientId, 'client_id');
    required(provider.clientSecretEncrypted, 'client_secret');
    url(provider.issuer, 'issuer');
  } else {
    required(provider.ssoUrl, 'sso_url');
    required(provider.idpCertificate, 'idp_certificate');
    certificate(provider.idpCertificate, 'idp_certificate');
    url(provider.ssoUrl, 'sso_url');
    url(provider.sloUrl, 'slo_url');
    if (provider.signRequests) {
      required(provider.spPrivateKeyEncrypted, 'sp_private_key');
      required(provider.spCertificate, 'sp_certificate');
    }
    certificate(provider.spCertificate, 'sp_certificate');
  }
  errors.push(...validateRoleMappingConfig(provider.roleMapping as RoleMappingConfig));
  return errors;
}

function urlProblem(value: string, allowInsecureHttp: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  const allowed = allowInsecureHttp ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(parsed.protocol)) return `must use https (got ${parsed.protocol.replace(':', '')})`;
  if (parsed.username || parsed.password) return 'must not contain credentials';
  if (parsed.hash) return 'must not contain a fragment';
  return null;
}

/** A provider with the defaults of a new one (disabled until an administrator enables it). */
export function newProvider(strategy: SsoProvider['strategy'], name: string): SsoProvider {
  return Object.assign(new SsoProvider(), {
    name,
    strategy,
    enabled: false,
    label: name,
    scopes: strategy === 'oauth2' ? 'profile email' : 'openid profile email',
    tokenAuthMethod: 'client_secret_post',
    defaultRole: 'member',
    groupAttribute: 'groups',
    roleMapping: {},
    signRequests: false,
  } satisfies Partial<SsoProvider>);
}

function tryOpen(box: SecretBox, envelope: string, purpose: string): string | null {
  try {
    return box.open(envelope, purpose);
  } catch {
    return null;
  }
}
