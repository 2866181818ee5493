// Checks that the documentation's links lead somewhere: every relative link and image in README.md and docs/**/*.md
// names a file of the repository, and a #fragment names a heading of that page (as GitHub makes heading anchors).
// Code comments may point at the docs too (`docs/api/importing.md#publishing`): those must exist as well.
// Run by `npm run lint`; exits 1 listing each broken link.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);

function filesUnder(dir, keep) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : filesUnder(path, keep);
    return keep(entry.name) ? [path] : [];
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, ... */
function anchorsOf(markdown) {
  const seen = new Map();
  const anchors = new Set();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

/** The text with fenced code blocks blanked, so that examples in them are neither links nor headings. */
const withoutFences = (markdown) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '));

const anchorCache = new Map();
function hasAnchor(file, anchor) {
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
  return anchorCache.get(file).has(decodeURIComponent(anchor).toLowerCase());
}

/** What is wrong with a link to `target` from a file in `fromDir`, or null when it leads somewhere. */
function brokenBecause(fromDir, target) {
  const [path, anchor] = target.split('#');
  const file = path ? resolve(fromDir, decodeURIComponent(path)) : null;
  if (file && !file.startsWith(root)) return 'points outside the repository';
  if (file && !existsSync(file)) return 'no such file';
  if (anchor === undefined) return null;
  const page = file ?? null;
  if (!page || !page.endsWith('.md') || statSync(page).isDirectory()) return page ? null : 'a fragment with no page';
  return hasAnchor(page, anchor) ? null : `no heading #${anchor}`;
}

const problems = [];

const pages = [join(root, 'README.md'), ...filesUnder(join(root, 'docs'), (name) => name.endsWith('.md'))];
for (const page of pages) {
  const text = withoutFences(readFileSync(page, 'utf8')).replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
  for (const [, target] of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto: are not checked
    const target_ = target.startsWith('#') ? `${relative(dirname(page), page)}${target}` : target;
    const why = brokenBecause(dirname(page), target_);
    if (why) problems.push(`${relative(root, page)}: ${target} (${why})`);
  }
}

const sources = ['apps', 'libs', 'tools'].flatMap((dir) => filesUnder(join(root, dir), (name) => /\.(ts|tsx|mjs|cjs|js)$/.test(name)));
for (const source of sources) {
  const text = readFileSync(source, 'utf8');
  for (const [, target] of text.matchAll(/\bdocs\/([\w./-]+\.md(?:#[\w-]+)?)/g)) {
    const why = brokenBecause(root, `docs/${target}`);
    if (why) problems.push(`${relative(root, source)}: docs/${target} (${why})`);
  }
}

if (problems.length) {
  console.error(`Broken documentation links:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`Documentation links: ${pages.length} pages and ${sources.length} source files checked, none broken.`);
