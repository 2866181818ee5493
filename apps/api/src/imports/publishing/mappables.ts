import { timeOrderedId } from '../../common/time-ordered-id';
import type { Transaction } from '../../database/transactions';
import type { TaxonomyRepository } from '../../ledger/taxonomy.repository';
import type { AccountableType } from '@hearth/contracts';
import { LIABILITY_TYPES } from '@hearth/contracts';
import type { Import, ImportMapping } from '../import.entity';
import { type ParsedRow, shownValue } from '@hearth/domain/import-formats';
import { accountCurrencyErrors, ImportMappings, qualifiedNameProblem } from '../import-mappings';
import { PublishContext, PublishError, PublishRepositories } from './publish-context';

/** New categories get a color from this palette, chosen by name so re-imports agree. */
const PALETTE = ['#e99537', '#4da568', '#6471eb', '#db5a54', '#df4e92', '#c44fe9', '#eb5429', '#61c9ea', '#805dee', '#6ad28a'];
export const paletteColor = (name: string) => PALETTE[[...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % PALETTE.length];

export const classificationOf = (type: AccountableType) => (LIABILITY_TYPES.includes(type) ? 'liability' : 'asset');

/**
 * Creates the categories (parents first) and tags of the given names that the family lacks, in `color` when given,
 * else one of the palette's; returns name -> id.
 */
export async function ensureNamed(
  tx: Transaction,
  taxonomy: TaxonomyRepository,
  table: 'categories' | 'tags',
  imp: Import,
  names: string[],
  parents: Map<string, string> = new Map(),
  color?: string,
) {
  const unique = [...new Set(names)];
  if (!unique.length) return new Map<string, string>();
  const colors = unique.map((n) => (table === 'categories' && parents.get(n) ? null : (color ?? paletteColor(n))));
  if (table === 'categories') await taxonomy.insertMissingCategories(imp.familyId, imp.id, unique, colors, unique.map((n) => parents.get(n) ?? null), tx);
  else await taxonomy.insertMissingTags(imp.familyId, imp.id, unique, colors, tx);
  return taxonomy.idsByName(imp.familyId, table, unique, tx);
}

/**
 * Finds the accounts of the given names, creating those the family lacks as `type` (the format's createdAccounts:
 * investment accounts for a trade file, which fills them with trades, where Sure makes every one a Depository).
 */
async function ensureAccounts(tx: Transaction, repositories: PublishRepositories, imp: Import, names: string[], currency: string, type: AccountableType): Promise<Map<string, string>> {
  const accounts = repositories.ledger.accounts;
  const existing = await accounts.idsByName(imp.familyId, names, tx);
  const missing = [...new Set(names)].filter((n) => !existing.has(n));
  if (missing.length) {
    await accounts.insertNamed(imp.familyId, imp.id, currency, type, missing.map((name) => ({ id: timeOrderedId(), name })), tx);
  }
  return accounts.idsByName(imp.familyId, names, tx);
}

/**
 * Resolves every mapping to a record id, creating the accounts, categories and tags still missing, and records
 * the ids on the mappings. Runs in its own transaction before the first chunk; on a resumed publish it finds
 * everything already resolved.
 */
export async function resolveMappables(
  tx: Transaction,
  imp: Import,
  familyCurrency: string,
  familyToday: string,
  repositories: PublishRepositories,
  importMappings: ImportMappings,
  createdAccountType: AccountableType = 'Depository',
): Promise<Omit<PublishContext, 'format'>> {
  const { ledger, publishing } = repositories;
  // Two deliveries of one publish job must not both create the missing records (accounts have no unique name):
  // the import row lock makes the second wait, then read the mappings the first resolved.
  await publishing.lockImport(imp.id, tx);
  // Nor must two imports of one family each create an account of a name the family lacks: imports resolve their
  // mappings one family at a time, and the later finds what the earlier created.
  await publishing.lockFamilyMappings(imp.familyId, tx);
  const mappings: ImportMapping[] = await publishing.mappings(imp.id, tx);
  const live = await importMappings.liveRecordIds(tx, imp.familyId, mappings, imp.accountId);
  if (imp.accountId && !live.has(imp.accountId)) throw new PublishError(`The import's account no longer exists: set account_id to another account`);
  // A record mapped at upload may be gone since (deleted, or removed by reverting the import that created it): its
  // mapping is resolved again by name, as if new.
  const pending = (type: ImportMapping['type']) =>
    mappings.filter((m) => m.type === type && (m.mappableId ? !live.has(m.mappableId) : m.createWhenEmpty));
  const resolved = (type: ImportMapping['type']) =>
    new Map(mappings.filter((m) => m.type === type && m.mappableId && live.has(m.mappableId)).map((m) => [m.key, m.mappableId!]));

  const accounts = resolved('account');
  const accountKeys = pending('account').map((m) => m.key);
  const createdAccounts = await ensureAccounts(tx, repositories, imp, accountKeys, familyCurrency, createdAccountType);
  for (const key of accountKeys) accounts.set(key, createdAccounts.get(key)!);

  const categories = resolved('category');
  const categoryKeys = pending('category').map((m) => m.key);
  if (categoryKeys.length) {
    // Placed as upload placed them, among all the file's keys, against the family's categories as they are now.
    const { targets } = await importMappings.placeCategories(tx, imp.familyId, mappings.filter((m) => m.type === 'category').map((m) => m.key));
    const target = (key: string) => targets.get(key)!;
    const tooLong = categoryKeys.find((key) => qualifiedNameProblem(key, target(key)));
    if (tooLong) throw new PublishError(`category '${shownValue(tooLong)}' ${qualifiedNameProblem(tooLong, target(tooLong))}`);
    const parentIds = await ensureNamed(tx, ledger.taxonomy, 'categories', imp, categoryKeys.flatMap((key) => target(key).parent ?? []));
    const parentOfName = new Map(categoryKeys.flatMap((key) => (target(key).parent ? [[target(key).name, parentIds.get(target(key).parent!)!] as const] : [])));
    const ids = await ensureNamed(tx, ledger.taxonomy, 'categories', imp, categoryKeys.map((key) => target(key).name), parentOfName);
    for (const key of categoryKeys) categories.set(key, ids.get(target(key).name)!);
  }

  const tags = resolved('tag');
  const tagKeys = pending('tag').map((m) => m.key);
  const tagIds = await ensureNamed(tx, ledger.taxonomy, 'tags', imp, tagKeys);
  for (const key of tagKeys) tags.set(key, tagIds.get(key)!);

  const updates = [
    ...accountKeys.map((k) => ['account', k, accounts.get(k)!]),
    ...categoryKeys.map((k) => ['category', k, categories.get(k)!]),
    ...tagKeys.map((k) => ['tag', k, tags.get(k)!]),
  ];
  if (updates.length) await publishing.setMappedIds(imp.id, updates, tx);
  const accountTypes = new Map(
    mappings.filter((m) => m.type === 'account_type' && m.value).map((m) => [m.key, m.value as AccountableType]),
  );
  const currencies = await ledger.accounts.currencies(imp.familyId, [...accounts.values(), ...(imp.accountId ? [imp.accountId] : [])], tx);
  const accountCurrencies = new Map(currencies.map((a) => [a.id, a.currency]));
  const ctx = { imp, familyCurrency, familyToday, accounts, accountCurrencies, categories, tags, accountTypes, priorSpans: new Map(), ledger, publishing };
  await checkAccountCurrencies(tx, ctx);
  return ctx;
}

/**
 * Stops the publish before its first chunk when a row's amount is finer than the currency of the account it names,
 * as resolved now: upload checked the accounts as they were then, and an account created here takes the family's
 * currency of today. Nothing is created: the caller's transaction rolls back.
 */
async function checkAccountCurrencies(tx: Transaction, ctx: Omit<PublishContext, 'format'>): Promise<void> {
  if (ctx.imp.accountId || !ctx.accounts.size) return;
  const rows: ParsedRow[] = await ctx.publishing.rowsWithoutCurrency(ctx.imp.id, ctx.imp.publishedThroughRow, tx);
  const errors = [...accountCurrencyErrors(ctx.imp, rows, (key) => ctx.accountCurrencies.get(ctx.accounts.get(key) ?? '')).values()];
  if (errors.length) {
    throw new PublishError(`${errors.length} rows have amounts their account's currency cannot hold: ${errors.slice(0, 5).join('; ')}`);
  }
}
