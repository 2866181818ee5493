import { timeOrderedId } from '../../common/time-ordered-id';
import type { Transaction } from '../../database/transactions';
import { minorUnitScales } from './minor-units';
import { chunkBounds, ChunkPublisher, claimDuplicates, ImportChunk, list, PriorSpan, PublishContext, PublishError, SPLIT_PART_TYPES } from './publish-context';
import { unmovedStatements } from './unmoved-statements';
import { IN_CHUNK } from '../../ledger/import-chunk';

/** A row the chunk shares with an earlier transaction, with what the row might add to that transaction. */
interface DuplicateRow {
  rowNumber: number;
  entryId: string;
  categoryId: string | null;
  notes: string | null;
  tagIds: string[];
  existing: { notes: string | null; categoryId: string | null };
}

/** A string value of the row, trimmed; NULL when absent or blank. */
const text = (key: string) => `NULLIF(btrim(r."values"->>'${key}'), '')`;

/**
 * The chunk's transaction rows as records, read and converted where they are stored: nothing travels through Node.
 * Parameters (`chunkParams`): $1-$4 the chunk's bounds (IN_CHUNK), $5 the import's account or NULL, $6/$7 account
 * and category ids by mapping key (JSON objects), $8 currencies by account id that replace the rows' own (JSON), $9
 * scales by currency. `ordinal` numbers the rows 1..n for the ids the insert hands out.
 */
const CHUNK_TRANSACTIONS = `
  SELECT r.source_row_number AS rn,
         row_number() OVER (ORDER BY r.source_row_number)::int AS ordinal,
         acct.id AS account_id,
         (r."values"->>'date')::date AS date,
         COALESCE(${text('name')}, 'Imported item') AS name,
         round((r."values"->>'amount')::numeric * ($9::jsonb ->> cur.code)::numeric)::bigint AS amount_minor,
         cur.code AS currency,
         ${text('notes')} AS notes,
         ($7::jsonb ->> ${text('category')})::uuid AS category_id,
         CASE WHEN jsonb_typeof(r."values"->'tags') = 'array' THEN r."values"->'tags' ELSE '[]'::jsonb END AS tags,
         -- A transfer to another account (QIF [Account]) moves money; budgets leave it out.
         CASE WHEN ${text('transfer_account')} IS NULL THEN 'standard' ELSE 'funds_movement' END AS kind,
         -- An Actual or QIF split: the parent row (its total, excluded as a ServiceImport split's parent is) and its parts.
         r."values"->>'split_count' IS NOT NULL AS split_parent,
         (r."values"->>'split_of')::int AS split_of
    FROM import_rows r
   CROSS JOIN LATERAL (SELECT COALESCE($5::uuid, ($6::jsonb ->> ${text('account')})::uuid) AS id) acct
   -- A row naming its account without a currency of its own (null) takes that account's.
   CROSS JOIN LATERAL (SELECT COALESCE($8::jsonb ->> acct.id::text, ${text('currency')}, (SELECT a.currency FROM accounts a WHERE a.id = acct.id)) AS code) cur
   WHERE ${IN_CHUNK}`;

const json = (map: Map<string, string>) => JSON.stringify(Object.fromEntries(map));

/**
 * $1-$9 of CHUNK_TRANSACTIONS, built once per chunk for every statement that reads it. Without a currency column
 * (the stored currency is then the default of the upload) a row takes its account's currency, as
 * does a row with a blank currency cell that names its account (stored without a currency).
 */
function chunkParams(ctx: PublishContext, chunk: ImportChunk, rowKind: string | null): unknown[] {
  const currencies = ctx.imp.currencyColLabel ? '{}' : json(ctx.accountCurrencies);
  return [...chunkBounds(ctx, chunk, rowKind), ctx.imp.accountId, json(ctx.accounts), json(ctx.categories), currencies, minorUnitScales()];
}

