import { createHash } from 'node:crypto';
import type { Transaction } from '../../database/transactions';
import type { NewEntry } from '../../ledger/entries.repository';
import { ACCOUNTABLE_TYPES, AccountableType, TRANSACTION_KINDS } from '@hearth/contracts';
import { minorUnitsText, ServiceRecordType, splitLinesOf } from '@hearth/domain/import-formats';
import { classificationOf, paletteColor } from './mappables';
import type { RowsPublisher, ImportRowRecord, PublishContext, PublishRepositories } from './publish-context';
import { rulePublisher } from './taxonomy.publisher';

/** Rules of the NDJSON are created anew, as every record of it is. */
const publishRulesAnew = rulePublisher({ replacesNamed: false });

// ServiceImport publishing. Rows arrive in dependency order (stored that way at upload), so everything a record
// refers to was committed in this chunk's earlier statements or an earlier chunk. Source ids are remapped to
// deterministic uuids derived from (import, kind, source id): no lookup table, the same on a resumed publish, and
// revert can find records that carry no import_id (budgets). Every type is one set-based statement per chunk.

type Data = Record<string, unknown>;
interface Row {
  line: number;
  type: ServiceRecordType;
  currency: string;
  anchorDate: string | null;
  data: Data;
}
type Handler = (tx: Transaction, rows: Row[], ctx: PublishContext) => Promise<void>;

/**
 * The uuid a source id of one kind becomes in this import: an RFC 9562 version 8 (custom) uuid with the RFC variant,
 * so the API's own uuid validators (account_id, /budgets/{id}, ...) accept the ids it hands out.
 */
