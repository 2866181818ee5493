import type { Transaction } from '../../database/transactions';
import { ruleOperandTable } from '@hearth/domain/import-formats';
import { ensureNamed, paletteColor } from './mappables';
import { previousValues } from '../../ledger/previous-values';
import { ImportRowRecord, PublishContext, PublishError, RowsPublisher, str } from './publish-context';
import { unmovedStatements } from './unmoved-statements';

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
  const existing: CategoryState[] = await unmovedStatements(tx).query(
    `SELECT id, name, color, lucide_icon, parent_id FROM categories WHERE family_id = $1 AND name = ANY($2::text[]) AND import_id IS DISTINCT FROM $3`,
    [ctx.imp.familyId, rows.map((r) => r.name), ctx.imp.id],
  );
  // The defaults are for new categories only: an existing one keeps the colour and icon a row leaves out.
  await unmovedStatements(tx).query(
    `WITH given AS (SELECT * FROM unnest($4::text[], $5::varchar[], $6::varchar[]) AS t(n, c, i))
     INSERT INTO categories (family_id, name, color, lucide_icon, import_id)
     SELECT $1, n, COALESCE(c, $3), COALESCE(i, 'shapes'), $2 FROM given
     ON CONFLICT (family_id, name) DO UPDATE
       SET color = COALESCE((SELECT c FROM given WHERE n = EXCLUDED.name), categories.color),
           lucide_icon = COALESCE((SELECT i FROM given WHERE n = EXCLUDED.name), categories.lucide_icon), updated_at = now()`,
    [ctx.imp.familyId, ctx.imp.id, CATEGORY_COLOR, rows.map((r) => r.name), rows.map((r) => r.color), rows.map((r) => r.icon)],
  );
  const parents = rows.filter((r) => r.parent);
  await ensureNamed(tx, ctx.ledger.taxonomy, 'categories', ctx.imp, parents.map((r) => r.parent!), new Map(), CATEGORY_COLOR);
  await unmovedStatements(tx).query(
    `UPDATE categories c SET parent_id = p.id, color = p.color, updated_at = now()
       FROM unnest($2::text[], $3::text[]) AS t(child, parent) JOIN categories p ON p.family_id = $1 AND p.name = t.parent
      WHERE c.family_id = $1 AND c.name = t.child`,
    [ctx.imp.familyId, parents.map((r) => r.name), parents.map((r) => r.parent)],
  );
  // A category no row gives a parent is top-level, unless this import created it (in an earlier chunk).
  await unmovedStatements(tx).query(
    `UPDATE categories SET parent_id = NULL, updated_at = now()
      WHERE family_id = $1 AND name = ANY($2::text[]) AND parent_id IS NOT NULL AND import_id IS DISTINCT FROM $3`,
    [ctx.imp.familyId, rows.filter((r) => !r.parent).map((r) => r.name), ctx.imp.id],
  );
  // Walking up from each category given a parent: one that reaches itself is in a cycle (budgets could not total it).
  const cycles: Array<{ name: string }> = await unmovedStatements(tx).query(
    `WITH RECURSIVE up(start, id) AS (
       SELECT c.id, c.parent_id FROM categories c WHERE c.family_id = $1 AND c.name = ANY($2::text[]) AND c.parent_id IS NOT NULL
       UNION SELECT u.start, p.parent_id FROM up u JOIN categories p ON p.id = u.id WHERE p.parent_id IS NOT NULL)
     SELECT c.name FROM up JOIN categories c ON c.id = up.start WHERE up.id = up.start`,
    [ctx.imp.familyId, parents.map((r) => r.name)],
  );
  const cyclic = parents.find((r) => cycles.some((c) => c.name === r.name));
  if (cyclic) throw new PublishError(`Row ${cyclic.rowNumber}: category '${cyclic.name}' cannot have parent '${cyclic.parent}': '${cyclic.parent}' is itself under '${cyclic.name}'`);
  if (existing.length) await recordClaimedCategories(tx, ctx, existing, rows);
};

/** An existing category's name and what a row can change in it, as it was before the publish. */
type CategoryState = { id: string; name: string; color: string; lucide_icon: string; parent_id: string | null };

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
  await unmovedStatements(tx).query(
    `UPDATE import_rows ir
        SET duplicate_of = c.id,
            previous = CASE WHEN (c.color, c.lucide_icon, c.parent_id) IS DISTINCT FROM (b.color, b.lucide_icon, b.parent_id)
                            THEN ${previousValues(['color', 'lucide_icon', 'parent_id'], 'b', 'c')} END
       FROM unnest($2::uuid[], $3::varchar[], $4::varchar[], $5::uuid[], $6::int[]) AS b(id, color, lucide_icon, parent_id, rn)
       JOIN categories c ON c.id = b.id
      WHERE ir.import_id = $1 AND ir.source_row_number = b.rn`,
    [ctx.imp.id, before.map((b) => b.id), before.map((b) => b.color), before.map((b) => b.lucide_icon), before.map((b) => b.parent_id), before.map((b) => rowOf.get(b.name))],
  );
}

/** Creates the family merchants of the given names it lacks, recorded as the import's; existing ones are left as they are. */
async function ensureMerchantsNamed(tx: Transaction, ctx: PublishContext, rows: Array<{ name: string; color: string | null; website: string | null }>): Promise<void> {
  await unmovedStatements(tx).query(
    `INSERT INTO merchants (family_id, type, name, color, website_url, import_id)
     SELECT $1, 'FamilyMerchant', n, c, w, $2 FROM unnest($3::text[], $4::varchar[], $5::varchar[]) AS t(n, c, w)
     ON CONFLICT (family_id, name) WHERE type = 'FamilyMerchant' DO NOTHING`,
    [ctx.imp.familyId, ctx.imp.id, rows.map((r) => r.name), rows.map((r) => r.color ?? paletteColor(r.name)), rows.map((r) => r.website)],
  );
}

