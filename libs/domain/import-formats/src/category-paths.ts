/**
 * The category a key names: "Parent:Child" (split at the first colon) names the child, whose parent is created
 * alongside when missing; a key with one empty side ("Food:", ":Snacks") is the plain name on the other side. Empty
 * on both sides, the leaf is empty: such a row gets an error.
 */
export function categoryPath(key: string): { parent: string | null; leaf: string } {
  const at = key.indexOf(':');
  const parent = at < 0 ? '' : key.slice(0, at).trim();
  const leaf = key.slice(at + 1).trim();
  return parent && leaf ? { parent, leaf } : { parent: null, leaf: leaf || parent };
}

/** The name a leaf takes when its plain name is another parent's: "Travel: Other". */
export const qualifiedName = (parent: string, leaf: string) => `${parent}: ${leaf}`;

/** A category of the family: its name and its parent's name (null at the top). */
export type KnownCategory = { name: string; parent: string | null };

/** The category a key goes to: matched by `name`, else created under `parent` (the key's own parent, if any). */
export type CategoryTarget = { name: string; parent: string | null; qualified: boolean };

/**
 * Where each of a file's category keys goes, given the family's categories of the names the keys could mean (their
 * leaves, parents and qualified names). Names are unique per family, so one leaf under two parents needs two names:
 * - a plain key, or a "Parent: Child" whose Child is under Parent or has no parent, goes to Child;
 * - else an existing "Parent: Child" is taken;
 * - else the key is qualified ("Parent: Child", created under Parent) when Child is under another parent, or when
 *   the file names Child under two or more parents and the family has no Child: no row order decides which wins;
 * - else Child is created under Parent.
 * A parent the family lacks counts as a top-level category, as publishing creates parents first. A key left on its
 * leaf when that leaf is another key's qualified name under another parent is qualified too.
 */
export function categoryTargets(keys: readonly string[], family: readonly KnownCategory[]): Map<string, CategoryTarget> {
  const parentOf = new Map(family.map((c) => [c.name, c.parent]));
  const paths = new Map(keys.map((key) => [key, categoryPath(key)]));
  const parentsOfLeaf = new Map<string, Set<string>>();
  for (const { parent, leaf } of paths.values()) {
    if (!parent) continue;
    if (!parentOf.has(parent)) parentOf.set(parent, null);
    parentsOfLeaf.set(leaf, (parentsOfLeaf.get(leaf) ?? new Set()).add(parent));
  }
  const targets = new Map<string, CategoryTarget>();
  for (const [key, { parent, leaf }] of paths) {
    const existing = parentOf.get(leaf);
    if (!parent || existing === null || existing === parent) {
      targets.set(key, { name: leaf, parent, qualified: false });
      continue;
    }
    const qualified = qualifiedName(parent, leaf);
    const qualify = existing !== undefined || parentOf.has(qualified) || parentsOfLeaf.get(leaf)!.size > 1;
    targets.set(key, qualify ? { name: qualified, parent, qualified: true } : { name: leaf, parent, qualified: false });
  }
  // A leaf spelt as another key's qualified name ('Bills: Phone: Mobile' next to a qualified 'Phone: Mobile') would
  // share that category under another parent: it is qualified in turn, until no two parents share a name.
  for (let shared = true; shared; ) {
    shared = false;
    const parentOfTarget = new Map([...targets.values()].filter((t) => t.qualified).map((t) => [t.name, t.parent]));
    for (const [key, target] of targets) {
      if (target.qualified || target.parent === null || !parentOfTarget.has(target.name) || parentOfTarget.get(target.name) === target.parent) continue;
      targets.set(key, { name: qualifiedName(target.parent, target.name), parent: target.parent, qualified: true });
      shared = true;
    }
  }
  return targets;
}
