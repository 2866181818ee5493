// The catalogue, in group order (A to I; docs/development.md#harnesses). Each group file exports (ctx) => case rows.
import a from './a-api-keys.mjs';
import b from './b-isolation.mjs';
import c from './c-csv.mjs';
import d from './d-ndjson.mjs';
import e from './e-transport.mjs';
import f from './f-oidc.mjs';
import g from './g-saml.mjs';
import h from './h-sessions.mjs';
import i from './i-admin.mjs';

export const CASES = (ctx) => [a, b, c, d, e, f, g, h, i].flatMap((group) => group(ctx));
