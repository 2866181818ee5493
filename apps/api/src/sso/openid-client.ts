import type * as OpenIdClient from 'openid-client';
import { importEsm } from '../common/esm';

export type OpenIdClientModule = typeof OpenIdClient;

let loaded: Promise<OpenIdClientModule> | null = null;

/** openid-client v6 is ESM-only; loaded once per process (per test file under Jest). */
export function openIdClient(): Promise<OpenIdClientModule> {
  loaded ??= importEsm<OpenIdClientModule>('openid-client');
  return loaded;
}
