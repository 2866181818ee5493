// `npm run cli -- <command>`: operator commands against the configured database (see --help).
// Runs in this process once the API build is current (checking that costs milliseconds).
import { createRequire } from 'node:module';
import { buildApi } from './build.mjs';

const require = createRequire(import.meta.url);
await buildApi();
require('./dist.cjs');
require('../dist/api/apps/api/src/cli/cli.js'); // reads process.argv.slice(2), as `node cli.js <command>` would
