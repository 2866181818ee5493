import type { EntityManager } from 'typeorm';
import type { ImportType } from '@hearth/contracts';
import { ApiError } from '../common/api-error';
import { guessAccountableType, isAccountableType } from './account-types';
import type { Import, ImportMapping } from './import.entity';
import type { ParsedRow } from '@hearth/domain/import-formats';

export type MappingType = ImportMapping['type'];
export type MappingDraft = { type: MappingType; key: string; value?: string | null; create_when_empty?: boolean };
type Mapping = Pick<ImportMapping, 'type' | 'key' | 'value' | 'createWhenEmpty' | 'mappableId'>;

const ACCOUNT_ROWS = new Set<ImportType>(['TransactionImport', 'TradeImport', 'MintImport', 'ActualImport', 'YnabImport']);
const CATEGORY_ROWS = new Set<ImportType>(['TransactionImport', 'MintImport', 'ActualImport', 'YnabImport', 'QifImport']);
const TAG_ROWS = new Set<ImportType>(['TransactionImport', 'MintImport', 'QifImport']);

/** Table holding the records each mapping type points at; family-scoped lookups by name. */
const TABLES: Record<Exclude<MappingType, 'account_type'>, string> = { account: 'accounts', category: 'categories', tag: 'tags' };

const distinct = (values: Iterable<string>) => [...new Set([...values].map((v) => v.trim()).filter(Boolean))];

/** A category key "Parent:Child" names the child; its parent is created alongside when missing. */
export const categoryLeaf = (key: string) => (key.includes(':') ? key.slice(key.indexOf(':') + 1).trim() : key.trim());

function keysOf(type: ImportType, rows: ParsedRow[], hasAccount: boolean): Record<MappingType, string[]> {
  const values = (field: string) => rows.flatMap((r) => {
    const v = r.values[field] as unknown;
    return Array.isArray(v) ? (v as string[]) : typeof v === 'string' ? [v] : [];
  });
  return {
    account: ACCOUNT_ROWS.has(type) && !hasAccount ? distinct(values('account')) : [],
    category: CATEGORY_ROWS.has(type) ? distinct(values('category')) : [],
    tag: TAG_ROWS.has(type) ? distinct(values('tags')) : [],
    account_type: type === 'AccountImport' ? distinct(values('entity_type')) : [],
  };
}

async function idsByName(tx: EntityManager, table: string, familyId: string, names: string[]): Promise<Map<string, string>> {
  if (!names.length) return new Map();
  const rows: Array<{ id: string; name: string }> = await tx.query(
    `SELECT DISTINCT ON (name) id, name FROM ${table} WHERE family_id = $1 AND name = ANY($2::text[]) ORDER BY name, created_at`,
    [familyId, names],
  );
  return new Map(rows.map((r) => [r.name, r.id]));
}

async function requireOwnRecord(tx: EntityManager, type: MappingType, familyId: string, id: string): Promise<void> {
  if (type === 'account_type') return;
  const found = /^[0-9a-f-]{36}$/i.test(id) && (await tx.query(`SELECT 1 FROM ${TABLES[type]} WHERE id = $1 AND family_id = $2`, [id, familyId])).length;
  if (!found) throw ApiError.validation([`mapping ${type} value must be the id of one of your family's ${TABLES[type]}`]);
}

/**
 * Mappings of the names found in the rows to the family's records: matched by name within the family, or created
 * at publish when missing (unlike Sure's API, which builds none). PATCH overrides choose records or account types.
 */
export async function buildMappings(tx: EntityManager, imp: Import, rows: ParsedRow[], overrides: MappingDraft[]): Promise<Mapping[]> {
  const keys = keysOf(imp.type, rows, imp.accountId !== null);
  const mappings: Mapping[] = [];
  for (const type of ['account', 'category', 'tag'] as const) {
    const lookup = type === 'category' ? categoryLeaf : (k: string) => k;
    const existing = await idsByName(tx, TABLES[type], imp.familyId, keys[type].map(lookup));
    for (const key of keys[type]) {
      const id = existing.get(lookup(key)) ?? null;
      mappings.push({ type, key, value: null, mappableId: id, createWhenEmpty: id === null });
    }
  }
  for (const key of keys.account_type) {
    mappings.push({ type: 'account_type', key, value: guessAccountableType(key), mappableId: null, createWhenEmpty: false });
  }
  for (const override of overrides) {
    const mapping = mappings.find((m) => m.type === override.type && m.key === override.key);
    if (!mapping) throw ApiError.validation([`no ${override.type} mapping has the key '${override.key}'`]);
    if (override.type === 'account_type') {
      if (override.value != null && !isAccountableType(override.value)) {
        throw ApiError.validation([`account type mapping value must be one of the accountable types`]);
      }
      mapping.value = override.value ?? null;
    } else if (override.value) {
      await requireOwnRecord(tx, override.type, imp.familyId, override.value);
      mapping.mappableId = override.value;
      mapping.createWhenEmpty = false;
    } else if (override.create_when_empty !== undefined) {
      mapping.mappableId = null;
      mapping.createWhenEmpty = override.create_when_empty;
    }
  }
  return mappings;
}
