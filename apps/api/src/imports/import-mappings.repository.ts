import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';

/** A table of records a mapping can point at: the family's accounts, categories or tags. */
export type MappableTable = 'accounts' | 'categories' | 'tags';

/** Family-scoped reads of the records import mappings point at (accounts, categories, tags), by name or id. */
@Injectable()
export class ImportMappingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The id of the family's oldest record of each name in `table`, by name. */
  async idsByName(familyId: string, table: MappableTable, names: string[], tx?: Transaction): Promise<Map<string, string>> {
    if (!names.length) return new Map();
    const rows: Array<{ id: string; name: string }> = await managerOf(tx, this.dataSource).query(
      `SELECT DISTINCT ON (name) id, name FROM ${table} WHERE family_id = $1 AND name = ANY($2::text[]) ORDER BY name, created_at`,
      [familyId, names],
    );
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  /** Whether `id` (a UUID) is one of the family's records in `table`. */
  async exists(familyId: string, table: MappableTable, id: string, tx?: Transaction): Promise<boolean> {
    return (await managerOf(tx, this.dataSource).query(`SELECT 1 FROM ${table} WHERE id = $1 AND family_id = $2`, [id, familyId])).length > 0;
  }

  /** Of the ids given per table, those the family still has. */
  async liveIds(familyId: string, ids: { accounts: string[]; categories: string[]; tags: string[] }, tx?: Transaction): Promise<Set<string>> {
    const rows: Array<{ id: string }> = await managerOf(tx, this.dataSource).query(
      `SELECT id FROM accounts WHERE family_id = $1 AND id = ANY($2::uuid[])
     UNION ALL SELECT id FROM categories WHERE family_id = $1 AND id = ANY($3::uuid[])
     UNION ALL SELECT id FROM tags WHERE family_id = $1 AND id = ANY($4::uuid[])`,
      [familyId, ids.accounts, ids.categories, ids.tags],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** The family's categories of these names, each with its parent's name. */
  categoriesNamed(familyId: string, names: string[], tx?: Transaction): Promise<Array<{ id: string; name: string; parent: string | null }>> {
    return managerOf(tx, this.dataSource).query(
      `SELECT c.id, c.name, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id WHERE c.family_id = $1 AND c.name = ANY($2::text[])`,
      [familyId, names],
    );
  }

  /** The currencies of the family's accounts among `ids`. */
  accountCurrencies(familyId: string, ids: string[], tx?: Transaction): Promise<Array<{ id: string; currency: string }>> {
    return managerOf(tx, this.dataSource).query(`SELECT id, currency FROM accounts WHERE family_id = $1 AND id = ANY($2::uuid[])`, [familyId, ids]);
  }
}
