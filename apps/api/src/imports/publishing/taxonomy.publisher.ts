import type { Transaction } from '../../database/transactions';
import { ruleOperandTable } from '@hearth/domain/import-formats';
import { ensureNamed, paletteColor } from './mappables';
import type { CategoryState, RuleRecord } from '../../ledger/taxonomy.repository';
import { ImportRowRecord, PublishContext, PublishError, RowsPublisher, str } from './publish-context';

/** Sure's colour for a category a CategoryImport or RuleImport creates without one (docs/api/import-formats.md#categories-merchants-and-rules). */
const CATEGORY_COLOR = '#737373';

interface CategoryRow {
  name: string;
  color: string | null;
  icon: string | null;
  parent: string | null;
  /** The row that gave the parent (else the first naming the category), for messages. */
  rowNumber: number;
}

/** One row per category name: later rows override what they give, as Sure's row-by-row saves do. */
function categoryRows(records: ImportRowRecord[]): CategoryRow[] {
  const byName = new Map<string, CategoryRow>();
  for (const r of records) {
    const name = String(r.values.name).trim();
    const [earlier, parent] = [byName.get(name), str(r.values.parent)];
    byName.set(name, {
      name,
      color: str(r.values.color) ?? earlier?.color ?? null,
      icon: str(r.values.icon) ?? earlier?.icon ?? null,
      parent: parent ?? earlier?.parent ?? null,
      rowNumber: parent || !earlier ? r.sourceRowNumber : earlier.rowNumber,
    });
  }
  return [...byName.values()];
}

/**
 * Categories: created when new (recorded as this import's), colour and icon updated when given; parents
 * (created as placeholders when missing) are linked in a second statement once every name exists. Parents that
 * would make a cycle, with each other or with the family's categories, are refused: the chunk rolls back.
 */
export const publishCategories: RowsPublisher = async (tx, records, ctx) => {
  const rows = categoryRows(records);
  const selfParent = rows.find((r) => r.parent === r.name);
  if (selfParent) throw new PublishError(`Row ${selfParent.rowNumber}: category '${selfParent.name}' cannot be its own parent`);
  // The family's own categories as they were, for revert to put back what the rows change in them.
  const existing = await ctx.ledger.taxonomy.existingCategories(ctx.imp.familyId, rows.map((r) => r.name), ctx.imp.id, tx);
  // The defaults are for new categories only: an existing one keeps the colour and icon a row leaves out.
  await ctx.ledger.taxonomy.upsertCategories(ctx.imp.familyId, ctx.imp.id, CATEGORY_COLOR, rows, tx);
  const parents = rows.filter((r) => r.parent);
  await ensureNamed(tx, ctx.ledger.taxonomy, 'categories', ctx.imp, parents.map((r) => r.parent!), new Map(), CATEGORY_COLOR);
  await ctx.ledger.taxonomy.setParents(ctx.imp.familyId, parents, tx);
  // A category no row gives a parent is top-level, unless this import created it (in an earlier chunk).
  await ctx.ledger.taxonomy.clearParents(ctx.imp.familyId, rows.filter((r) => !r.parent).map((r) => r.name), ctx.imp.id, tx);
  // Walking up from each category given a parent: one that reaches itself is in a cycle (budgets could not total it).
  const cycles = await ctx.ledger.taxonomy.cyclicCategories(ctx.imp.familyId, parents.map((r) => r.name), tx);
  const cyclic = parents.find((r) => cycles.some((c) => c.name === r.name));
  if (cyclic) throw new PublishError(`Row ${cyclic.rowNumber}: category '${cyclic.name}' cannot have parent '${cyclic.parent}': '${cyclic.parent}' is itself under '${cyclic.name}'`);
  if (existing.length) await recordClaimedCategories(tx, ctx, existing, rows);
};

/**
 * Records on the row that named it each existing category as claimed (the import's file holds it too: a revert of the
 * import that created it passes it to this one), with what the rows changed in it (colour, icon, parent), before and
 * after (import_rows.previous), so revert puts that back and drops a placeholder parent it created.
 */
async function recordClaimedCategories(
  tx: Transaction,
  ctx: PublishContext,
  before: CategoryState[],
  rows: CategoryRow[],
): Promise<void> {
  const rowOf = new Map(rows.map((r) => [r.name, r.rowNumber]));
  await ctx.ledger.taxonomy.recordClaimedCategories(ctx.imp.id, before, rowOf, tx);
}

/** Creates the family merchants of the given names it lacks, recorded as the import's; existing ones are left as they are. */
async function ensureMerchantsNamed(tx: Transaction, ctx: PublishContext, rows: Array<{ name: string; color: string | null; website: string | null }>): Promise<void> {
  const named = rows.map((r) => ({ name: r.name, color: r.color ?? paletteColor(r.name), website: r.website }));
  await ctx.ledger.taxonomy.insertMissingMerchants(ctx.imp.familyId, ctx.imp.id, named, tx);
}

