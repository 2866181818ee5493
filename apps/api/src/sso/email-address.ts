// A strict reading of an RFC 5322 addr-spec (local-part "@" domain) for deciding which domain an IdP e-mail is in.
// Only the forms real mailboxes use are accepted: a dot-atom or quoted-string local part and a dot-atom domain of
// DNS labels; comments, display names, domain literals, whitespace, non-ASCII and a trailing dot are refused. The one
// unquoted "@" splits the address, so "a@evil.com@allowed.com" is refused instead of being read as allowed.com.

export interface EmailAddress {
  local: string;
  /** ASCII, lower-cased. */
  domain: string;
  /** local@domain with the domain lower-cased (the local part as sent). */
  address: string;
}

const ATEXT = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
// qtext and quoted-pair without control characters or non-ASCII.
const QUOTED = /^"([\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;

function splitAtUnquotedAt(value: string): [string, string] | null {
  let quoted = false;
  let at = -1;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (c === '@' && !quoted) {
      if (at !== -1) return null;
      at = i;
    }
  }
  if (quoted || at <= 0) return null;
  return [value.slice(0, at), value.slice(at + 1)];
}

const validLocal = (local: string) =>
  local.length <= 64 && (QUOTED.test(local) || local.split('.').every((atom) => ATEXT.test(atom)));

function validDomain(domain: string): boolean {
  const labels = domain.split('.');
  return domain.length <= 253 && labels.length >= 2 && labels.every((label) => LABEL.test(label)) && /[a-z]/.test(labels[labels.length - 1]);
}

/** The address, or null when `value` is not one well-formed addr-spec string. */
export function parseEmailAddress(value: unknown): EmailAddress | null {
  if (typeof value !== 'string' || value.length > 320) return null;
  const parts = splitAtUnquotedAt(value);
  if (!parts) return null;
  const [local, rawDomain] = parts;
  const domain = rawDomain.toLowerCase();
  if (!validLocal(local) || !validDomain(domain)) return null;
  return { local, domain, address: `${local}@${domain}` };
}

/** Whether JIT creation may use this domain: any when the list is empty, else an exact (lower-cased) match. */
export function domainAllowed(address: EmailAddress, allowedDomains: readonly string[]): boolean {
  return allowedDomains.length === 0 || allowedDomains.includes(address.domain);
}
