#!/usr/bin/env node
// Fault harness: injects each fault against the built server (dist) running as child processes
// on a private PostgreSQL cluster and a private redis-server, then checks that nothing was lost or duplicated, that
// the import ends in a truthful state and that publishing again completes it. Prints a table, writes
// artifacts/faults-results.json, exits non-zero on any failure.
//
//   npm run harness:faults [-- --only=<key,...>] [--no-build] [--single-process]
//
// See tools/harness/faults/README.md for the mechanics and the knobs it sets (IMPORT_CHUNK_ROWS,
// IMPORT_STUCK_AFTER_SECONDS).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApi } from '../../build.mjs';
import { CHUNK_ROWS, Harness, logDirOf, STUCK_AFTER_SECONDS } from './harness.mjs';
import { root } from './infra.mjs';
import { Checks, exactlyPublished, SCENARIOS } from './scenarios.mjs';

const SCENARIO_TIMEOUT_MS = 150_000;
const TOTAL_TIMEOUT_MS = 10 * 60_000;

const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const artifacts = join(root, 'artifacts');
const logDir = logDirOf(artifacts);

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
    }),
  ]);
}

function table(results) {
  const head = ['fault', 'result', 'csv rows', 'entries', 'transactions', 'final status', 'secs', 'notes'];
  const rows = results.map((r) => [
    r.key,
    r.passed ? 'PASS' : 'FAIL',
    String(r.expectedRows ?? '-'),
    String(r.state?.entries ?? '-'),
    String(r.state?.transactions ?? '-'),
    r.state?.status ?? '-',
    String(r.seconds),
    r.passed ? (r.note ?? '') : [r.error, ...r.checks.filter((c) => !c.ok).map((c) => `${c.name} ${c.detail}`)].filter(Boolean).join('; ').slice(0, 400),
  ]);
  const widths = head.map((h, i) => Math.min(i === 7 ? 200 : 60, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const line = (cells) => cells.map((cell, i) => (i === 7 ? cell : cell.padEnd(widths[i]))).join(' | ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)].join('\n');
}

async function main() {
  const started = Date.now();
  if (!args.includes('--no-build')) await buildApi();
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const h = new Harness({ logDir, singleProcess: args.includes('--single-process') });
  current = h;
  const results = [];
  let setupError = null;
  const cleanup = () => h.tearDown();
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => cleanup().finally(() => process.exit(130)));
  try {
    await withTimeout(h.setUp(), 120_000, 'setup');
    console.log(
      `fault harness: private PostgreSQL :${h.postgres.port}, private Redis :${h.redis.port}, API :${h.apiPort}, ` +
        `${h.roles ? 'api + worker processes (HEARTH_ROLE)' : 'one process (API + worker)'}, ` +
        `IMPORT_CHUNK_ROWS=${CHUNK_ROWS}, IMPORT_STUCK_AFTER_SECONDS=${STUCK_AFTER_SECONDS}`,
    );
    for (const scenario of SCENARIOS.filter((s) => !only || only.includes(s.key))) {
      const checks = new Checks();
      const t0 = Date.now();
      const result = { key: scenario.key, title: scenario.title, checks: checks.list };
      process.stdout.write(`- ${scenario.title} ... `);
      try {
        await h.ensureInfrastructure();
        const out = await withTimeout(scenario.run(h, checks), SCENARIO_TIMEOUT_MS, scenario.key);
        Object.assign(result, { importId: out.id, expectedRows: out.expected.rows, expected: out.expected, state: out.state, note: out.note });
      } catch (error) {
        result.error = error instanceof Error ? error.message : String(error);
      }
      result.seconds = Math.round((Date.now() - t0) / 100) / 10;
      result.passed = !result.error && checks.list.length > 0 && checks.list.every((c) => c.ok);
      console.log(`${result.passed ? 'PASS' : 'FAIL'} (${result.seconds} s)`);
      results.push(result);
    }
    // Late effects: a stalled job redelivered after its scenario ended must not have changed any finished import.
    await h.ensureInfrastructure().catch(() => undefined);
    for (const r of results.filter((x) => x.passed && x.importId)) {
      const checks = new Checks();
      await exactlyPublished(h, checks, r.importId, r.expected, 'final sweep').catch((e) => checks.add('final sweep', false, e.message));
      for (const c of checks.list.filter((x) => !x.ok)) {
        r.passed = false;
        r.checks.push(c);
      }
    }
  } catch (error) {
    setupError = error instanceof Error ? error.message : String(error);
    console.error(`fault harness setup failed: ${setupError}`);
  } finally {
    await cleanup();
  }
  const passed = results.filter((r) => r.passed).length;
  const failed = results.length - passed + (setupError ? 1 : 0);
  console.log(`\n${table(results)}\n`);
  console.log(`${passed} passed, ${failed} failed (${Math.round((Date.now() - started) / 1000)} s; logs in artifacts/faults-logs/)`);
  mkdirSync(artifacts, { recursive: true });
  writeFileSync(
    join(artifacts, 'faults-results.json'),
    JSON.stringify(
      {
        finishedAt: new Date().toISOString(),
        seconds: Math.round((Date.now() - started) / 1000),
        processes: h.roles ? 'api+worker' : 'single',
        chunkRows: CHUNK_ROWS,
        stuckAfterSeconds: STUCK_AFTER_SECONDS,
        setupError,
        passed,
        failed,
        results,
      },
      null,
      2,
    ),
  );
  process.exitCode = failed ? 1 : 0;
}

let current = null;
const watchdog = setTimeout(() => {
  console.error(`fault harness exceeded ${TOTAL_TIMEOUT_MS / 60_000} minutes; stopping its private PostgreSQL, Redis and servers`);
  const stop = current ? current.tearDown() : Promise.resolve();
  Promise.race([stop, new Promise((resolve) => setTimeout(resolve, 20_000))]).finally(() => process.exit(1));
}, TOTAL_TIMEOUT_MS);
watchdog.unref();
main().then(() => process.exit(process.exitCode ?? 0));
