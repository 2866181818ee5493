import { randomUUID } from 'node:crypto';

/**
 * A real dynamic import() of an ESM-only package from CommonJS code (TypeScript would compile `import()` to
 * require()). The source is unique per module instance: V8 caches compiled functions by source, and a cached one
 * keeps the module context it was first compiled in, which under Jest is a test file whose environment is gone.
 */
export const importEsm = new Function('specifier', `return import(specifier); // ${randomUUID()}`) as <T>(specifier: string) => Promise<T>;
