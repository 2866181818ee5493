import { undoCalls, type BulkChange, type SplitPart, type Transaction } from './api/useTransactions';
import { apiAmountOf, shownMinorUnits } from './money';

/**
 * The last change made on the register, with how to take it back. Only the last one is kept, in the page: its
 * previous values were read from the rows as they were shown before the change. `undo` is absent when the change
 * cannot be taken back exactly, and `why` then says so.
 */
export interface LastChange {
  done: string;
  undo?: () => Promise<unknown>;
  why?: string;
}

/** A part as POST .../split takes it again. */
export const partOf = (part: Transaction): SplitPart => ({
  amount: apiAmountOf(part),
  name: part.name,
  category_id: part.category?.id ?? null,
  merchant_id: part.merchant?.id ?? null,
  tag_ids: part.tags.map((tag) => tag.id),
  notes: part.notes,
});

export type EditedField = 'category' | 'tags' | 'notes';

/** An inline edit: the field's previous value is sent back. */
export function editUndo(before: Transaction, field: EditedField, done: string): LastChange {
  const previous =
    field === 'category' ? { category_id: before.category?.id ?? null } : field === 'tags' ? { tag_ids: before.tags.map((tag) => tag.id) } : { notes: before.notes };
  return { done, undo: () => undoCalls.update(before.id, previous) };
}

/** A transaction added by hand is deleted. */
export const createUndo = (created: Transaction): LastChange => ({ done: `Added “${created.name}”.`, undo: () => undoCalls.remove(created.id) });

/** Both sides of a new transfer are deleted (deleting one leaves the other as an ordinary transaction). */
export const transferUndo = (outflow: Transaction, inflow: Transaction): LastChange => ({
  done: `Added a transfer of ${shownMinorUnits(BigInt(outflow.amount_cents), outflow.currency)} from ${outflow.account.name} to ${inflow.account.name}.`,
  undo: async () => {
    await undoCalls.remove(outflow.id);
    await undoCalls.remove(inflow.id);
  },
});

/**
 * A deleted transaction is made again with what the register showed of it: account, date, amount, name, category,
 * merchant, tags and notes. A split's parts and a transfer's link went with it and are not made again.
 */
export function deleteUndo(deleted: Transaction, hadParts: boolean): LastChange {
  const lost = hadParts ? ' Undo brings it back whole, without its parts.' : deleted.transfer ? ' Undo brings it back as an ordinary transaction, not as a transfer.' : '';
  return {
    done: `Deleted “${deleted.name}”.${lost}`,
    undo: () =>
      undoCalls.create({
        account_id: deleted.account.id,
        date: deleted.date,
        amount: apiAmountOf(deleted),
        currency: deleted.currency,
        name: deleted.name,
        category_id: deleted.category?.id ?? null,
        merchant_id: deleted.merchant?.id ?? null,
        tag_ids: deleted.tags.map((tag) => tag.id),
        notes: deleted.notes,
      }),
  };
}

/** A split is taken away again, or the parts it replaced are put back. */
export const splitUndo = (parent: Transaction, previousParts: Transaction[], count: number): LastChange => ({
  done: `Split “${parent.name}” into ${count} parts.`,
  undo: () => (previousParts.length ? undoCalls.split(parent.id, previousParts.map(partOf)) : undoCalls.unsplit(parent.id)),
});

export const unsplitUndo = (parent: Transaction, previousParts: Transaction[]): LastChange => ({
  done: `Joined the parts of “${parent.name}” again.`,
  undo: () => undoCalls.split(parent.id, previousParts.map(partOf)),
});

/** Rows grouped by a key of their previous value: one bulk call per distinct value, not one call per row. */
function groupBy(rows: Transaction[], key: (row: Transaction) => string): Transaction[][] {
  const groups = new Map<string, Transaction[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return [...groups.values()];
}

/**
 * A bulk change of category or tags is taken back with one bulk call per distinct previous value. Exclusion is not:
 * the API does not show whether a transaction was excluded before, so the previous values are not known.
 */
export function bulkUndo(rows: Transaction[], change: Omit<BulkChange, 'ids'>, done: string): LastChange {
  if (change.excluded !== undefined) return { done, why: 'Exclusion cannot be undone here: the list does not show which were excluded before.' };
  const calls: BulkChange[] =
    change.category_id !== undefined
      ? groupBy(rows, (row) => row.category?.id ?? '').map((group) => ({ ids: group.map((row) => row.id), category_id: group[0].category?.id ?? null }))
      : groupBy(rows, (row) => row.tags.map((tag) => tag.id).sort().join(',')).map((group) => ({ ids: group.map((row) => row.id), tag_ids: group[0].tags.map((tag) => tag.id) }));
  return {
    done,
    undo: async () => {
      for (const call of calls) await undoCalls.bulk(call);
    },
  };
}