/**
 * Merchants: created when new; an existing one is left as it is, claimed by the first row naming it (the import's
 * file holds it too: a revert of the import that created it passes it to this one).
 */
export const publishMerchants: RowsPublisher = async (tx, records, ctx) => {
  const rows = records.map((r) => ({ rowNumber: r.sourceRowNumber, name: String(r.values.name).trim(), color: str(r.values.color), website: str(r.values.website_url) }));
  await ctx.ledger.taxonomy.claimMerchants(ctx.imp.familyId, ctx.imp.id, rows, tx);
  await ensureMerchantsNamed(tx, ctx, rows);
};

type Operand = { condition_type?: string; action_type?: string; value?: unknown; sub_conditions?: Operand[] };
function namesIn(operands: Operand[], into: Record<'categories' | 'merchants' | 'tags', Set<string>>): void {
  for (const op of operands) {
    const table = ruleOperandTable(op);
    if (table && typeof op.value === 'string' && op.value.trim()) into[table].add(op.value.trim());
    namesIn(op.sub_conditions ?? [], into);
  }
}

function withIds(operands: Operand[], ids: Record<'categories' | 'merchants' | 'tags', Map<string, string>>): Operand[] {
  return operands.map((op) => {
    const table = ruleOperandTable(op);
    const value = table && typeof op.value === 'string' ? (ids[table].get(op.value.trim()) ?? op.value) : op.value;
    return { ...op, value, ...(op.sub_conditions ? { sub_conditions: withIds(op.sub_conditions, ids) } : {}) };
  });
}

async function ensureMerchants(tx: Transaction, ctx: PublishContext, names: string[]): Promise<Map<string, string>> {
  if (names.length) await ensureMerchantsNamed(tx, ctx, names.map((name) => ({ name, color: null, website: null })));
  const rows = names.length ? await ctx.ledger.taxonomy.merchantsNamed(ctx.imp.familyId, names, tx) : [];
  return new Map(rows.map((r) => [r.name, r.id]));
}

type RuleRow = { rowNumber: number; name: string | null; resourceType: string; active: boolean; effectiveDate: string | null; conditions: Operand[]; actions: Operand[] };

/** The rules to write, ids in place of names in their operands. */
const ruleRecords = (rows: RuleRow[], ids: Record<'categories' | 'merchants' | 'tags', Map<string, string>>): RuleRecord[] =>
  rows.map((r) => ({ ...r, conditions: JSON.stringify(withIds(r.conditions, ids)), actions: JSON.stringify(withIds(r.actions, ids)) }));

/**
 * Rules: names in category, merchant and tag operands become ids (records created when missing). With
 * `replacesNamed` (a rule file) a rule replaces the family's rule of the same name and resource type and the others
 * are created; without (the service's NDJSON) every record is created anew (docs/api/service-ndjson.md).
 */
export const rulePublisher = ({ replacesNamed }: { replacesNamed: boolean }): RowsPublisher => async (tx, records, ctx) => {
  const given: RuleRow[] = records.map((r) => ({
    rowNumber: r.sourceRowNumber,
    name: str(r.values.name),
    resourceType: str(r.values.resource_type) ?? 'transaction',
    active: r.values.active === true || r.values.active === 'true',
    effectiveDate: str(r.values.effective_date),
    conditions: (r.values.conditions ?? []) as Operand[],
    actions: (r.values.actions ?? []) as Operand[],
  }));
  const names = { categories: new Set<string>(), merchants: new Set<string>(), tags: new Set<string>() };
  for (const row of given) namesIn([...row.conditions, ...row.actions], names);
  const ids = {
    categories: await ensureNamed(tx, ctx.ledger.taxonomy, 'categories', ctx.imp, [...names.categories], new Map(), CATEGORY_COLOR),
    tags: await ensureNamed(tx, ctx.ledger.taxonomy, 'tags', ctx.imp, [...names.tags]),
    merchants: await ensureMerchants(tx, ctx, [...names.merchants]),
  };
  let rows = given;
  if (replacesNamed) {
    // A name given twice is one rule: the later row replaces what the earlier one set.
    const key = (r: RuleRow) => `${r.resourceType}\n${r.name}`;
    const last = new Map(given.filter((r) => r.name).map((r) => [key(r), r]));
    const replaced = await ctx.ledger.taxonomy.replaceRules(ctx.imp.familyId, ctx.imp.id, ruleRecords([...last.values()], ids), tx);
    rows = given.filter((r) => !r.name || (last.get(key(r)) === r && !replaced.has(r.rowNumber)));
  }
  await ctx.ledger.taxonomy.insertRules(ctx.imp.familyId, ctx.imp.id, ruleRecords(rows, ids), tx);
};
