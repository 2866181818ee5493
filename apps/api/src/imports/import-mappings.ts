import { isUUID } from 'class-validator';
import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error';
import type { Transaction } from '../database/transactions';
import { guessAccountableType, isAccountableType } from './account-types';
import type { Import, ImportMapping } from './import.entity';
import { ImportMappingsRepository, MappableTable } from './import-mappings.repository';
import { amountPrecisionError, categoryPath, type CategoryTarget, categoryTargets, longerThan, type ParsedRow, qualifiedName, shownValue } from '@hearth/domain/import-formats';

export type MappingType = ImportMapping['type'];
export type MappingDraft = { type: MappingType; key: string; value?: string | null; create_when_empty?: boolean };
type Mapping = Pick<ImportMapping, 'type' | 'key' | 'value' | 'createWhenEmpty' | 'mappableId'>;

/** Table holding the records each mapping type points at; family-scoped lookups by name. */
const TABLES: Record<Exclude<MappingType, 'account_type'>, MappableTable> = { account: 'accounts', category: 'categories', tag: 'tags' };

/** Longest account, category and tag name: the name columns of their tables are varchar(200). */
const MAX_NAME_LENGTH = 200;
/** Longest key import_mappings.key holds (varchar(500)); account types are keys only, never stored as names. */
const MAX_KEY_LENGTH = 500;

/** The row field each mapping kind reads, and the column an error names (the import's label, else this). */
const MAPPED_FIELDS: ReadonlyArray<{ type: MappingType; field: string; column: (imp: Import) => string }> = [
  { type: 'account', field: 'account', column: (imp) => imp.accountColLabel ?? 'account' },
  { type: 'category', field: 'category', column: (imp) => imp.categoryColLabel ?? 'category' },
  { type: 'tag', field: 'tags', column: (imp) => imp.tagsColLabel ?? 'tags' },
  { type: 'account_type', field: 'entity_type', column: (imp) => imp.entityTypeColLabel ?? 'account type' },
];

/**
 * The row fields whose values become mappings for this import (its format's mapping `kinds`), with their mapping type
 * and column. Rows name their account only when the import has none.
 */
function mappedFields(imp: Import, kinds: readonly MappingType[]): Array<{ type: MappingType; field: string; column: string }> {
  return MAPPED_FIELDS.filter(({ type }) => kinds.includes(type) && (type !== 'account' || imp.accountId === null)).map(({ type, field, column }) => ({
    type,
    field,
    column: column(imp),
  }));
}

const cellValues = (row: ParsedRow, field: string): string[] => {
  const v = row.values[field] as unknown;
  if (typeof v === 'string') return v.trim() ? [v.trim()] : [];
  return Array.isArray(v) ? (v as string[]).map((s) => s.trim()).filter(Boolean) : [];
};

/** Why a value cannot be mapped (no name, or one that could never be stored, nor its mapping key); null when it can. */
function unmappable(type: MappingType, value: string): string | null {
  if (type === 'account_type') return longerThan(value, MAX_KEY_LENGTH) ? `is too long: account types can have at most ${MAX_KEY_LENGTH} characters` : null;
  const { parent, leaf } = type === 'category' ? categoryPath(value) : { parent: null, leaf: value };
  if (!leaf) return 'names no category';
  const fits = !longerThan(value, MAX_KEY_LENGTH) && !longerThan(leaf, MAX_NAME_LENGTH) && !longerThan(parent ?? '', MAX_NAME_LENGTH);
  return fits ? null : `is too long: ${type} names can have at most ${MAX_NAME_LENGTH} characters`;
}

/**
 * The rows, each with an error added for each account, category, tag or account type value that cannot be mapped, so
 * the import stays unpublishable instead of failing in the database or creating a nameless category; those values
 * get no mapping. Rows are taken one by one as they are asked for.
 */
export function* withMappingErrors(imp: Import, kinds: readonly MappingType[], rows: Iterable<ParsedRow>): Generator<ParsedRow> {
  const fields = mappedFields(imp, kinds);
  // Files repeat a few names on many rows: each distinct value is judged once.
  const judged = fields.map(() => new Map<string, string | null>());
  for (const row of rows) {
    for (const [i, { type, field, column }] of fields.entries()) {
      for (const value of cellValues(row, field)) {
        let problem = judged[i].get(value);
        if (problem === undefined) judged[i].set(value, (problem = unmappable(type, value)));
        if (!problem) continue;
        row.errors.push(`Row ${row.sourceRowNumber}: ${column} '${shownValue(value)}' ${problem}`);
      }
    }
    yield row;
  }
}

