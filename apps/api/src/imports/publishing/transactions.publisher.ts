import { timeOrderedId } from '../../common/time-ordered-id';
import type { Transaction } from '../../database/transactions';
import { minorUnitScales } from './minor-units';
import { chunkBounds, ChunkPublisher, claimDuplicates, ImportChunk, list, PriorSpan, PublishContext, PublishError } from './publish-context';
import type { DuplicateCandidate, TransactionChunk } from '../../ledger/imported-transactions.repository';

/** A row the chunk shares with an earlier transaction, with what the row might add to that transaction. */
interface DuplicateRow {
  rowNumber: number;
  entryId: string;
  categoryId: string | null;
  notes: string | null;
  tagIds: string[];
  existing: { notes: string | null; categoryId: string | null };
}

const json = (map: Map<string, string>) => JSON.stringify(Object.fromEntries(map));

/**
 * The chunk as the ledger's statements read it, built once per chunk for every statement that reads it. Without a
 * currency column (the stored currency is then the default of the upload) a row takes its account's currency, as
 * does a row with a blank currency cell that names its account (stored without a currency).
 */
function chunkParams(ctx: PublishContext, chunk: ImportChunk, rowKind: string | null): TransactionChunk {
  const currencies = ctx.imp.currencyColLabel ? '{}' : json(ctx.accountCurrencies);
  return {
    bounds: chunkBounds(ctx, chunk, rowKind),
    accountId: ctx.imp.accountId,
    accounts: json(ctx.accounts),
    categories: json(ctx.categories),
    currencies,
    scales: minorUnitScales(),
    source: ctx.format.duplicates === 'external_id' ? ctx.format.type : null,
  };
}

/**
 * Fills ctx.priorSpans for the accounts not seen before in this publish: the first and last date of each one's
 * transactions a row could duplicate (not created by this import, without an external id). Taken once per account,
 * before this import's own entries fill the index. The publish holds its accounts (AccountLocksRepository) from
 * before its first chunk to its end, so no other publish adds to them meanwhile and the span taken once stays true.
 */
async function priorSpans(tx: Transaction, ctx: PublishContext, accountIds: string[]): Promise<Map<string, PriorSpan | null>> {
  const unseen = accountIds.filter((id) => !ctx.priorSpans.has(id));
  if (unseen.length) {
    const spans = await ctx.ledger.importedTransactions.priorSpans(ctx.imp.familyId, ctx.imp.id, unseen, tx);
    for (const id of unseen) ctx.priorSpans.set(id, null);
    for (const { account_id, first, last } of spans) ctx.priorSpans.set(account_id, { first, last });
  }
  return ctx.priorSpans;
}

/**
 * The accounts the chunk's rows go to. Without the import's own account, rows name theirs, and a row whose account
 * is unknown stops the publish with its row number.
 */
async function chunkAccounts(tx: Transaction, ctx: PublishContext, params: TransactionChunk): Promise<string[]> {
  if (ctx.imp.accountId) return [ctx.imp.accountId];
  const { unassigned, accounts } = await ctx.ledger.importedTransactions.chunkAccounts(params, tx);
  if (unassigned !== null) throw new PublishError(`Row ${unassigned}: no account (set account_id or an account column)`);
  return accounts ?? [];
}

/**
 * Existing transactions the chunk's rows duplicate: same account, date, amount, currency and name, no external id,
 * not created or already claimed by this import; a row claims no split's part, a split's part only a part of the
 * transaction its split's total claimed (a re-imported split). The n-th identical row claims the n-th oldest
 * identical entry, so two identical entries absorb two identical rows and no more. Candidates are listed while other
 * chunks run; the claiming, in memory against the claims held there, takes its turn in file order (a split's parts
 * are in its chunk).
 */
