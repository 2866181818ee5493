// `npm test`: every Jest suite (unit, integration and browser), then one closing line "N passed, N failed".
// Integration suites use DATABASE_URL / REDIS_URL when set, else the embedded PGlite and PostgreSQL-backed queue.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { buildApi } from './build.mjs';

const root = new URL('..', import.meta.url).pathname;
await buildApi(); // the CLI tests drive the compiled operator CLI
mkdirSync(join(root, 'tmp'), { recursive: true });
const results = join(root, 'tmp/jest-results.json');
const jest = spawnSync(
  process.execPath,
  ['--experimental-vm-modules', join(root, 'node_modules/jest/bin/jest.js'), '--maxWorkers=2', '--json', `--outputFile=${results}`, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: process.env },
);
/** The first lines of a failure message, without colour codes or library stack frames. */
const clip = (text) =>
  stripVTControlCharacters(text)
    .split('\n')
    .filter((line) => !line.includes('node_modules/'))
    .slice(0, 20)
    .join('\n');
let summary = null;
try {
  summary = JSON.parse(readFileSync(results, 'utf8'));
} catch {
  // Jest died before writing results; its exit code below says so.
}
const engine = process.env.DATABASE_URL ? 'PostgreSQL + ' + (process.env.REDIS_URL ? 'Redis' : 'PostgreSQL queue') : 'embedded PGlite';
// A suite that fails to load counts as a failure, though it ran no test.
const failed = summary ? summary.numFailedTests + summary.numRuntimeErrorTestSuites : 0;
if (summary) {
  // Repeat each failure at the end, where a long log's tail shows it.
  for (const suite of summary.testResults) {
    const path = suite.name.replace(root, '');
    const failures = suite.assertionResults.filter((test) => test.status === 'failed');
    if (failures.length === 0 && suite.status === 'failed') console.log(`\nFAILED ${path}\n${clip(suite.message)}`);
    for (const test of failures) console.log(`\nFAILED ${path} › ${test.fullName}\n${clip(test.failureMessages.join('\n'))}`);
  }
  console.log(`\ntests (${engine}): ${summary.numPassedTests} passed, ${failed} failed`);
}
process.exit(jest.status ?? 1);
