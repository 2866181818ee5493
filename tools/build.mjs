// Builds what `npm start` serves, each part only when its sources changed since its last build:
//   the API: TypeScript emitted by swc to dist/api (types are checked by `npm run typecheck`, not here);
//   the SPA: Vite to dist/admin.
// `node tools/build.mjs [--force] [--api]` builds both (or only the API), `--force` even when current.
// Build messages go to stderr: the CLI's stdout carries what scripts read (a one-time API key).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const apiDist = join(root, 'dist/api');
/** Written after a complete API build, dated when that build started: sources newer than it are not in dist/api. */
const apiStamp = join(apiDist, '.built');

/** What the API is compiled from, and what else decides its output. */
function apiSourceDirs() {
  const domain = join(root, 'libs/domain');
  return ['apps/api/src', 'libs/contracts/src', ...readdirSync(domain).map((lib) => `libs/domain/${lib}/src`)].map((dir) => join(root, dir));
}
const API_SETTINGS = ['tsconfig.base.json', 'tools/build.mjs', 'tools/swc.cjs', 'node_modules/@swc/core/package.json'].map((file) => join(root, file));

/**
 * The newest modification time under `dir`, directories included (a deleted or renamed file changes its
 * directory's time). Stat calls only: milliseconds for the whole API.
 */
function newestMtime(dir) {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function listSources(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listSources(path, out);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function listFiles(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(path, out);
    else out.push(path);
  }
  return out;
}

/** Why the API needs building, or null when dist/api is current. */
function apiStaleness() {
  if (!existsSync(apiStamp)) return 'no build yet';
  const built = statSync(apiStamp).mtimeMs;
  const newest = Math.max(...apiSourceDirs().map(newestMtime), ...API_SETTINGS.map((file) => statSync(file).mtimeMs));
  return newest > built ? 'changed since last build' : null;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Writes through a temporary file, so a process loading dist/api never reads half a module. */
function writeAtomically(path, text) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/**
 * Compiles the API to dist/api (same layout as the sources: dist/api/apps/api/src/main.js) when a source or a build
 * setting changed since the last build; a no-op that costs milliseconds otherwise.
 */
export async function buildApi({ force = false } = {}) {
  const reason = force ? 'forced' : apiStaleness();
  if (!reason) return;
  const started = Date.now();
  process.stderr.write(`Building the API (${reason})...\n`);
  const { transformFile } = await import('@swc/core'); // loaded only to build: its native module takes a while to load
  const { swcOptions } = require('./swc.cjs');
  const sources = apiSourceDirs().flatMap((dir) => listSources(dir));
  const written = new Set([apiStamp]);
  // transformFile runs on libuv's thread pool: every core compiles.
  await Promise.all(
    sources.map(async (source) => {
      const out = join(apiDist, relative(root, source)).replace(/\.ts$/, '.js');
      const { code, map } = await transformFile(source, {
        ...swcOptions,
        filename: source,
        sourceMaps: true,
        sourceFileName: relative(dirname(out), source),
        swcrc: false,
        configFile: false,
      });
      mkdirSync(dirname(out), { recursive: true });
      writeAtomically(out, `${code}\n//# sourceMappingURL=${out.slice(dirname(out).length + 1)}.map\n`);
      writeAtomically(`${out}.map`, map);
      written.add(out).add(`${out}.map`);
    }),
  );
  // Output of sources since deleted or renamed would still load (and be served by a stale require).
  for (const file of listFiles(apiDist)) if (!written.has(file)) rmSync(file);
  writeFileSync(apiStamp, `${new Date(started).toISOString()}\n`);
  utimesSync(apiStamp, started / 1000, started / 1000);
  process.stderr.write(`Built the API in ${seconds(Date.now() - started)}\n`);
}

/** Builds the SPA when its sources (or the libraries it bundles) changed since dist/admin was built. */
export async function buildAdmin({ force = false } = {}) {
  const index = join(root, 'dist/admin/index.html');
  // The SPA bundles the libraries it imports (contracts, money, budget-math, import-formats) as well as its own sources.
  const sources = ['apps/admin', 'libs/contracts', 'libs/domain/money', 'libs/domain/budget-math', 'libs/domain/import-formats'].map((dir) => newestMtime(join(root, dir)));
  const reason = force ? 'forced' : !existsSync(index) ? 'no build yet' : statSync(index).mtimeMs < Math.max(...sources) ? 'changed since last build' : null;
  if (!reason) return;
  const started = Date.now();
  process.stderr.write(`Building the admin app (${reason})...\n`);
  const vite = spawn(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'apps/admin/vite.config.mts', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  const code = await new Promise((resolve) => vite.on('exit', resolve));
  if (code !== 0) throw new Error(`building the admin app failed (vite exited with ${code})`);
  process.stderr.write(`Built the admin app in ${seconds(Date.now() - started)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const force = process.argv.includes('--force');
  await buildApi({ force });
  if (!process.argv.includes('--api')) await buildAdmin({ force });
}
