import { timeOrderedId } from '../../common/time-ordered-id';
import type { EntityManager } from 'typeorm';
import type { AccountableType } from '@hearth/contracts';
import { LIABILITY_TYPES } from '@hearth/contracts';
import type { Import, ImportMapping } from '../import.entity';
import { type ParsedRow, shownValue } from '@hearth/domain/import-formats';
import { accountCurrencyErrors, liveRecordIds, placeCategories, qualifiedNameProblem } from '../import-mappings';
import { MappedContext, PublishError } from './publish-context';
import { ADVISORY_LOCKS } from '../../database/advisory-locks';

/** New categories get a color from this palette, chosen by name so re-imports agree. */
const PALETTE = ['#e99537', '#4da568', '#6471eb', '#db5a54', '#df4e92', '#c44fe9', '#eb5429', '#61c9ea', '#805dee', '#6ad28a'];
export const paletteColor = (name: string) => PALETTE[[...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % PALETTE.length];

export const classificationOf = (type: AccountableType) => (LIABILITY_TYPES.includes(type) ? 'liability' : 'asset');

async function byName(tx: EntityManager, table: string, familyId: string, names: string[]): Promise<Map<string, string>> {
  if (!names.length) return new Map();
  const rows: Array<{ id: string; name: string }> = await tx.query(
    `SELECT DISTINCT ON (name) id, name FROM ${table} WHERE family_id = $1 AND name = ANY($2::text[]) ORDER BY name, created_at`,
    [familyId, names],
  );
  return new Map(rows.map((r) => [r.name, r.id]));
}

/**
 * Creates the categories (parents first) and tags of the given names that the family lacks, in `color` when given,
 * else one of the palette's; returns name -> id.
 */
export async function ensureNamed(tx: EntityManager, table: 'categories' | 'tags', imp: Import, names: string[], parents: Map<string, string> = new Map(), color?: string) {
  const unique = [...new Set(names)];
  if (!unique.length) return new Map<string, string>();
  const colors = unique.map((n) => (table === 'categories' && parents.get(n) ? null : (color ?? paletteColor(n))));
  if (table === 'categories') {
    await tx.query(
      `INSERT INTO categories (family_id, name, color, parent_id, import_id)
       SELECT $1, n, COALESCE(c, (SELECT color FROM categories p WHERE p.id = pid), '#6172F3'), pid, $2
         FROM unnest($3::text[], $4::varchar[], $5::uuid[]) AS t(n, c, pid)
       ON CONFLICT (family_id, name) DO NOTHING`,
      [imp.familyId, imp.id, unique, colors, unique.map((n) => parents.get(n) ?? null)],
    );
  } else {
    await tx.query(
      `INSERT INTO tags (family_id, name, color, import_id) SELECT $1, n, c, $2 FROM unnest($3::text[], $4::varchar[]) AS t(n, c)
       ON CONFLICT (family_id, name) DO NOTHING`,
      [imp.familyId, imp.id, unique, colors],
    );
  }
  return byName(tx, table, imp.familyId, unique);
}

/**
 * Finds the accounts of the given names, creating those the family lacks: investment accounts for a trade file, which
 * fills them with trades (Sure makes every one a Depository), else Depository.
 */
async function ensureAccounts(tx: EntityManager, imp: Import, names: string[], currency: string): Promise<Map<string, string>> {
  const existing = await byName(tx, 'accounts', imp.familyId, names);
  const missing = [...new Set(names)].filter((n) => !existing.has(n));
  if (missing.length) {
    await tx.query(
      `INSERT INTO accounts (id, family_id, name, accountable_type, classification, currency, import_id)
       SELECT id, $1, n, $6, 'asset', $2, $3 FROM unnest($4::uuid[], $5::text[]) AS t(id, n)`,
      [imp.familyId, currency, imp.id, missing.map(() => timeOrderedId()), missing, imp.type === 'TradeImport' ? 'Investment' : 'Depository'],
    );
  }
  return byName(tx, 'accounts', imp.familyId, names);
}

/**
 * Resolves every mapping to a record id, creating the accounts, categories and tags still missing, and records
 * the ids on the mappings. Runs in its own transaction before the first chunk; on a resumed publish it finds
 * everything already resolved.
 */
export async function resolveMappables(tx: EntityManager, imp: Import, familyCurrency: string, familyToday: string): Promise<MappedContext> {
  // Two deliveries of one publish job must not both create the missing records (accounts have no unique name):
  // the import row lock makes the second wait, then read the mappings the first resolved.
  await tx.query(`SELECT 1 FROM imports WHERE id = $1 FOR UPDATE`, [imp.id]);
  // Nor must two imports of one family each create an account of a name the family lacks: imports resolve their
  // mappings one family at a time, and the later finds what the earlier created.
  await tx.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [ADVISORY_LOCKS.familyMappings, imp.familyId]);
  const mappings: ImportMapping[] = await tx.query(
    `SELECT id, type, key, value, create_when_empty AS "createWhenEmpty", mappable_id AS "mappableId" FROM import_mappings WHERE import_id = $1`,
    [imp.id],
  );
  const live = await liveRecordIds(tx, imp.familyId, mappings, imp.accountId);
  if (imp.accountId && !live.has(imp.accountId)) throw new PublishError(`The import's account no longer exists: set account_id to another account`);
  // A record mapped at upload may be gone since (deleted, or removed by reverting the import that created it): its
  // mapping is resolved again by name, as if new.
  const pending = (type: ImportMapping['type']) =>
    mappings.filter((m) => m.type === type && (m.mappableId ? !live.has(m.mappableId) : m.createWhenEmpty));
  const resolved = (type: ImportMapping['type']) =>
    new Map(mappings.filter((m) => m.type === type && m.mappableId && live.has(m.mappableId)).map((m) => [m.key, m.mappableId!]));

  const accounts = resolved('account');
  const accountKeys = pending('account').map((m) => m.key);
  const createdAccounts = await ensureAccounts(tx, imp, accountKeys, familyCurrency);
  for (const key of accountKeys) accounts.set(key, createdAccounts.get(key)!);

  const categories = resolved('category');
  const categoryKeys = pending('category').map((m) => m.key);
  if (categoryKeys.length) {
    // Placed as upload placed them, among all the file's keys, against the family's categories as they are now.
    const { targets } = await placeCategories(tx, imp.familyId, mappings.filter((m) => m.type === 'category').map((m) => m.key));
    const target = (key: string) => targets.get(key)!;
    const tooLong = categoryKeys.find((key) => qualifiedNameProblem(key, target(key)));
    if (tooLong) throw new PublishError(`category '${shownValue(tooLong)}' ${qualifiedNameProblem(tooLong, target(tooLong))}`);
    const parentIds = await ensureNamed(tx, 'categories', imp, categoryKeys.flatMap((key) => target(key).parent ?? []));
    const parentOfName = new Map(categoryKeys.flatMap((key) => (target(key).parent ? [[target(key).name, parentIds.get(target(key).parent!)!] as const] : [])));
    const ids = await ensureNamed(tx, 'categories', imp, categoryKeys.map((key) => target(key).name), parentOfName);
    for (const key of categoryKeys) categories.set(key, ids.get(target(key).name)!);
  }

  const tags = resolved('tag');
  const tagKeys = pending('tag').map((m) => m.key);
  const tagIds = await ensureNamed(tx, 'tags', imp, tagKeys);
  for (const key of tagKeys) tags.set(key, tagIds.get(key)!);

  const updates = [
    ...accountKeys.map((k) => ['account', k, accounts.get(k)!]),
    ...categoryKeys.map((k) => ['category', k, categories.get(k)!]),
    ...tagKeys.map((k) => ['tag', k, tags.get(k)!]),
  ];
  if (updates.length) {
    await tx.query(
      `UPDATE import_mappings m SET mappable_id = u.id
         FROM unnest($2::varchar[], $3::varchar[], $4::uuid[]) AS u(type, key, id)
        WHERE m.import_id = $1 AND m.type = u.type AND m.key = u.key`,
      [imp.id, updates.map((u) => u[0]), updates.map((u) => u[1]), updates.map((u) => u[2])],
    );
  }
  const accountTypes = new Map(
    mappings.filter((m) => m.type === 'account_type' && m.value).map((m) => [m.key, m.value as AccountableType]),
  );
  const currencies: Array<{ id: string; currency: string }> = await tx.query(
    `SELECT id, currency FROM accounts WHERE family_id = $1 AND id = ANY($2::uuid[])`,
    [imp.familyId, [...accounts.values(), ...(imp.accountId ? [imp.accountId] : [])]],
  );
  const accountCurrencies = new Map(currencies.map((a) => [a.id, a.currency]));
  const ctx = { imp, familyCurrency, familyToday, accounts, accountCurrencies, categories, tags, accountTypes, priorSpans: new Map() };
  await checkAccountCurrencies(tx, ctx);
  return ctx;
}

/**
 * Stops the publish before its first chunk when a row's amount is finer than the currency of the account it names,
 * as resolved now: upload checked the accounts as they were then, and an account created here takes the family's
 * currency of today. Nothing is created: the caller's transaction rolls back.
 */
async function checkAccountCurrencies(tx: EntityManager, ctx: MappedContext): Promise<void> {
  if (ctx.imp.accountId || !ctx.accounts.size) return;
  const rows: ParsedRow[] = await tx.query(
    `SELECT source_row_number AS "sourceRowNumber", "values", errors FROM import_rows
      WHERE import_id = $1 AND source_row_number > $2 AND "values" ? 'amount' AND "values"->>'currency' IS NULL`,
    [ctx.imp.id, ctx.imp.publishedThroughRow],
  );
  const errors = [...accountCurrencyErrors(ctx.imp, rows, (key) => ctx.accountCurrencies.get(ctx.accounts.get(key) ?? '')).values()];
  if (errors.length) {
    throw new PublishError(`${errors.length} rows have amounts their account's currency cannot hold: ${errors.slice(0, 5).join('; ')}`);
  }
}