async function findDuplicates(tx: Transaction, ctx: PublishContext, chunk: ImportChunk, params: TransactionChunk, accounts: string[]): Promise<DuplicateRow[]> {
  const byId = params.source === null ? [] : await externalIdCandidates(tx, ctx, params, accounts);
  const byContent = await duplicateCandidates(tx, ctx, params, accounts);
  // Each row is in one list or the other (a row with an external id is probed by it alone): merged in file order.
  const candidates = byId.length ? [...byId, ...byContent].sort((a, b) => a.rowNumber - b.rowNumber) : byContent;
  return chunk.inOrder(async () => {
    const wholes = await claimDuplicates(tx, ctx, candidates.filter((c) => c.splitOf === null));
    const claimedBy = new Map(wholes.map((c) => [c.rowNumber, c.entryId]));
    const parts = await claimDuplicates(tx, ctx, candidates.filter((c) => c.splitOf !== null && claimedBy.get(c.splitOf) === c.parentEntryId));
    return [...wholes, ...parts].map(({ tags, existingNotes, existingCategoryId, splitOf: _splitOf, parentEntryId: _parentEntryId, ...row }) => ({
      ...row,
      tagIds: tagIds(ctx, tags),
      existing: { notes: existingNotes, categoryId: existingCategoryId },
    }));
  });
}

/**
 * Each of the chunk's rows with the entries it could duplicate, in file order and each row's oldest first
 * (ImportedTransactionsRepository.duplicateCandidates). Only rows dated within their account's prior span are
 * probed: a first import into an account probes nothing.
 */
async function duplicateCandidates(tx: Transaction, ctx: PublishContext, params: TransactionChunk, accounts: string[]): Promise<DuplicateCandidate[]> {
  const spans = await priorSpans(tx, ctx, accounts);
  const probed = Object.fromEntries(accounts.flatMap((id) => (spans.get(id) ? [[id, spans.get(id)]] : [])));
  if (!Object.keys(probed).length) return [];
  return ctx.ledger.importedTransactions.duplicateCandidates(params, ctx.imp.familyId, JSON.stringify(probed), tx);
}

/**
 * Each of the chunk's rows carrying an external id with the transaction its account holds under that id from an
 * earlier import of the same type (ImportedTransactionsRepository.externalIdCandidates). Only accounts holding such
 * ids are probed, asked once per account and publish: a first import into an account probes nothing.
 */
async function externalIdCandidates(tx: Transaction, ctx: PublishContext, params: TransactionChunk, accounts: string[]): Promise<DuplicateCandidate[]> {
  const known = (ctx.identifiedAccounts ??= new Map());
  const unseen = accounts.filter((id) => !known.has(id));
  if (unseen.length) {
    const holding = new Set(await ctx.ledger.importedTransactions.accountsWithExternalIds(ctx.imp.familyId, ctx.imp.id, unseen, params.source!, tx));
    for (const id of unseen) known.set(id, holding.has(id));
  }
  const probed = accounts.filter((id) => known.get(id));
  return probed.length ? ctx.ledger.importedTransactions.externalIdCandidates(params, ctx.imp.familyId, probed, tx) : [];
}

/** The ids of the tags a row names (mapped when the import was published), each once. */
const tagIds = (ctx: PublishContext, tags: unknown): string[] =>
  [...new Set(list(tags).map((t) => ctx.tags.get(t)).filter((id): id is string => Boolean(id)))];

/**
 * The chunk's rows that duplicate nothing become entries, transactions and taggings in one statement
 * (ImportedTransactionsRepository.insertTransactions). Ids come from Node, time-ordered, so the inserts append to
 * their indexes.
 */
async function insertTransactions(tx: Transaction, ctx: PublishContext, params: TransactionChunk, size: number, duplicates: DuplicateRow[], claims: string): Promise<void> {
  const ids = Array.from({ length: size }, () => timeOrderedId());
  await ctx.ledger.importedTransactions.insertTransactions(params, ctx.imp.familyId, ids, duplicates.map((d) => d.rowNumber), json(ctx.tags), claims, tx);
}

/**
 * A split's parts that insertTransactions will leave out, as their total claimed a transaction already split, name
 * that transaction (duplicate_of), as a duplicate does: GET .../rows then says what each row matched. Run before the
 * insert, while the transaction's parts are only those it had. Only a QIF or Actual split's total can claim a
 * transaction, and only a chunk with claims can have such parts.
 */