function keysOf(imp: Import, kinds: readonly MappingType[], rows: ParsedRow[]): Record<MappingType, string[]> {
  const keys: Record<MappingType, string[]> = { account: [], category: [], tag: [], account_type: [] };
  for (const { type, field } of mappedFields(imp, kinds)) {
    const values = new Set<string>();
    for (const row of rows) for (const value of cellValues(row, field)) values.add(value);
    keys[type] = [...values].filter((v) => !unmappable(type, v));
  }
  return keys;
}

/** Why a key's category cannot be made under its qualified name; null when its target name fits. */
export function qualifiedNameProblem(key: string, target: CategoryTarget): string | null {
  if (!target.qualified || !longerThan(target.name, MAX_NAME_LENGTH)) return null;
  const { leaf } = categoryPath(key);
  return `is too long: '${shownValue(leaf)}' is under another parent too, so this one would be named '${shownValue(target.name)}' (${[...target.name].length} characters), and category names can have at most ${MAX_NAME_LENGTH} characters`;
}

/**
 * Row errors (by row number) for amounts finer than the currency of the account the row names: a row with no
 * currency of its own and no import account takes that account's currency at publish, which reading the file could
 * not know (a Mint export has no Currency column), and minor units would round the amount. `currencyOf` gives an
 * account key's currency; a key it does not know is left to the mapping checks.
 */
export function accountCurrencyErrors(imp: Import, rows: ParsedRow[], currencyOf: (key: string) => string | undefined): Map<number, string> {
  const errors = new Map<number, string>();
  if (imp.accountId) return errors;
  for (const row of rows) {
    const { sourceRowNumber, values } = row;
    const [account] = cellValues(row, 'account');
    const currency = account && values.currency == null && typeof values.amount === 'string' ? currencyOf(account) : undefined;
    const problem = currency && amountPrecisionError(values.amount as string, currency, imp.amountColLabel ?? 'amount', sourceRowNumber);
    if (problem) errors.set(sourceRowNumber, problem);
  }
  return errors;
}

/** Mappings of an import's values to the family's accounts, categories, tags and account types. */
@Injectable()
export class ImportMappings {
  constructor(private readonly records: ImportMappingsRepository) {}

  /**
   * Of the records `mappings` chose (each in its mapping type's table) and the import's own account, the ids the family
   * still has: one deleted since (or removed by reverting the import that created it) is matched by name again.
   */
  liveRecordIds(tx: Transaction | undefined, familyId: string, mappings: Mapping[], accountId: string | null = null): Promise<Set<string>> {
    const ids = (type: MappingType) => mappings.filter((m) => m.type === type && m.mappableId).map((m) => m.mappableId!);
    return this.records.liveIds(familyId, { accounts: [...ids('account'), ...(accountId ? [accountId] : [])], categories: ids('category'), tags: ids('tag') }, tx);
  }

  /**
   * Where each category key goes (categoryTargets) as the family's categories stand now, and the ids of the targets that
   * exist: one query for every name the keys could mean.
   */
  async placeCategories(tx: Transaction | undefined, familyId: string, keys: string[]): Promise<{ targets: Map<string, CategoryTarget>; ids: Map<string, string> }> {
    const names = new Set(keys.flatMap((key) => {
      const { parent, leaf } = categoryPath(key);
      return parent ? [leaf, parent, qualifiedName(parent, leaf)] : [leaf];
    }));
    const family = names.size ? await this.records.categoriesNamed(familyId, [...names], tx) : [];
    return { targets: categoryTargets(keys, family), ids: new Map(family.map((c) => [c.name, c.id])) };
  }