export function targetId(importId: string, kind: string, sourceId: string): string {
  const h = createHash('sha256').update(`${importId}\n${kind}\n${sourceId}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const sid = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null);
const ids = (v: unknown): string[] => (Array.isArray(v) ? [...new Set(v.map(sid).filter((x): x is string => x !== null))] : []);
const flag = (v: unknown) => v === true || v === 'true';
const oneOf = <T extends string>(v: unknown, allowed: readonly T[], fallback: T): T => (allowed.includes(v as T) ? (v as T) : fallback);
const minor = (v: unknown, currency: string) => minorUnitsText(v, currency);

function idOf(ctx: PublishContext, kind: string) {
  return (source: unknown): string | null => {
    const s = sid(source);
    return s === null ? null : targetId(ctx.imp.id, kind, s);
  };
}

const accounts: Handler = async (tx, rows, ctx) => {
  const account = idOf(ctx, 'accounts');
  const list = rows.map((r) => {
    const d = r.data;
    const type = oneOf(d.accountable_type, ACCOUNTABLE_TYPES, 'Depository') as AccountableType;
    const accountable = (typeof d.accountable === 'object' && d.accountable !== null ? d.accountable : {}) as Data;
    const balance = minor(d.balance, r.currency) ?? '0';
    return {
      id: account(d.id)!, name: String(d.name).trim(), type, subtype: text(accountable.subtype) ?? text(d.subtype), classification: classificationOf(type),
      balance, cash: minor(d.cash_balance, r.currency) ?? balance, currency: r.currency, status: oneOf(d.status, ['active', 'disabled', 'draft'], 'active'),
      institution: text(d.institution_name), notes: text(d.notes), anchorDate: r.anchorDate,
    };
  });
  await ctx.ledger.accounts.insertWithIds(ctx.imp.familyId, ctx.imp.id, list, tx);
  // Sure's synthesized opening balance (docs/api/service-ndjson.md#opening-balances), decided at upload by planServiceImport.
  const anchors = list.filter((a) => a.anchorDate).map((a) => ({ ...a, entryId: targetId(ctx.imp.id, 'opening_anchor', a.id) }));
  await insertEntries(tx, ctx, 'Valuation', anchors.map((a) => ({ id: a.entryId, accountId: a.id, date: a.anchorDate!, name: 'Opening balance', amount: a.balance, currency: a.currency })));
  await valuationDetails(tx, ctx, anchors.map((a) => ({ id: a.entryId, kind: 'opening_anchor' })));
};

const categories: Handler = async (tx, rows, ctx) => {
  const category = idOf(ctx, 'categories');
  const list = rows.map((r) => ({
    id: category(r.data.id), name: String(r.data.name).trim(), color: text(r.data.color), icon: text(r.data.lucide_icon), parentId: category(r.data.parent_id),
  }));
  await ctx.ledger.taxonomy.insertCategoriesWithIds(ctx.imp.familyId, ctx.imp.id, list, tx);
};

const tags: Handler = async (tx, rows, ctx) => {
  const list = rows.map((r) => ({ id: idOf(ctx, 'tags')(r.data.id), name: String(r.data.name).trim(), color: text(r.data.color) }));
  await ctx.ledger.taxonomy.insertTagsWithIds(ctx.imp.familyId, ctx.imp.id, list, tx);
};

const merchants: Handler = async (tx, rows, ctx) => {
  const names = rows.map((r) => String(r.data.name).trim());
  const list = rows.map((r, i) => ({
    id: idOf(ctx, 'merchants')(r.data.id), name: names[i],
    color: /^#[0-9a-fA-F]{6}$/.test(String(r.data.color)) ? String(r.data.color) : paletteColor(names[i]),
    logo: text(r.data.logo_url), website: text(r.data.website_url),
  }));
  await ctx.ledger.taxonomy.insertMerchantsWithIds(ctx.imp.familyId, ctx.imp.id, list, tx);
};

async function insertEntries(tx: Transaction, ctx: PublishContext, type: 'Transaction' | 'Trade' | 'Valuation', entries: NewEntry[]) {
  if (!entries.length) return;
  await ctx.ledger.entries.insertMany(ctx.imp.familyId, ctx.imp.id, type, entries, tx);
}

async function valuationDetails(tx: Transaction, ctx: PublishContext, rows: Array<{ id: string; kind: string }>) {
  if (!rows.length) return;
  await ctx.ledger.entries.insertValuations(rows, tx);
}

/** Transactions with their split lines as child entries (the parent is excluded, children inherit what they lack). */
const transactions: Handler = async (tx, rows, ctx) => {
  const account = idOf(ctx, 'accounts');
  const transaction = idOf(ctx, 'transactions');
  const category = idOf(ctx, 'categories');
  const merchant = idOf(ctx, 'merchants');
  const tag = idOf(ctx, 'tags');
  const entries: NewEntry[] = [];
  const details: Array<{ id: string; category: string | null; merchant: string | null; kind: string; tags: string[] }> = [];
  for (const r of rows) {
    const d = r.data;
    const given = splitLinesOf(d);
    const splits = (Array.isArray(given) ? given : []) as Data[];
    const parent: NewEntry = {
      id: transaction(d.id)!, accountId: account(d.account_id)!, date: String(d.date), name: text(d.name) ?? 'Imported transaction',
      amount: minor(d.amount, r.currency)!, currency: r.currency, notes: text(d.notes), excluded: splits.length > 0 || flag(d.excluded),
    };
    const kind = oneOf(d.kind, TRANSACTION_KINDS, 'standard');
    const parentTags = ids(d.tag_ids).map((t) => tag(t)!);
    entries.push(parent);
    details.push({ id: parent.id, category: category(d.category_id), merchant: merchant(d.merchant_id), kind, tags: parentTags });
    splits.forEach((s, k) => {
      const child: NewEntry = {
        ...parent, id: sid(s.id) ? transaction(s.id)! : targetId(ctx.imp.id, 'split', `${r.line}:${k}`),
        name: text(s.name) ?? text(s.memo) ?? text(s.description) ?? 'Imported split',
        amount: minor(s.amount ?? s.amount_money ?? s.amount_decimal, r.currency)!, notes: text(s.notes), excluded: flag(s.excluded), parentId: parent.id,
      };
      entries.push(child);
      details.push({
        id: child.id, category: category(s.category_id), merchant: merchant(s.merchant_id) ?? merchant(d.merchant_id),
        kind: oneOf(s.kind, TRANSACTION_KINDS, kind), tags: Array.isArray(s.tag_ids) ? ids(s.tag_ids).map((t) => tag(t)!) : parentTags,
      });
    });
  }
  await insertEntries(tx, ctx, 'Transaction', entries);
  await ctx.ledger.entries.insertTransactionDetails(details, tx);
  const pairs = details.flatMap((t) => t.tags.map((tagId) => [tagId, t.id]));
  if (pairs.length) await ctx.ledger.entries.insertTaggings(pairs, tx);
};

/**
 * Transfers, then Sure's kinds for their transactions (docs/api/service-ndjson.md#transfers): the inflow is a funds movement;
 * the outflow pays a loan or another liability, contributes to an investment or crypto account from outside one, or
 * is a funds movement.
 */
const transfers: Handler = async (tx, rows, ctx) => {
  const transaction = idOf(ctx, 'transactions');
  const [inflows, outflows] = [rows.map((r) => transaction(r.data.inflow_transaction_id)), rows.map((r) => transaction(r.data.outflow_transaction_id))];
  const list = rows.map((r, i) => ({
    id: targetId(ctx.imp.id, 'transfer', String(r.line)), inflow: inflows[i], outflow: outflows[i],
    status: oneOf(r.data.status, ['pending', 'confirmed'], 'pending'), notes: text(r.data.notes),
  }));
  await ctx.ledger.entries.insertTransfers(ctx.imp.familyId, ctx.imp.id, list, tx);
  await ctx.ledger.entries.setTransferKinds(inflows, outflows, tx);
};

/**
 * Trades: securities found by (ticker, MIC) or created offline; the entry amount is the file's, not recomputed, and
 * the fee (already in that amount) is kept apart, 0 when the file states none.
 */
const trades: Handler = async (tx, rows, ctx) => {
  const account = idOf(ctx, 'accounts');
  const list = rows.map((r) => {
    const d = r.data;
    const ticker = String(d.ticker).trim().toUpperCase();
    const qty = String(d.qty).trim();
    return {
      id: targetId(ctx.imp.id, 'line', String(r.line)), accountId: account(d.account_id)!, date: String(d.date), currency: r.currency,
      amount: minor(d.amount, r.currency)!, fee: minor(d.fee, r.currency) ?? '0', ticker, mic: (text(d.exchange_operating_mic) ?? '').toUpperCase(), securityName: text(d.security_name),
      qty, price: String(d.price).trim(), name: text(d.name) ?? `${qty.startsWith('-') ? 'Sell' : 'Buy'} ${ticker}`,
      label: text(d.investment_activity_label) ?? (qty.startsWith('-') ? 'Sell' : Number(qty) === 0 ? null : 'Buy'),
    };
  });
  await ctx.ledger.trades.insertNamedSecurities(list, tx);
  await insertEntries(tx, ctx, 'Trade', list.map((t) => ({ id: t.id, accountId: t.accountId, date: t.date, name: t.name, amount: t.amount, currency: t.currency })));
  await ctx.ledger.trades.insertTradeDetails(list, tx);
};

const valuations: Handler = async (tx, rows, ctx) => {
  const account = idOf(ctx, 'accounts');
  const list = rows.map((r) => ({
    id: targetId(ctx.imp.id, 'line', String(r.line)), accountId: account(r.data.account_id)!, date: String(r.data.date), name: text(r.data.name) ?? 'Valuation',
    amount: minor(r.data.amount, r.currency)!, currency: r.currency, kind: oneOf(r.data.kind, ['reconciliation', 'opening_anchor', 'current_anchor'], 'reconciliation'),
  }));
  await insertEntries(tx, ctx, 'Valuation', list);
  await valuationDetails(tx, ctx, list);
};

const budgets: Handler = async (tx, rows, ctx) => {
  const list = rows.map((r) => ({
    id: idOf(ctx, 'budgets')(r.data.id), startDate: r.data.start_date, endDate: r.data.end_date,
    spending: minor(r.data.budgeted_spending, r.currency), income: minor(r.data.expected_income, r.currency), currency: r.currency,
  }));
  await ctx.ledger.importedBudgets.insertBudgets(ctx.imp.familyId, list, tx);
};

const budgetCategories: Handler = async (tx, rows, ctx) => {
  const list = rows.map((r) => ({
    budgetId: idOf(ctx, 'budgets')(r.data.budget_id), categoryId: idOf(ctx, 'categories')(r.data.category_id),
    spending: minor(r.data.budgeted_spending, r.currency) ?? '0', currency: r.currency,
  }));
  await ctx.ledger.importedBudgets.insertBudgetCategories(list, tx);
};

type Operand = Data & { value_ref?: { name?: unknown }; sub_conditions?: Operand[] };
const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Exported rules name their category/merchant/tag operands; value_ref (ids of the source family) is dropped. */
function portableOperands(list: unknown): Operand[] {
  return (Array.isArray(list) ? list : []).map((raw: Operand) => {
    const { value_ref: ref, sub_conditions: subs, ...op } = raw ?? {};
    const refName = typeof ref?.name === 'string' ? ref.name : null;
    const value = refName && (op.value === null || op.value === undefined || (typeof op.value === 'string' && UUID_LIKE.test(op.value))) ? refName : op.value;
    return { ...op, value, ...(Array.isArray(subs) ? { sub_conditions: portableOperands(subs) } : {}) };
  });
}

/** Rules reuse the RuleImport publisher: names become this family's ids, created when missing. */
const rules: Handler = async (tx, rows, ctx) => {
  const records: ImportRowRecord[] = rows.map((r) => ({
    sourceRowNumber: r.line,
    values: { name: r.data.name, active: flag(r.data.active), effective_date: r.data.effective_date, conditions: portableOperands(r.data.conditions), actions: portableOperands(r.data.actions) },
  }));
  await publishRulesAnew(tx, records, ctx);
};

/** Types Hearth has no table for yet (balances, holdings, recurring and rejected transfers): counted, not stored. */
const skip: Handler = async () => undefined;

const HANDLERS: Record<ServiceRecordType, Handler> = {
  Account: accounts,
  Balance: skip,
  Category: categories,
  Tag: tags,
  Merchant: merchants,
  RecurringTransaction: skip,
  Transaction: transactions,
  Transfer: transfers,
  RejectedTransfer: skip,
  Trade: trades,
  Holding: skip,
  Valuation: valuations,
  Budget: budgets,
  BudgetCategory: budgetCategories,
  Rule: rules,
};

/** One chunk: consecutive rows of the same type go to that type's handler, in order. */
export const publishServiceImport: RowsPublisher = async (tx, records, ctx) => {
  let group: Row[] = [];
  const flush = async () => {
    if (group.length) await HANDLERS[group[0].type](tx, group, ctx);
    group = [];
  };
  for (const record of records) {
    const v = record.values;
    const row: Row = { line: Number(v.line), type: v.type as ServiceRecordType, currency: String(v.currency), anchorDate: (v.anchor_date as string | null) ?? null, data: v.data as Data };
    if (!row.data) throw new Error(`ServiceImport row ${record.sourceRowNumber} has no record (preflight should have refused it)`);
    if (group.length && group[0].type !== row.type) await flush();
    group.push(row);
  }
  await flush();
};

/** Budgets carry no import_id: revert finds the ones this import created through their derived ids. */
export async function deleteServiceImportBudgets(tx: Transaction, repositories: PublishRepositories, familyId: string, importId: string): Promise<void> {
  const rows = await repositories.publishing.serviceBudgetIds(importId, tx);
  const budgetIds = rows.filter((r) => r.id).map((r) => targetId(importId, 'budgets', r.id!.trim()));
  if (budgetIds.length) await repositories.ledger.importedBudgets.deleteByIds(familyId, budgetIds, tx);
}