async function markPartsOfSplitTransactions(tx: Transaction, ctx: PublishContext, chunk: ImportChunk, rowKind: string | null, duplicates: DuplicateRow[], claims: string): Promise<void> {
  if (!ctx.format.splitParts || !duplicates.length) return;
  await ctx.ledger.importedTransactions.markPartsOfSplitTransactions(chunkBounds(ctx, chunk, rowKind), claims, tx);
}

/** Tags the rows add to their entries; returns the tag ids added by entry (an entry already tagged so is left out). */
async function insertTaggings(tx: Transaction, ctx: PublishContext, rows: Array<{ entryId: string; tagIds: string[] }>): Promise<Map<string, string[]>> {
  const pairs = rows.flatMap((r) => r.tagIds.map((tagId) => [tagId, r.entryId]));
  const added = new Map<string, string[]>();
  if (!pairs.length) return added;
  const inserted = await ctx.ledger.importedTransactions.insertTaggings(pairs, tx);
  for (const { tag_id, entry_id } of inserted) added.set(entry_id, [...(added.get(entry_id) ?? []), tag_id]);
  return added;
}

/**
 * A duplicate keeps its identity; the row adds its category, tags and notes, and the claim is recorded with what
 * the row changed (import_rows.previous) for revert to put back. Only what changes is written: a re-imported export
 * usually changes nothing, and each UPDATE is a new row version.
 */
async function updateDuplicates(tx: Transaction, ctx: PublishContext, rows: DuplicateRow[]): Promise<void> {
  if (!rows.length) return;
  const recategorises = (r: DuplicateRow) => r.categoryId !== null && r.categoryId !== r.existing.categoryId;
  const annotates = (r: DuplicateRow) => r.notes !== null && r.notes !== r.existing.notes;
  const recategorised = rows.filter(recategorises);
  if (recategorised.length) await ctx.ledger.importedTransactions.recategorise(recategorised, tx);
  const annotated = rows.filter(annotates);
  if (annotated.length) await ctx.ledger.importedTransactions.annotate(annotated, tx);
  const tagged = await insertTaggings(tx, ctx, rows);
  const previous = rows.map((r) => {
    const changes = {
      ...(recategorises(r) ? { category_id: [r.existing.categoryId, r.categoryId] } : {}),
      ...(annotates(r) ? { notes: [r.existing.notes, r.notes] } : {}),
      ...(tagged.has(r.entryId) ? { tag_ids: tagged.get(r.entryId) } : {}),
    };
    return Object.keys(changes).length ? JSON.stringify(changes) : null;
  });
  await ctx.ledger.importedTransactions.recordDuplicates(ctx.imp.id, rows, previous, tx);
}

/**
 * The chunk's rows (of `rowKind` in a statement) become transactions; under the format's duplicate policy `content`
 * (bank and app exports, re-imported with overlapping dates) rows skip duplicates of existing ones and add to them
 * instead; under `external_id`, a row whose bank id its account holds from the same type does so too.
 */
export async function publishTransactionRows(tx: Transaction, chunk: ImportChunk, ctx: PublishContext, rowKind: string | null): Promise<void> {
  const params = chunkParams(ctx, chunk, rowKind);
  const accounts = await chunkAccounts(tx, ctx, params);
  const duplicates = ctx.format.duplicates === 'none' ? [] : await findDuplicates(tx, ctx, chunk, params, accounts);
  // The entry each duplicate row claimed, by row number, for SQL to look up.
  const claims = json(new Map(duplicates.map((d) => [String(d.rowNumber), d.entryId])));
  await markPartsOfSplitTransactions(tx, ctx, chunk, rowKind, duplicates, claims);
  // A re-imported chunk is often all duplicates: nothing left to insert.
  if (duplicates.length < chunk.size) await insertTransactions(tx, ctx, params, chunk.size, duplicates, claims);
  await updateDuplicates(tx, ctx, duplicates);
}

/** Transaction, Mint, Actual and YNAB rows become transactions. */
export const publishTransactions: ChunkPublisher = (tx, chunk, ctx) => publishTransactionRows(tx, chunk, ctx, null);