  /**
   * Mappings of the names found in the rows to the family's records: matched by name within the family, or created
   * at publish when missing (unlike Sure's API, which builds none). The rows are parsed again on every PATCH, so the
   * mappings `stored` before keep their choices for the values still in the rows (unless the record chosen is gone);
   * PATCH overrides then choose records or account types on top.
   */
  async build(
    tx: Transaction,
    imp: Import,
    kinds: readonly MappingType[],
    rows: ParsedRow[],
    stored: Mapping[],
    overrides: MappingDraft[],
  ): Promise<{ mappings: Mapping[]; rowErrors: Map<number, string> }> {
    const keys = keysOf(imp, kinds, rows);
    const mappings: Mapping[] = [];
    const add = (type: MappingType, key: string, id: string | null) => mappings.push({ type, key, value: null, mappableId: id, createWhenEmpty: id === null });
    const accounts = await this.records.idsByName(imp.familyId, TABLES.account, keys.account, tx);
    for (const key of keys.account) add('account', key, accounts.get(key) ?? null);
    // A key whose qualified name could not be stored gets a row error and no mapping, as an unmappable value does.
    const { targets, ids } = await this.placeCategories(tx, imp.familyId, keys.category);
    const tooLong = new Map(keys.category.flatMap((key) => {
      const problem = qualifiedNameProblem(key, targets.get(key)!);
      return problem ? [[key, problem] as const] : [];
    }));
    for (const key of keys.category) if (!tooLong.has(key)) add('category', key, ids.get(targets.get(key)!.name) ?? null);
    const column = imp.categoryColLabel ?? 'category';
    const rowErrors = new Map<number, string>();
    for (const row of rows) {
      for (const key of cellValues(row, 'category')) {
        const problem = tooLong.get(key);
        if (problem) rowErrors.set(row.sourceRowNumber, `Row ${row.sourceRowNumber}: ${column} '${shownValue(key)}' ${problem}`);
      }
    }
    const tags = await this.records.idsByName(imp.familyId, TABLES.tag, keys.tag, tx);
    for (const key of keys.tag) add('tag', key, tags.get(key) ?? null);
    for (const key of keys.account_type) {
      mappings.push({ type: 'account_type', key, value: guessAccountableType(key), mappableId: null, createWhenEmpty: false });
    }
    const byKey = new Map(mappings.map((m) => [`${m.type}:${m.key}`, m]));
    const live = await this.liveRecordIds(tx, imp.familyId, stored);
    for (const prior of stored) {
      const mapping = byKey.get(`${prior.type}:${prior.key}`);
      if (!mapping || (prior.mappableId && !live.has(prior.mappableId))) continue;
      Object.assign(mapping, { value: prior.value, mappableId: prior.mappableId, createWhenEmpty: prior.createWhenEmpty });
    }
    // One choice per value: a second, perhaps different, would be settled by its place in the list.
    const named = new Set<string>();
    const twice = overrides.find((o) => {
      const key = `${o.type}:${o.key}`;
      if (named.has(key)) return true;
      named.add(key);
      return false;
    });
    if (twice) throw ApiError.validation([`the ${twice.type} mapping with the key '${twice.key}' is given more than once`]);
    for (const override of overrides) {
      const mapping = byKey.get(`${override.type}:${override.key}`);
      if (!mapping) throw ApiError.validation([`no ${override.type} mapping has the key '${override.key}'`]);
      if (override.type === 'account_type') {
        if (override.value != null && !isAccountableType(override.value)) {
          throw ApiError.validation([`account type mapping value must be one of the accountable types`]);
        }
        mapping.value = override.value ?? null;
      } else if (override.value) {
        await this.requireOwnRecord(tx, override.type, imp.familyId, override.value);
        mapping.mappableId = override.value;
        mapping.createWhenEmpty = false;
      } else if (override.create_when_empty !== undefined) {
        mapping.mappableId = null;
        mapping.createWhenEmpty = override.create_when_empty;
      }
    }
    return { mappings, rowErrors };
  }

  /**
   * accountCurrencyErrors as the mappings stand at upload: an account matched by name has its currency, one to be
   * created gets the family's (as publishing will create it).
   */
  async currencyErrors(tx: Transaction, imp: Import, rows: ParsedRow[], mappings: Mapping[], familyCurrency: string): Promise<Map<number, string>> {
    const accounts = mappings.filter((m) => m.type === 'account');
    if (imp.accountId || !accounts.length) return new Map();
    const found = await this.records.accountCurrencies(imp.familyId, accounts.flatMap((m) => m.mappableId ?? []), tx);
    const currencyOfId = new Map(found.map((a) => [a.id, a.currency]));
    const currencyOfKey = new Map(accounts.map((m) => [m.key, m.mappableId ? currencyOfId.get(m.mappableId) : m.createWhenEmpty ? familyCurrency : undefined]));
    return accountCurrencyErrors(imp, rows, (key) => currencyOfKey.get(key));
  }

  private async requireOwnRecord(tx: Transaction, type: MappingType, familyId: string, id: string): Promise<void> {
    if (type === 'account_type') return;
    // A full UUID check: a 36-character string of hex digits and dashes alone would reach the uuid column and fail there.
    const found = isUUID(id, 'all') && (await this.records.exists(familyId, TABLES[type], id, tx));
    if (!found) throw ApiError.validation([`mapping ${type} value must be the id of one of your family's ${TABLES[type]}`]);
  }
}
