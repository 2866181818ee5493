import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';
import { NAMED } from './named';
import { previousValues } from './previous-values';

/** An existing category's name and what a row can change in it, as it was before the publish. */
export type CategoryState = { id: string; name: string; color: string; lucide_icon: string; parent_id: string | null };

/** A rule to write: operands as JSON with record ids in place of names, and the import row that gives it. */
export interface RuleRecord {
  rowNumber: number;
  name: string | null;
  resourceType: string;
  active: boolean;
  effectiveDate: string | null;
  conditions: string;
  actions: string;
}

/** The rules' columns for GIVEN_RULES ($3-$9): name, type, active, date, conditions, actions, row. */
const ruleColumns = (rows: RuleRecord[]): unknown[] => [
  rows.map((r) => r.name), rows.map((r) => r.resourceType), rows.map((r) => r.active), rows.map((r) => r.effectiveDate),
  rows.map((r) => r.conditions), rows.map((r) => r.actions), rows.map((r) => r.rowNumber),
];
const GIVEN_RULES = `unnest($3::varchar[], $4::varchar[], $5::boolean[], $6::date[], $7::jsonb[], $8::jsonb[], $9::int[]) AS t(n, rt, a, d, c, x, rn)`;

/** The statements of the ledger on a family's categories, tags, merchants and rules. */
@Injectable()
export class TaxonomyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The family's categories or tags of the given names (the oldest of each name): name -> id. */
  async idsByName(familyId: string, table: 'categories' | 'tags', names: string[], tx?: Transaction): Promise<Map<string, string>> {
    if (!names.length) return new Map();
    const rows: Array<{ id: string; name: string }> = await managerOf(tx, this.dataSource).query(NAMED(table), [familyId, names]);
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  /**
   * Creates the categories of the given names the family lacks, recorded as the import's: in `colors` (by name's
   * position), else the parent's colour, under `parentIds` (null for none).
   */
  async insertMissingCategories(familyId: string, importId: string, names: string[], colors: Array<string | null>, parentIds: Array<string | null>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO categories (family_id, name, color, parent_id, import_id)
       SELECT $1, n, COALESCE(c, (SELECT color FROM categories p WHERE p.id = pid), '#6172F3'), pid, $2
         FROM unnest($3::text[], $4::varchar[], $5::uuid[]) AS t(n, c, pid)
       ON CONFLICT (family_id, name) DO NOTHING`,
      [familyId, importId, names, colors, parentIds],
    );
  }

  /** Creates the tags of the given names the family lacks, recorded as the import's, in `colors` (by position). */
  async insertMissingTags(familyId: string, importId: string, names: string[], colors: Array<string | null>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO tags (family_id, name, color, import_id) SELECT $1, n, c, $2 FROM unnest($3::text[], $4::varchar[]) AS t(n, c)
       ON CONFLICT (family_id, name) DO NOTHING`,
      [familyId, importId, names, colors],
    );
  }

  /** The family's categories of the given names that import `importId` did not create, as they are. */
  existingCategories(familyId: string, names: string[], importId: string, tx?: Transaction): Promise<CategoryState[]> {
    return managerOf(tx, this.dataSource).query(
      `SELECT id, name, color, lucide_icon, parent_id FROM categories WHERE family_id = $1 AND name = ANY($2::text[]) AND import_id IS DISTINCT FROM $3`,
      [familyId, names, importId],
    );
  }

  /**
   * Creates the categories of the given names, recorded as the import's, or updates the colour and icon given of
   * existing ones. The defaults are for new categories only: an existing one keeps the colour and icon a row leaves out.
   */
  async upsertCategories(
    familyId: string,
    importId: string,
    defaultColor: string,
    rows: Array<{ name: string; color: string | null; icon: string | null }>,
    tx?: Transaction,
  ): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `WITH given AS (SELECT * FROM unnest($4::text[], $5::varchar[], $6::varchar[]) AS t(n, c, i))
     INSERT INTO categories (family_id, name, color, lucide_icon, import_id)
     SELECT $1, n, COALESCE(c, $3), COALESCE(i, 'shapes'), $2 FROM given
     ON CONFLICT (family_id, name) DO UPDATE
       SET color = COALESCE((SELECT c FROM given WHERE n = EXCLUDED.name), categories.color),
           lucide_icon = COALESCE((SELECT i FROM given WHERE n = EXCLUDED.name), categories.lucide_icon), updated_at = now()`,
      [familyId, importId, defaultColor, rows.map((r) => r.name), rows.map((r) => r.color), rows.map((r) => r.icon)],
    );
  }

  /** Puts each named category under its parent (by name), taking the parent's colour. */
  async setParents(familyId: string, rows: Array<{ name: string; parent: string | null }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `UPDATE categories c SET parent_id = p.id, color = p.color, updated_at = now()
       FROM unnest($2::text[], $3::text[]) AS t(child, parent) JOIN categories p ON p.family_id = $1 AND p.name = t.parent
      WHERE c.family_id = $1 AND c.name = t.child`,
      [familyId, rows.map((r) => r.name), rows.map((r) => r.parent)],
    );
  }

  /** Makes the named categories top-level, except those import `importId` created. */
  async clearParents(familyId: string, names: string[], importId: string, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `UPDATE categories SET parent_id = NULL, updated_at = now()
      WHERE family_id = $1 AND name = ANY($2::text[]) AND parent_id IS NOT NULL AND import_id IS DISTINCT FROM $3`,
      [familyId, names, importId],
    );
  }

  /** The named categories that are in a cycle: walking up from each, one that reaches itself. */
  cyclicCategories(familyId: string, names: string[], tx?: Transaction): Promise<Array<{ name: string }>> {
    return managerOf(tx, this.dataSource).query(
      `WITH RECURSIVE up(start, id) AS (
       SELECT c.id, c.parent_id FROM categories c WHERE c.family_id = $1 AND c.name = ANY($2::text[]) AND c.parent_id IS NOT NULL
       UNION SELECT u.start, p.parent_id FROM up u JOIN categories p ON p.id = u.id WHERE p.parent_id IS NOT NULL)
     SELECT c.name FROM up JOIN categories c ON c.id = up.start WHERE up.id = up.start`,
      [familyId, names],
    );
  }

  /**
   * Records on import `importId`'s rows (by `rowNumbers`, by name) the existing categories they claimed, with what
   * the rows changed in each (colour, icon, parent), before (`before`) and after, for revert.
   */
  async recordClaimedCategories(importId: string, before: CategoryState[], rowNumbers: Map<string, number>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `UPDATE import_rows ir
        SET duplicate_of = c.id,
            previous = CASE WHEN (c.color, c.lucide_icon, c.parent_id) IS DISTINCT FROM (b.color, b.lucide_icon, b.parent_id)
                            THEN ${previousValues(['color', 'lucide_icon', 'parent_id'], 'b', 'c')} END
       FROM unnest($2::uuid[], $3::varchar[], $4::varchar[], $5::uuid[], $6::int[]) AS b(id, color, lucide_icon, parent_id, rn)
       JOIN categories c ON c.id = b.id
      WHERE ir.import_id = $1 AND ir.source_row_number = b.rn`,
      [importId, before.map((b) => b.id), before.map((b) => b.color), before.map((b) => b.lucide_icon), before.map((b) => b.parent_id), before.map((b) => rowNumbers.get(b.name))],
    );
  }

  /** Creates the family merchants of the given names it lacks, recorded as the import's; existing ones are left as they are. */
  async insertMissingMerchants(familyId: string, importId: string, rows: Array<{ name: string; color: string; website: string | null }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO merchants (family_id, type, name, color, website_url, import_id)
     SELECT $1, 'FamilyMerchant', n, c, w, $2 FROM unnest($3::text[], $4::varchar[], $5::varchar[]) AS t(n, c, w)
     ON CONFLICT (family_id, name) WHERE type = 'FamilyMerchant' DO NOTHING`,
      [familyId, importId, rows.map((r) => r.name), rows.map((r) => r.color), rows.map((r) => r.website)],
    );
  }

  /** Records on the first of import `importId`'s rows naming each existing family merchant (not the import's) that it claimed it. */
  async claimMerchants(familyId: string, importId: string, rows: Array<{ name: string; rowNumber: number }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `UPDATE import_rows ir SET duplicate_of = m.id
       FROM (SELECT DISTINCT ON (n) n, rn FROM unnest($3::text[], $4::int[]) AS t(n, rn) ORDER BY n, rn) t
       JOIN merchants m ON m.family_id = $1 AND m.type = 'FamilyMerchant' AND m.name = t.n AND m.import_id IS DISTINCT FROM $2
      WHERE ir.import_id = $2 AND ir.source_row_number = t.rn`,
      [familyId, importId, rows.map((r) => r.name), rows.map((r) => r.rowNumber)],
    );
  }

  /** The family merchants of the given names. */
  merchantsNamed(familyId: string, names: string[], tx?: Transaction): Promise<Array<{ id: string; name: string }>> {
    return managerOf(tx, this.dataSource).query(`SELECT id, name FROM merchants WHERE family_id = $1 AND type = 'FamilyMerchant' AND name = ANY($2::text[])`, [familyId, names]);
  }

  /**
   * Replaces the family's rules named like the given ones (the oldest of a name and resource type), recording on each
   * row the rule and what it was, for revert; returns the numbers of the rows that replaced one.
   */
  async replaceRules(familyId: string, importId: string, rules: RuleRecord[], tx?: Transaction): Promise<Set<number>> {
    const [replaced]: [Array<{ rn: number }>, number] = await managerOf(tx, this.dataSource).query(
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
      [familyId, importId, ...ruleColumns(rules)],
    );
    return new Set(replaced.map((r) => r.rn));
  }

  /** Creates the rules, recorded as the import's. */
  async insertRules(familyId: string, importId: string, rules: RuleRecord[], tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO rules (family_id, name, resource_type, active, effective_date, conditions, actions, import_id) SELECT $1, n, rt, a, d, c, x, $2 FROM ${GIVEN_RULES}`,
      [familyId, importId, ...ruleColumns(rules)],
    );
  }

  /** Creates categories with the ids a ServiceImport gives, recorded as the import's. */
  async insertCategoriesWithIds(
    familyId: string,
    importId: string,
    rows: Array<{ id: string | null; name: string; color: string | null; icon: string | null; parentId: string | null }>,
    tx?: Transaction,
  ): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO categories (id, family_id, name, color, lucide_icon, parent_id, import_id)
     SELECT id, $1, n, COALESCE(c, '#737373'), COALESCE(i, 'shapes'), p, $2 FROM unnest($3::uuid[], $4::text[], $5::varchar[], $6::varchar[], $7::uuid[]) AS x(id, n, c, i, p)`,
      [familyId, importId, rows.map((r) => r.id), rows.map((r) => r.name), rows.map((r) => r.color),
        rows.map((r) => r.icon), rows.map((r) => r.parentId)],
    );
  }

  /** Creates tags with the ids a ServiceImport gives, recorded as the import's. */
  async insertTagsWithIds(familyId: string, importId: string, rows: Array<{ id: string | null; name: string; color: string | null }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO tags (id, family_id, name, color, import_id) SELECT id, $1, n, COALESCE(c, '#e99537'), $2 FROM unnest($3::uuid[], $4::text[], $5::varchar[]) AS x(id, n, c)`,
      [familyId, importId, rows.map((r) => r.id), rows.map((r) => r.name), rows.map((r) => r.color)],
    );
  }

  /** Creates family merchants with the ids a ServiceImport gives, recorded as the import's. */
  async insertMerchantsWithIds(
    familyId: string,
    importId: string,
    rows: Array<{ id: string | null; name: string; color: string; logo: string | null; website: string | null }>,
    tx?: Transaction,
  ): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO merchants (id, family_id, type, name, color, logo_url, website_url, import_id)
     SELECT id, $1, 'FamilyMerchant', n, c, l, w, $2 FROM unnest($3::uuid[], $4::text[], $5::varchar[], $6::varchar[], $7::varchar[]) AS x(id, n, c, l, w)`,
      [familyId, importId, rows.map((r) => r.id), rows.map((r) => r.name), rows.map((r) => r.color), rows.map((r) => r.logo), rows.map((r) => r.website)],
    );
  }
}