/**
 * An entry an import row can duplicate: a transaction not created by this import, without an external id. The
 * queries below reach entries through the family's accounts, never through entries.family_id: with a family_id
 * filter and statistics that lag behind a large import, the planner probed the (family, date) index and read every
 * entry of the day for each key.
 */
const priorTransaction = (importParam: string) => `e.entryable_type = 'Transaction' AND e.external_id IS NULL AND e.import_id IS DISTINCT FROM ${importParam}`;

/**
 * Fills ctx.priorSpans for the accounts not seen before in this publish: two index probes each (first and last
 * date). Taken once per account, before this import's own entries fill the index. The publish holds its accounts
 * (AccountLocksRepository) from before its first chunk to its end, so no other publish adds to them meanwhile and the span
 * taken once stays true.
 */
async function priorSpans(tx: Transaction, ctx: PublishContext, accountIds: string[]): Promise<Map<string, PriorSpan | null>> {
  const unseen = accountIds.filter((id) => !ctx.priorSpans.has(id));
  if (unseen.length) {
    const spans: Array<{ account_id: string } & PriorSpan> = await unmovedStatements(tx).query(
      `SELECT a.id AS account_id, lo.date::text AS first, hi.date::text AS last
         FROM accounts a
         CROSS JOIN LATERAL (SELECT e.date FROM entries e WHERE e.account_id = a.id AND ${priorTransaction('$2')} ORDER BY e.date LIMIT 1) lo
         CROSS JOIN LATERAL (SELECT e.date FROM entries e WHERE e.account_id = a.id AND ${priorTransaction('$2')} ORDER BY e.date DESC LIMIT 1) hi
        WHERE a.id = ANY($3::uuid[]) AND a.family_id = $1`,
      [ctx.imp.familyId, ctx.imp.id, unseen],
    );
    for (const id of unseen) ctx.priorSpans.set(id, null);
    for (const { account_id, first, last } of spans) ctx.priorSpans.set(account_id, { first, last });
  }
  return ctx.priorSpans;
}

/**
 * The accounts the chunk's rows go to. Without the import's own account, rows name theirs, and a row whose account
 * is unknown stops the publish with its row number.
 */
