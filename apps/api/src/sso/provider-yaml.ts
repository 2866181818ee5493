import { parse } from 'yaml';
import { SSO_STRATEGIES } from '@hearth/contracts';
import { isRole } from '@hearth/domain/role-mapping';
import { ConfigError } from '../config/config';
import type { ProviderFields } from './provider-fields';

// config/auth.yml: the providers list, either at the top level or under an environment section
// (`<NODE_ENV>:` falling back to `default:`), as in Sure. Values may name environment variables as ${NAME}, so
// secrets can stay out of the file. Each entry: id/name, strategy, label, issuer, client_id, client_secret, scopes,
// ... (the admin API's field names); Sure's nested `settings:` keys are accepted too, with its SAML names
// idp_sso_url and idp_slo_url.

export interface ProviderSpec extends ProviderFields {
  name: string;
  strategy: (typeof SSO_STRATEGIES)[number];
}

export interface ParsedProviders {
  providers: ProviderSpec[];
  /** One line per entry that was skipped, naming why. */
  problems: string[];
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,99}$/;

/** Sure's names of SAML settings -> ours, so its auth.yml configures the same IdP here. */
const SURE_KEYS: Record<string, string> = { idp_sso_url: 'sso_url', idp_slo_url: 'slo_url' };

/**
 * Sure's SAML settings with no counterpart here, and what to write instead: an entry that leans on one (without the
 * setting it stands for) is skipped with that advice, rather than for a missing setting the file never named.
 */
const SURE_SETTINGS_NOT_READ: { key: string; instead: string; advice: string }[] = [
  {
    key: 'idp_metadata_url',
    instead: 'sso_url',
    advice: "idp_metadata_url is not read (Sure's sign-in ignores it too): copy the IdP's SSO URL, entity ID and signing certificate from its metadata into sso_url, idp_entity_id and idp_certificate",
  },
  {
    key: 'idp_cert_fingerprint',
    instead: 'idp_certificate',
    advice: "idp_cert_fingerprint is not accepted: set idp_certificate to the IdP's signing certificate (PEM), which responses are verified against",
  },
];

function interpolate(value: unknown, env: Record<string, string | undefined>, missing: Set<string>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Z0-9_]+)\}/g, (_, name: string) => {
      if (env[name] === undefined) missing.add(name);
      return env[name] ?? '';
    });
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env, missing));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, env, missing)]));
  }
  return value;
}

/**
 * Sure's role_mapping, `{ super_admin: [groups], admin: [...], member: [...] }`, as our groupMappings (the highest
 * role wins either way). Anything else, including Sure's `guest`, which has no role here, is left for validation to
 * name.
 */
function fromSureRoleMapping(mapping: unknown): unknown {
  if (!mapping || typeof mapping !== 'object' || Array.isArray(mapping)) return mapping;
  const entries = Object.entries(mapping as Record<string, unknown>);
  const sure = entries.length > 0 && entries.every(([role, groups]) => isRole(role) && Array.isArray(groups) && groups.every((g) => typeof g === 'string'));
  if (!sure) return mapping;
  return { groupMappings: entries.flatMap(([role, groups]) => (groups as string[]).map((group) => ({ group, role }))) };
}

export function parseProvidersYaml(text: string, nodeEnv: string, env: Record<string, string | undefined> = process.env): ParsedProviders {
  const document = (parse(text) ?? {}) as Record<string, unknown>;
  const section = (key: string) => (document[key] && typeof document[key] === 'object' ? (document[key] as Record<string, unknown>) : null);
  const raw = document.providers ?? section(nodeEnv)?.providers ?? section('default')?.providers ?? [];
  if (!Array.isArray(raw)) throw new Error('providers must be a list');
  const providers: ProviderSpec[] = [];
  const problems: string[] = [];
  const indexByName = new Map<string, number>();
  raw.forEach((entry: unknown, index: number) => {
    if (!entry || typeof entry !== 'object') return problems.push(`providers[${index}]: not a mapping`);
    const missing = new Set<string>();
    const { settings, id, ...fields } = interpolate(entry, env, missing) as Record<string, unknown>;
    const spec = { ...(settings && typeof settings === 'object' ? settings : {}), ...fields } as Record<string, unknown>;
    spec.name = spec.name ?? id;
    for (const [sure, ours] of Object.entries(SURE_KEYS)) {
      if (spec[ours] === undefined && spec[sure] !== undefined) spec[ours] = spec[sure];
      delete spec[sure];
    }
    spec.role_mapping = fromSureRoleMapping(spec.role_mapping);
    if (typeof spec.name !== 'string' || !NAME.test(spec.name)) return problems.push(`providers[${index}]: name must be lower-case letters, digits, _ or -`);
    const leanedOn = SURE_SETTINGS_NOT_READ.find(({ key, instead }) => spec[key] !== undefined && spec[instead] === undefined);
    if (leanedOn) return problems.push(`${spec.name}: ${leanedOn.advice}`);
    for (const { key } of SURE_SETTINGS_NOT_READ) delete spec[key];
    if (!SSO_STRATEGIES.includes(spec.strategy as ProviderSpec['strategy'])) {
      return problems.push(`${spec.name}: strategy must be one of ${SSO_STRATEGIES.join(', ')}`);
    }
    // The seeder upserts by name: a second entry would silently replace the first.
    if (indexByName.has(spec.name)) return problems.push(`providers[${index}]: ${spec.name} is already the name of providers[${indexByName.get(spec.name)}]; names must be unique`);
    indexByName.set(spec.name, index);
    if (missing.size) return problems.push(`${spec.name}: environment variables not set: ${[...missing].join(', ')}`);
    spec.enabled = spec.enabled === undefined ? true : spec.enabled === true;
    providers.push(spec as unknown as ProviderSpec);
  });
  return { providers, problems };
}

/**
 * parseProvidersYaml for the text of `file`: a file that is not YAML, or whose providers are not a list, is an error
 * naming the file and its setting (the YAML parser's own message gives the line and column).
 */
export function parseProvidersFile(text: string, file: string, nodeEnv: string): ParsedProviders {
  try {
    return parseProvidersYaml(text, nodeEnv);
  } catch (error) {
    throw new ConfigError(`${file} (AUTH_PROVIDERS_FILE) cannot be used: ${error instanceof Error ? error.message : String(error)}`);
  }
}