/**
 * Merchants: created when new; an existing one is left as it is, claimed by the first row naming it (the import's
 * file holds it too: a revert of the import that created it passes it to this one).
 */
export const publishMerchants: RowsPublisher = async (tx, records, ctx) => {
  const rows = records.map((r) => ({ rowNumber: r.sourceRowNumber, name: String(r.values.name).trim(), color: str(r.values.color), website: str(r.values.website_url) }));
  await unmovedStatements(tx).query(
    `UPDATE import_rows ir SET duplicate_of = m.id
       FROM (SELECT DISTINCT ON (n) n, rn FROM unnest($3::text[], $4::int[]) AS t(n, rn) ORDER BY n, rn) t
       JOIN merchants m ON m.family_id = $1 AND m.type = 'FamilyMerchant' AND m.name = t.n AND m.import_id IS DISTINCT FROM $2
      WHERE ir.import_id = $2 AND ir.source_row_number = t.rn`,
    [ctx.imp.familyId, ctx.imp.id, rows.map((r) => r.name), rows.map((r) => r.rowNumber)],
  );
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
  const rows: Array<{ id: string; name: string }> = names.length
    ? await unmovedStatements(tx).query(`SELECT id, name FROM merchants WHERE family_id = $1 AND type = 'FamilyMerchant' AND name = ANY($2::text[])`, [ctx.imp.familyId, names])
    : [];
  return new Map(rows.map((r) => [r.name, r.id]));
}

type RuleRow = { rowNumber: number; name: string | null; resourceType: string; active: boolean; effectiveDate: string | null; conditions: Operand[]; actions: Operand[] };

/** The rules' columns as arrays for `unnest`, ids in place of names: name, type, active, date, conditions, actions, row. */
const ruleColumns = (rows: RuleRow[], ids: Record<'categories' | 'merchants' | 'tags', Map<string, string>>): unknown[] => [
  rows.map((r) => r.name), rows.map((r) => r.resourceType), rows.map((r) => r.active), rows.map((r) => r.effectiveDate),
  rows.map((r) => JSON.stringify(withIds(r.conditions, ids))), rows.map((r) => JSON.stringify(withIds(r.actions, ids))), rows.map((r) => r.rowNumber),
];
const GIVEN_RULES = `unnest($3::varchar[], $4::varchar[], $5::boolean[], $6::date[], $7::jsonb[], $8::jsonb[], $9::int[]) AS t(n, rt, a, d, c, x, rn)`;

/**
 * Replaces the family's rules named like the given ones (the oldest of a name and resource type), recording on each
 * row the rule and what it was, for revert; returns the numbers of the rows that replaced one.
 */
async function replaceRules(tx: Transaction, ctx: PublishContext, columns: unknown[]): Promise<Set<number>> {
  const [replaced]: [Array<{ rn: number }>, number] = await unmovedStatements(tx).query(
    `WITH given AS (SELECT * FROM ${GIVEN_RULES}),
          found AS (
            SELECT DISTINCT ON (r.resource_type, r.name) r.id, t.rn, r.active, r.effective_date, r.conditions, r.actions
              FROM given t JOIN rules r ON r.family_id = $1 AND r.name = t.n AND r.resource_type = t.rt
             ORDER BY r.resource_type, r.name, r.created_at, r.id),
          changed AS (
            UPDATE rules r SET active = t.a, effective_date = t.d, conditions = t.c, actions = t.x, updated_at = now()
              FROM found f JOIN given t ON t.rn = f.rn WHERE r.id = f.id
            RETURNING r.id, r.active, r.effective_date, r.conditions, r.actions)
     UPDATE import_rows ir SET duplicate_of = c.id, previous = ${previousValues(['active', 'effective_date', 'conditions', 'actions'], 'f', 'c')}
       FROM changed c JOIN found f ON f.id = c.id
      WHERE ir.import_id = $2 AND ir.source_row_number = f.rn
     RETURNING f.rn`,
    [ctx.imp.familyId, ctx.imp.id, ...columns],
  );
  return new Set(replaced.map((r) => r.rn));
}

/**
 * Rules: names in category, merchant and tag operands become ids (records created when missing). A RuleImport
 * replaces the family's rule of the same name and resource type and creates the others; a
 * ServiceImport creates every record anew (docs/api/service-ndjson.md).
 */
export const publishRules: RowsPublisher = async (tx, records, ctx) => {
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
  if (ctx.imp.type === 'RuleImport') {
    // A name given twice is one rule: the later row replaces what the earlier one set.
    const key = (r: RuleRow) => `${r.resourceType}\n${r.name}`;
    const last = new Map(given.filter((r) => r.name).map((r) => [key(r), r]));
    const replaced = await replaceRules(tx, ctx, ruleColumns([...last.values()], ids));
    rows = given.filter((r) => !r.name || (last.get(key(r)) === r && !replaced.has(r.rowNumber)));
  }
  await unmovedStatements(tx).query(
    `INSERT INTO rules (family_id, name, resource_type, active, effective_date, conditions, actions, import_id) SELECT $1, n, rt, a, d, c, x, $2 FROM ${GIVEN_RULES}`,
    [ctx.imp.familyId, ctx.imp.id, ...ruleColumns(rows, ids)],
  );
};