async function chunkAccounts(tx: Transaction, ctx: PublishContext, params: unknown[]): Promise<string[]> {
  if (ctx.imp.accountId) return [ctx.imp.accountId];
  const [{ unassigned, accounts }] = await unmovedStatements(tx).query(
    `SELECT min(rn) FILTER (WHERE account_id IS NULL) AS unassigned, array_agg(DISTINCT account_id) FILTER (WHERE account_id IS NOT NULL) AS accounts
       FROM (${CHUNK_TRANSACTIONS}) c`,
    params,
  );
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
async function findDuplicates(tx: Transaction, ctx: PublishContext, chunk: ImportChunk, params: unknown[], accounts: string[]): Promise<DuplicateRow[]> {
  const candidates = await duplicateCandidates(tx, ctx, params, accounts);
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

type Candidate = Omit<DuplicateRow, 'tagIds' | 'existing'> & {
  tags: unknown;
  existingNotes: string | null;
  existingCategoryId: string | null;
  /** The row's split total's row number (a part's), and the entry's parent (a part's). */
  splitOf: number | null;
  parentEntryId: string | null;
};

/**
 * Each of the chunk's rows with the entries it could duplicate, in file order and each row's oldest first, in one
 * statement. Each row probes the (account, date, amount) index on its own, so the cost follows the chunk, not the
 * family's history, whatever the statistics say: `OFFSET 0` keeps the planner from flattening the LATERAL into a
 * join (with statistics that lagged behind a large import, the flattened plan compared every key with every entry
 * of the family). Checking claims in SQL, against rows stored moments before, let the planner loop over all of the
 * import's rows for each candidate, so claims are checked in memory. Only rows dated within their account's prior
 * span are probed: a first import into an account probes nothing. The probes run by index whatever the statistics
 * say (byIndexOnly). Measurements: docs/performance.md#duplicate-probes.
 */
async function duplicateCandidates(tx: Transaction, ctx: PublishContext, params: unknown[], accounts: string[]): Promise<Candidate[]> {
  const spans = await priorSpans(tx, ctx, accounts);
  const probed = Object.fromEntries(accounts.flatMap((id) => (spans.get(id) ? [[id, spans.get(id)]] : [])));
  if (!Object.keys(probed).length) return [];
  return byIndexOnly(tx, () => unmovedStatements(tx).query(
    `SELECT i.rn AS "rowNumber", i.category_id AS "categoryId", i.notes, i.tags, i.split_of AS "splitOf",
            x.id AS "entryId", x.notes AS "existingNotes", x.category_id AS "existingCategoryId", x.parent_entry_id AS "parentEntryId"
       FROM (${CHUNK_TRANSACTIONS}) i
       JOIN accounts a ON a.id = i.account_id AND a.family_id = $10
       CROSS JOIN LATERAL (
         SELECT e.id, e.notes, tr.category_id, e.parent_entry_id, row_number() OVER (ORDER BY e.created_at, e.id) AS age
           FROM entries e JOIN transactions tr ON tr.entry_id = e.id
          WHERE e.account_id = i.account_id AND e.date = i.date AND e.amount_minor = i.amount_minor
            AND e.currency = i.currency AND e.name = i.name AND ${priorTransaction('$1')}
            -- A split's part is a share of a purchase, never a bank line of its own (its parent is); only a part can be
            -- the same part again (findDuplicates keeps those of the transaction its total claimed).
            AND (e.parent_entry_id IS NULL) = (i.split_of IS NULL)
         OFFSET 0) x
      WHERE i.date BETWEEN ($11::jsonb -> i.account_id::text ->> 'first')::date AND ($11::jsonb -> i.account_id::text ->> 'last')::date
      ORDER BY i.rn, x.age`,
    [...params, ctx.imp.familyId, JSON.stringify(probed)],
  ));
}

/**
 * Runs `query` with sequential scans off, then sets them back (should it fail, its transaction's rollback does). With
 * statistics taken while the tables were nearly empty (a new instance, autovacuum not caught up), a probe by index and
 * a scan of the whole table cost the planner the same, and it scanned entries and transactions whole for each row,
 * in time growing with rows x entries.
 */
async function byIndexOnly<T>(tx: Transaction, query: () => Promise<T>): Promise<T> {
  const [{ was }] = await unmovedStatements(tx).query(`SELECT current_setting('enable_seqscan') AS was, set_config('enable_seqscan', 'off', true)`);
  const result = await query();
  await unmovedStatements(tx).query(`SELECT set_config('enable_seqscan', $1, true)`, [was]);
  return result;
}

/** The ids of the tags a row names (mapped when the import was published), each once. */
const tagIds = (ctx: PublishContext, tags: unknown): string[] =>
  [...new Set(list(tags).map((t) => ctx.tags.get(t)).filter((id): id is string => Boolean(id)))];

/**
 * The chunk's rows that duplicate nothing become entries, transactions and taggings in one statement, converted in
 * SQL from the stored rows. Ids come from Node, time-ordered, so the inserts append to their indexes. A split whose
 * total claimed a transaction splits it (excluded, its parts under it), as the file does; one already split (the
 * same split re-imported, or split otherwise) keeps its parts, and the file's parts not found among them add nothing,
 * as they would count the purchase twice (markPartsOfSplitTransactions). Revert of this import counts a transaction it
 * split again (UNSPLIT_PASSED).
 */
async function insertTransactions(tx: Transaction, ctx: PublishContext, params: unknown[], size: number, duplicates: DuplicateRow[], claims: string): Promise<void> {
  await unmovedStatements(tx).query(
    `WITH chunk AS MATERIALIZED (${CHUNK_TRANSACTIONS}),
          claimed AS (SELECT ($11::uuid[])[ordinal] AS id, c.*, ($14::jsonb ->> c.split_of::text)::uuid AS claimed_parent FROM chunk c WHERE c.rn <> ALL($12::int[])),
          fresh AS MATERIALIZED (
            SELECT * FROM claimed f
             WHERE f.claimed_parent IS NULL OR NOT EXISTS (SELECT 1 FROM entries k WHERE k.parent_entry_id = f.claimed_parent)),
          split_up AS (UPDATE entries e SET excluded = true, updated_at = now() WHERE e.id IN (SELECT claimed_parent FROM fresh) AND NOT e.excluded),
          -- The new ids by row number, for a part to find its total's: one lookup each, not a join of fresh with itself,
          -- which statistics of earlier imports (a new import's rows unknown to them, one row estimated) made a nested
          -- loop over every pair of the chunk's rows.
          new_ids AS (SELECT jsonb_object_agg(rn::text, id) AS by_row FROM fresh),
          entries_in AS (
            INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, notes, excluded, parent_entry_id, import_id)
            SELECT f.id, $10, f.account_id, 'Transaction', f.date, f.name, f.amount_minor, f.currency, f.notes, f.split_parent,
                   COALESCE(((SELECT by_row FROM new_ids) ->> f.split_of::text)::uuid, f.claimed_parent), $1
              FROM fresh f),
          transactions_in AS (INSERT INTO transactions (entry_id, category_id, kind) SELECT id, category_id, kind FROM fresh)
     INSERT INTO taggings (tag_id, entry_id)
     SELECT DISTINCT tag.id, f.id
       FROM fresh f
       CROSS JOIN LATERAL jsonb_array_elements_text(f.tags) AS t(name)
       CROSS JOIN LATERAL (SELECT ($13::jsonb ->> btrim(t.name))::uuid AS id) tag
      WHERE tag.id IS NOT NULL
     ON CONFLICT DO NOTHING`,
    [
      ...params,
      ctx.imp.familyId,
      Array.from({ length: size }, () => timeOrderedId()),
      duplicates.map((d) => d.rowNumber),
      json(ctx.tags),
      claims,
    ],
  );
}

/**
 * A split's parts that insertTransactions will leave out, as their total claimed a transaction already split, name
 * that transaction (duplicate_of), as a duplicate does: GET .../rows then says what each row matched. Run before the
 * insert, while the transaction's parts are only those it had. Only a QIF or Actual split's total can claim a
 * transaction, and only a chunk with claims can have such parts.
 */
async function markPartsOfSplitTransactions(tx: Transaction, ctx: PublishContext, chunk: ImportChunk, rowKind: string | null, duplicates: DuplicateRow[], claims: string): Promise<void> {
  if (!SPLIT_PART_TYPES.has(ctx.imp.type) || !duplicates.length) return;
  // The chunk's rows alone, each looking its total up in the claims: no join a planner could turn into a loop over pairs.
  await unmovedStatements(tx).query(
    `UPDATE import_rows r SET duplicate_of = ($5::jsonb ->> (r."values"->>'split_of'))::uuid
      WHERE ${IN_CHUNK} AND $5::jsonb ? (r."values"->>'split_of') AND NOT $5::jsonb ? r.source_row_number::text
        AND EXISTS (SELECT 1 FROM entries k WHERE k.parent_entry_id = ($5::jsonb ->> (r."values"->>'split_of'))::uuid)`,
    [...chunkBounds(ctx, chunk, rowKind), claims],
  );
}

/** Tags the rows add to their entries; returns the tag ids added by entry (an entry already tagged so is left out). */
async function insertTaggings(tx: Transaction, rows: Array<{ entryId: string; tagIds: string[] }>): Promise<Map<string, string[]>> {
  const pairs = rows.flatMap((r) => r.tagIds.map((tagId) => [tagId, r.entryId]));
  const added = new Map<string, string[]>();
  if (!pairs.length) return added;
  const inserted: Array<{ tag_id: string; entry_id: string }> = await unmovedStatements(tx).query(
    `INSERT INTO taggings (tag_id, entry_id) SELECT * FROM unnest($1::uuid[], $2::uuid[]) ON CONFLICT DO NOTHING RETURNING tag_id, entry_id`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
  );
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
  if (recategorised.length) {
    await unmovedStatements(tx).query(
      `UPDATE transactions t SET category_id = u.category_id, updated_at = now()
         FROM unnest($1::uuid[], $2::uuid[]) AS u(entry_id, category_id) WHERE t.entry_id = u.entry_id`,
      [recategorised.map((r) => r.entryId), recategorised.map((r) => r.categoryId)],
    );
  }
  const annotated = rows.filter(annotates);
  if (annotated.length) {
    await unmovedStatements(tx).query(
      `UPDATE entries e SET notes = u.notes, updated_at = now() FROM unnest($1::uuid[], $2::text[]) AS u(id, notes) WHERE e.id = u.id`,
      [annotated.map((r) => r.entryId), annotated.map((r) => r.notes)],
    );
  }
  const tagged = await insertTaggings(tx, rows);
  const previous = rows.map((r) => {
    const changes = {
      ...(recategorises(r) ? { category_id: [r.existing.categoryId, r.categoryId] } : {}),
      ...(annotates(r) ? { notes: [r.existing.notes, r.notes] } : {}),
      ...(tagged.has(r.entryId) ? { tag_ids: tagged.get(r.entryId) } : {}),
    };
    return Object.keys(changes).length ? JSON.stringify(changes) : null;
  });
  await unmovedStatements(tx).query(
    `UPDATE import_rows r SET duplicate_of = u.entry_id, previous = u.previous
       FROM unnest($2::int[], $3::uuid[], $4::jsonb[]) AS u(rn, entry_id, previous) WHERE r.import_id = $1 AND r.source_row_number = u.rn`,
    [ctx.imp.id, rows.map((r) => r.rowNumber), rows.map((r) => r.entryId), previous],
  );
}

/**
 * Bank exports re-imported with overlapping dates must not double the history; nor must Mint, YNAB and Actual
 * exports, which hold the whole history each time they are written.
 */
const DEDUPLICATED = new Set(['TransactionImport', 'QifImport', 'PdfImport', 'MintImport', 'YnabImport', 'ActualImport']);

/**
 * The chunk's rows (of `rowKind` in a statement) become transactions; bank exports skip duplicates of existing
 * ones and add to them instead.
 */
export async function publishTransactionRows(tx: Transaction, chunk: ImportChunk, ctx: PublishContext, rowKind: string | null): Promise<void> {
  const params = chunkParams(ctx, chunk, rowKind);
  const accounts = await chunkAccounts(tx, ctx, params);
  const duplicates = DEDUPLICATED.has(ctx.imp.type) ? await findDuplicates(tx, ctx, chunk, params, accounts) : [];
  // The entry each duplicate row claimed, by row number, for SQL to look up.
  const claims = json(new Map(duplicates.map((d) => [String(d.rowNumber), d.entryId])));
  await markPartsOfSplitTransactions(tx, ctx, chunk, rowKind, duplicates, claims);
  // A re-imported chunk is often all duplicates: nothing left to insert.
  if (duplicates.length < chunk.size) await insertTransactions(tx, ctx, params, chunk.size, duplicates, claims);
  await updateDuplicates(tx, ctx, duplicates);
}

/** Transaction, Mint, Actual and YNAB rows become transactions. */
export const publishTransactions: ChunkPublisher = (tx, chunk, ctx) => publishTransactionRows(tx, chunk, ctx, null);
