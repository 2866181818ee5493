// `npm test`: every Jest suite (unit, integration and browser), then one closing line "N passed, N failed".
// Integration suites use DATABASE_URL / REDIS_URL when set, else the embedded PGlite and PostgreSQL-backed queue.
//
// Jest runs under a watchdog: a run whose suites are all done but whose Jest has not exited two minutes later (a
// worker that will not end) is ended, and counted by its suites' outcomes; a suite running for 20 minutes (none
// takes two) ends the run as a failure, named. Either way the run ends instead of spending CI's whole budget.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { stripVTControlCharacters } from 'node:util';
import { buildApi } from './build.mjs';

const EXIT_GRACE_MS = 120_000;
const SUITE_STALL_MS = 20 * 60_000;

const root = new URL('..', import.meta.url).pathname;
await buildApi(); // the CLI tests drive the compiled operator CLI
mkdirSync(join(root, 'tmp'), { recursive: true });
const progressFile = join(root, 'tmp/jest-progress.json');
rmSync(progressFile, { force: true });

// The preload reaches the workers too (they inherit Node's options): a worker Jest has to end names what held it open.
const node = ['--experimental-vm-modules', '--require', join(root, 'tools/test-support/held-open.cjs')];
// Its own process group, so that ending it ends its workers and what they started. --forceExit: Jest itself exits
// once it has reported, whatever a suite left open in its process.
const jest = spawn(process.execPath, [...node, join(root, 'node_modules/jest/bin/jest.js'), '--maxWorkers=2', '--forceExit', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, HEARTH_TEST_PROGRESS: progressFile },
  detached: true,
});
const endJest = () => {
  try {
    process.kill(-jest.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => (endJest(), process.exit(130)));

const readProgress = () => {
  try {
    return JSON.parse(readFileSync(progressFile, 'utf8'));
  } catch {
    return null; // not written yet (or Jest died before its first suite)
  }
};

let endedBy = null;
let allDoneAt = null;
const watchdog = setInterval(() => {
  const progress = readProgress();
  if (!progress) return;
  const now = Date.now();
  const stalled = Object.entries(progress.running).find(([, started]) => now - started > SUITE_STALL_MS);
  if (stalled) {
    endedBy = `the suite ${stalled[0].replace(root, '')} ran for ${SUITE_STALL_MS / 60_000} minutes`;
  } else if (progress.total > 0 && progress.done.length === progress.total) {
    allDoneAt ??= now;
    if (now - allDoneAt > EXIT_GRACE_MS) endedBy = `Jest did not exit ${EXIT_GRACE_MS / 1000} s after its last suite ended`;
  }
  if (endedBy) {
    console.error(`\nEnding the run: ${endedBy}.`);
    endJest();
  }
}, 5_000);
const status = await new Promise((resolve) => jest.on('exit', (code) => resolve(code)));
clearInterval(watchdog);

/** The first lines of a failure message, without colour codes or library stack frames. */
const clip = (text) =>
  stripVTControlCharacters(text)
    .split('\n')
    .filter((line) => !line.includes('node_modules/'))
    .slice(0, 20)
    .join('\n');
const progress = readProgress();
const engine = process.env.DATABASE_URL ? 'PostgreSQL + ' + (process.env.REDIS_URL ? 'Redis' : 'PostgreSQL queue') : 'embedded PGlite';
let failed = 0;
if (progress) {
  // Repeat each failure at the end, where a long log's tail shows it.
  for (const suite of progress.done) {
    const path = suite.name.replace(root, '');
    if (suite.loadError) console.log(`\nFAILED ${path}\n${clip(suite.loadError)}`);
    for (const test of suite.failures) console.log(`\nFAILED ${path} › ${test.fullName}\n${clip(test.failureMessages.join('\n'))}`);
  }
  for (const path of Object.keys(progress.running)) console.log(`\nFAILED ${path.replace(root, '')}: did not finish`);
  // A suite that fails to load, or never finishes, counts as a failure, though it ran no test.
  failed = progress.done.reduce((n, s) => n + s.failed + (s.loadError ? 1 : 0), 0) + Object.keys(progress.running).length;
  const passed = progress.done.reduce((n, s) => n + s.passed, 0);
  console.log(`\ntests (${engine}): ${passed} passed, ${failed} failed`);
}
// Ended after every suite was done: the suites' outcomes decide. Any other end: Jest's exit code (none: a failure).
const allDone = progress && progress.total > 0 && progress.done.length === progress.total;
process.exit(endedBy && allDone ? (failed > 0 ? 1 : 0) : (status ?? 1));
