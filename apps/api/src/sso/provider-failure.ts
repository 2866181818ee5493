/**
 * Failures of our own requests to an identity provider (discovery, JWKS, token, user info), told apart from refusals
 * of what it answered: a provider that cannot be reached, or answers with a server error or something that is not its
 * protocol, is unavailable (the sign-in may work later; nothing is wrong with the user or the token).
 */

/** OpenSSL verification codes that mean the runtime does not trust the certificate's issuer (a private CA). */
const UNTRUSTED_CERTIFICATE = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
]);

/** The sentence the admin reads for an untrusted certificate, in the audit log and the provider screens. */
export const CERTIFICATE_NOT_TRUSTED = 'certificate not trusted (set NODE_EXTRA_CA_CERTS to your CA bundle)';

const OTHER_CERTIFICATE_PROBLEMS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'certificate expired',
  CERT_NOT_YET_VALID: 'certificate not yet valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate does not name this host',
};

/** openid-client / oauth4webapi codes of an answer that is not the protocol: a wrong status, not JSON, unparsable. */
const NOT_THE_PROTOCOL = new Set(['OAUTH_RESPONSE_IS_NOT_CONFORM', 'OAUTH_RESPONSE_IS_NOT_JSON', 'OAUTH_TIMEOUT']);

interface Failure {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  status?: unknown;
  cause?: unknown;
}

/** The error and its causes, outermost first (fetch wraps the socket's error in `cause`; a few levels suffice). */
function causes(error: unknown): Failure[] {
  const chain: Failure[] = [];
  for (let link = error; link && typeof link === 'object' && chain.length < 5; link = (link as Failure).cause) chain.push(link as Failure);
  return chain;
}

const codeOf = (failure: Failure): string | null => (typeof failure.code === 'string' ? failure.code : null);

/** Why no answer came from the provider at all (TLS, DNS, connection, timeout), in words; null when one came. */
export function connectionProblem(error: unknown): string | null {
  const chain = causes(error);
  for (const failure of chain) {
    const code = codeOf(failure);
    if (code && UNTRUSTED_CERTIFICATE.has(code)) return `${CERTIFICATE_NOT_TRUSTED}: ${code}`;
    if (code && OTHER_CERTIFICATE_PROBLEMS[code]) return `${OTHER_CERTIFICATE_PROBLEMS[code]}: ${code}`;
  }
  for (const failure of chain) {
    const code = codeOf(failure);
    if (code === 'OAUTH_TIMEOUT' || failure.name === 'TimeoutError') return 'the provider did not answer in time';
    // undici's network failure: TypeError "fetch failed", its cause a system error (ECONNREFUSED, ENOTFOUND, ...).
    if (failure.message === 'fetch failed') {
      const system = chain.map(codeOf).find((c) => c !== null && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(c));
      return `could not connect to the provider${system ? `: ${system}` : ''}`;
    }
  }
  return null;
}

/**
 * Whether a failed request to the provider means the provider is unavailable rather than that its answer was refused:
 * no answer at all, an HTTP 5xx (an OAuth error body included), or an answer that is not JSON or has an unexpected
 * status.
 */
export function providerUnavailable(error: unknown): boolean {
  if (connectionProblem(error) !== null) return true;
  return causes(error).some((failure) => {
    const code = codeOf(failure);
    if (code && NOT_THE_PROTOCOL.has(code)) return true;
    if (code === 'OAUTH_PARSE_ERROR' && typeof failure.message === 'string' && failure.message.includes('"response" body')) return true;
    return typeof failure.status === 'number' && failure.status >= 500;
  });
}

/**
 * A short, secret-free description of a failed provider request, for audit records and the admin: the connection
 * problem in words when there was one, else the error's name, code and message, with the HTTP status when known.
 */
export function describeProviderFailure(error: unknown): string {
  const connection = connectionProblem(error);
  if (connection) return connection;
  if (!(error instanceof Error)) return 'unknown error';
  const chain = causes(error);
  const failure = error as Failure & { error?: unknown };
  const code = typeof failure.error === 'string' ? failure.error : codeOf(failure);
  // openid-client keeps the provider's Response as the cause of a status or content-type error.
  const status = chain.map((link) => link.status).find((s): s is number => typeof s === 'number');
  return `${error.name}${code ? `(${code})` : ''}: ${error.message}${status ? ` (HTTP ${status})` : ''}`.slice(0, 300);
}
