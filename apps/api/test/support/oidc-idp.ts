import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importEsm } from '../../src/common/esm';

/**
 * Types for the in-process OpenID Provider of oidc-idp-server.mjs (plain JS, so the hostile harness runs the same
 * one): API tests drive it with `login()`, browser tests through its login form at /interaction/<uid>.
 * `tamperIdToken` rewrites the ID token of token responses, to test the relying party's refusals.
 */

export interface IdpAccount {
  /** Defaults to the account's key in `accounts`. */
  sub?: string;
  email?: unknown;
  email_verified?: unknown;
  given_name?: string;
  family_name?: string;
  groups?: unknown;
  [claim: string]: unknown;
}

export interface IdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
  token_endpoint_auth_method?: 'client_secret_post' | 'client_secret_basic';
}

export interface Jwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** `idp`: re-signed with the provider's own key; `attacker`: with another RSA key; `none`: unsigned (alg none). */
export type Signer = 'idp' | 'attacker' | 'none';
export type IdTokenTamper = (token: Jwt) => Jwt & { signer: Signer };

export interface OidcIdp {
  issuer: string;
  /** Live: edit an account's claims between logins. */
  accounts: Record<string, IdpAccount>;
  /** Follows an authorization URL through the provider's login as `accountId`; returns the redirect back to the client. */
  login(authorizationUrl: string, accountId: string): Promise<URL>;
  tamperIdToken(tamper: IdTokenTamper | null): void;
  /** Answers every token request with this (an outage: a 500 page, a 503), until null. */
  answerToken(answer: { status: number; contentType: string; body: string } | null): void;
  close(): Promise<void>;
}

type IdpServerModule = { startIdp(options: { clients: IdpClient[]; accounts: Record<string, IdpAccount> }): Promise<OidcIdp> };

export async function startOidcIdp(options: { clients: IdpClient[]; accounts: Record<string, IdpAccount> }): Promise<OidcIdp> {
  const { startIdp } = await importEsm<IdpServerModule>(pathToFileURL(join(__dirname, 'oidc-idp-server.mjs')).href);
  return startIdp(options);
}
