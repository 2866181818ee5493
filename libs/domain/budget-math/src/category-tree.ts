export interface CategoryNode {
  id: string;
  parentId: string | null;
}

/** The family's category tree. A category whose parent is missing from the tree counts as top-level. */
export class CategoryTree {
  private readonly parentById: ReadonlyMap<string, string | null>;

  constructor(nodes: readonly CategoryNode[]) {
    this.parentById = new Map(nodes.map((node) => [node.id, node.parentId]));
    for (const node of nodes) this.lineage(node.id); // fail fast on a cycle
  }

  /** The parent's id when `id` is a subcategory of a category in the tree, else null. */
  parentOf(id: string): string | null {
    const parentId = this.parentById.get(id) ?? null;
    return parentId !== null && this.parentById.has(parentId) ? parentId : null;
  }

  isSubcategory(id: string): boolean {
    return this.parentOf(id) !== null;
  }

  /** `id` followed by its ancestors up to the top-level category. */
  lineage(id: string): string[] {
    const chain = [id];
    for (let parent = this.parentOf(id); parent !== null; parent = this.parentOf(parent)) {
      if (chain.includes(parent)) throw new Error(`category tree has a cycle through ${parent}`);
      chain.push(parent);
    }
    return chain;
  }

  topLevelOf(id: string): string {
    const chain = this.lineage(id);
    return chain[chain.length - 1];
  }
}
