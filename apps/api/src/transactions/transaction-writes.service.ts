import { Injectable } from '@nestjs/common';
import { amountWithNature, formatDecimal } from '@hearth/domain/money';
import type { MinorUnits } from '@hearth/domain/money';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { FamilyScope, familyScopeOf } from '../common/family-scope';
import { amountField } from '../common/money-fields';
import { timeOrderedId } from '../common/time-ordered-id';
import { Transaction, Transactions } from '../database/transactions';
import { AccountLocksRepository } from '../ledger/account-locks.repository';
import { closedAccountMessage } from '../ledger/closed-account';
import { EntriesRepository } from '../ledger/entries.repository';
import { AccountForWrite, LockedTransaction, NewTransaction, TransactionEditsRepository } from '../ledger/transaction-edits.repository';
import type { TransactionDto } from './transaction.dto';
import { presentTransaction } from './transaction.presenter';
import type {
  BulkUpdateResultDto,
  BulkUpdateTransactionsDto,
  CreateTransactionDto,
  CreateTransferDto,
  SplitTransactionDto,
  TransactionSplitDto,
  TransferResultDto,
  UpdateTransactionDto,
} from './transaction-write.dto';
import { TransactionsRepository } from './transactions.repository';

/** Categories, merchants and tags a body names for one transaction (or part), under `prefix` in its messages. */
interface References {
  prefix: string;
  categoryId?: string | null;
  merchantId?: string | null;
  tagIds?: string[];
  tagNames?: string[];
}

/** Fields that hold a split or a transfer together, and what to do instead of changing them. */
const SPLIT_FIXED = ['account_id', 'date', 'amount', 'nature', 'currency'] as const;
const TRANSFER_FIXED = ['account_id', 'amount', 'nature', 'currency'] as const;

/** A new transaction (or one moved in) goes only to an open account; a closed one keeps its history as it is. */
const assertOpen = (field: string, account: AccountForWrite) => {
  if (account.closed) throw ApiError.validation([closedAccountMessage(field)]);
};

/**
 * The household's hand edits of its transactions: create, change, delete, split, transfer and bulk changes. Each runs
 * in one database transaction while holding the accounts it touches as an import publish does (AccountLocksRepository),
 * so that a publish's duplicate probe never sees half an edit and an edit never interleaves with a publish's chunks.
 * Budgets see every change at once: the ledger's triggers move families.data_version in the same transaction.
 */
@Injectable()
export class TransactionWritesService {
  constructor(
    private readonly edits: TransactionEditsRepository,
    private readonly entries: EntriesRepository,
    private readonly locks: AccountLocksRepository,
    private readonly transactions: Transactions,
    private readonly reads: TransactionsRepository,
  ) {}

  async create(principal: Principal, body: CreateTransactionDto, locale: string): Promise<TransactionDto> {
    const scope = familyScopeOf(principal);
    const fields = body.transaction;
    const id = timeOrderedId();
    await this.holdingAccounts([fields.account_id], async (tx) => {
      const [account] = await this.edits.writableAccounts(scope, [fields.account_id], tx);
      if (!account) throw ApiError.validation(['transaction.account_id is not an account of this household']);
      assertOpen('transaction.account_id', account);
      const currency = fields.currency ?? account.currency;
      const amount = amountWithNature(amountField('transaction.amount', fields.amount, currency), fields.nature);
      const tagIds = await this.resolve(scope, [{ prefix: 'transaction.', categoryId: fields.category_id, merchantId: fields.merchant_id, tagIds: fields.tag_ids, tagNames: fields.tag_names }], tx);
      await this.edits.insert(
        scope,
        [{
          id, accountId: account.id, date: fields.date, name: fields.name, amount, currency, notes: fields.notes ?? null, excluded: fields.excluded ?? false,
          parentId: null, categoryId: fields.category_id ?? null, merchantId: fields.merchant_id ?? null, kind: 'standard', tagIds: tagIds[0] ?? [],
        }],
        tx,
      );
    });
    return (await this.present(scope, [id], locale))[0];
  }

  async update(principal: Principal, given: string, body: UpdateTransactionDto, locale: string): Promise<TransactionDto> {
    const id = given.toLowerCase();
    const scope = familyScopeOf(principal);
    const changes = body.transaction;
    const accounts = await this.edits.accountsOf(scope, [id]);
    await this.holdingAccounts([...accounts, changes.account_id], async (tx) => {
      const txn = await this.lockOne(scope, id, tx);
      const given = (fields: readonly (keyof typeof changes)[]) => fields.filter((field) => changes[field] !== undefined);
      if (txn.isSplit) {
        const fixed = [...given(SPLIT_FIXED), ...(changes.excluded === false ? ['excluded'] : [])];
        if (fixed.length) throw ApiError.validation(fixed.map((field) => `transaction.${field} cannot change while the transaction is split: unsplit it first (DELETE /api/v1/transactions/${id}/split)`));
      }
      if (txn.parentId) {
        const fixed = given(SPLIT_FIXED);
        if (fixed.length) throw ApiError.validation(fixed.map((field) => `transaction.${field} cannot change on a split part: split its parent again (POST /api/v1/transactions/${txn.parentId}/split)`));
      }
      if (txn.transferId) {
        const fixed = given(TRANSFER_FIXED);
        if (fixed.length) throw ApiError.validation(fixed.map((field) => `transaction.${field} cannot change on a side of a transfer: delete it and make the transfer again`));
      }
      let accountId: string | undefined;
      if (changes.account_id !== undefined) {
        const [account] = await this.edits.writableAccounts(scope, [changes.account_id], tx);
        if (!account) throw ApiError.validation(['transaction.account_id is not an account of this household']);
        if (account.id !== txn.accountId) assertOpen('transaction.account_id', account);
        accountId = account.id;
      }
      const currency = changes.currency ?? txn.currency;
      let amount: MinorUnits | undefined;
      if (changes.amount !== undefined) amount = amountWithNature(amountField('transaction.amount', changes.amount, currency), changes.nature);
      else if (changes.currency !== undefined) amount = amountWithNature(amountField('transaction.currency', formatDecimal(txn.amount, txn.currency), currency), changes.nature);
      else if (changes.nature !== undefined) amount = amountWithNature(txn.amount, changes.nature);
      const [tagIds] = await this.resolve(scope, [{ prefix: 'transaction.', categoryId: changes.category_id, merchantId: changes.merchant_id, tagIds: changes.tag_ids, tagNames: changes.tag_names }], tx);
      await this.edits.updateEntries(scope, [id], { accountId, date: changes.date, name: changes.name, amount, currency: changes.currency, notes: changes.notes, excluded: changes.excluded }, tx);
      if (changes.category_id !== undefined || changes.merchant_id !== undefined) {
        await this.edits.updateDetails(scope, [id], { categoryId: changes.category_id, merchantId: changes.merchant_id }, tx);
      }
      if (tagIds) await this.edits.replaceTags(scope, [id], tagIds, tx);
    });
    return (await this.present(scope, [id], locale))[0];
  }

  async delete(principal: Principal, given: string): Promise<void> {
    const id = given.toLowerCase();
    const scope = familyScopeOf(principal);
    await this.holdingAccounts(await this.edits.accountsOf(scope, [id]), async (tx) => {
      const txn = await this.lockOne(scope, id, tx);
      if (txn.parentId) {
        throw ApiError.validation([`A split part cannot be deleted on its own: split its parent again (POST /api/v1/transactions/${txn.parentId}/split) or unsplit it`]);
      }
      await this.edits.delete(scope, id, tx);
    });
  }

  /**
   * Splits a transaction into parts that add up to it, as an import's split is kept: the parent stays (excluded, so
   * budgets count its parts instead; balances take the parts away and count the parent). Splitting a split
   * transaction again replaces its parts.
   */
  async split(principal: Principal, given: string, body: SplitTransactionDto, locale: string): Promise<TransactionSplitDto> {
    const id = given.toLowerCase();
    const scope = familyScopeOf(principal);
    const partIds = body.parts.map(() => timeOrderedId());
    await this.holdingAccounts(await this.edits.accountsOf(scope, [id]), async (tx) => {
      const parent = await this.lockOne(scope, id, tx);
      if (parent.parentId) throw ApiError.validation([`parts cannot split a split part: split its parent (POST /api/v1/transactions/${parent.parentId}/split) instead`]);
      if (parent.transferId) throw ApiError.validation(['parts cannot split a side of a transfer']);
      const amounts = body.parts.map((part, i) => amountField(`parts[${i}].amount`, part.amount, parent.currency));
      const sum = amounts.reduce((total, amount) => total + amount, 0n);
      if (sum !== parent.amount) {
        const [expected, got] = [formatDecimal(parent.amount, parent.currency), formatDecimal(sum, parent.currency)];
        throw ApiError.validation([`parts must add up to the transaction's amount, ${expected} ${parent.currency} (they add up to ${got})`]);
      }
      const tagIds = await this.resolve(
        scope,
        body.parts.map((part, i) => ({ prefix: `parts[${i}].`, categoryId: part.category_id, merchantId: part.merchant_id, tagIds: part.tag_ids })),
        tx,
      );
      await this.edits.deleteParts(scope, id, tx);
      await this.edits.insert(
        scope,
        body.parts.map((part, i) => ({
          id: partIds[i], accountId: parent.accountId, date: parent.date, name: part.name, amount: amounts[i], currency: parent.currency, notes: part.notes ?? null,
          excluded: false, parentId: id, categoryId: part.category_id === undefined ? parent.categoryId : part.category_id,
          merchantId: part.merchant_id === undefined ? parent.merchantId : part.merchant_id, kind: 'standard', tagIds: tagIds[i] ?? parent.tagIds,
        })),
        tx,
      );
      await this.edits.updateEntries(scope, [id], { excluded: true }, tx);
    });
    const [transaction, ...parts] = await this.present(scope, [id, ...partIds], locale);
    return { transaction, parts };
  }

  /** Takes a transaction's parts away: it counts whole again (no longer excluded). */
  async unsplit(principal: Principal, given: string, locale: string): Promise<TransactionDto> {
    const id = given.toLowerCase();
    const scope = familyScopeOf(principal);
    await this.holdingAccounts(await this.edits.accountsOf(scope, [id]), async (tx) => {
      const txn = await this.lockOne(scope, id, tx);
      if (!txn.isSplit) throw ApiError.validation(['The transaction is not split']);
      await this.edits.deleteParts(scope, id, tx);
      await this.edits.updateEntries(scope, [id], { excluded: false }, tx);
    });
    return (await this.present(scope, [id], locale))[0];
  }

  /** One change (category, tags, excluded) to up to BULK_LIMIT transactions, all or none. */
  async bulkUpdate(principal: Principal, body: BulkUpdateTransactionsDto): Promise<BulkUpdateResultDto> {
    const scope = familyScopeOf(principal);
    if ([body.category_id, body.tag_ids, body.tag_names, body.excluded].every((value) => value === undefined)) {
      throw ApiError.validation(['Give at least one of category_id, tag_ids, tag_names or excluded to change']);
    }
    const ids = [...new Set(body.ids.map((id) => id.toLowerCase()))];
    await this.holdingAccounts(await this.edits.accountsOf(scope, ids), async (tx) => {
      const locked = await this.edits.lock(scope, ids, tx);
      const found = new Set(locked.map((txn) => txn.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length) throw ApiError.validation([`ids: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ` and ${missing.length - 10} more` : ''} are not transactions of this household`]);
      if (body.excluded === false && locked.some((txn) => txn.isSplit)) {
        throw ApiError.validation(['excluded cannot be false for a split transaction (its parts count instead): unsplit it first']);
      }
      const [tagIds] = await this.resolve(scope, [{ prefix: '', categoryId: body.category_id, tagIds: body.tag_ids, tagNames: body.tag_names }], tx);
      await this.edits.updateEntries(scope, ids, { excluded: body.excluded }, tx);
      if (body.category_id !== undefined) await this.edits.updateDetails(scope, ids, { categoryId: body.category_id }, tx);
      if (tagIds) await this.edits.replaceTags(scope, ids, tagIds, tx);
    });
    return { updated: ids.length };
  }

  /**
   * Money moved between two of the household's accounts, as one action: an outflow from one and an inflow to the
   * other, linked as a confirmed transfer, with Sure's kinds (a card or loan payment, an investment contribution, or
   * a funds movement), which budgets read.
   */
  async transfer(principal: Principal, body: CreateTransferDto, locale: string): Promise<TransferResultDto> {
    const scope = familyScopeOf(principal);
    if (body.from_account_id.toLowerCase() === body.to_account_id.toLowerCase()) throw ApiError.validation(['to_account_id must be another account than from_account_id']);
    const [id, outflowId, inflowId] = [timeOrderedId(), timeOrderedId(), timeOrderedId()];
    await this.holdingAccounts([body.from_account_id, body.to_account_id], async (tx) => {
      const accounts = await this.edits.writableAccounts(scope, [body.from_account_id, body.to_account_id], tx);
      const byId = (given: string) => accounts.find((account) => account.id === given.toLowerCase());
      const [from, to] = [byId(body.from_account_id), byId(body.to_account_id)];
      const unknown = [...(from ? [] : ['from_account_id']), ...(to ? [] : ['to_account_id'])];
      if (!from || !to) throw ApiError.validation(unknown.map((field) => `${field} is not an account of this household`));
      const closed = [...(from.closed ? ['from_account_id'] : []), ...(to.closed ? ['to_account_id'] : [])];
      if (closed.length) throw ApiError.validation(closed.map((field) => closedAccountMessage(field)));
      const amount = amountField('amount', body.amount, from.currency);
      if (amount <= 0n) throw ApiError.validation(['amount must be above 0']);
      let arriving = amount;
      if (body.to_amount !== undefined) {
        arriving = amountField('to_amount', body.to_amount, to.currency);
        if (arriving <= 0n) throw ApiError.validation(['to_amount must be above 0']);
        if (from.currency === to.currency && arriving !== amount) throw ApiError.validation([`to_amount must equal amount: both accounts are in ${from.currency}`]);
      } else if (from.currency !== to.currency) {
        throw ApiError.validation([`to_amount is required: the money leaves in ${from.currency} and arrives in ${to.currency}`]);
      }
      const side = (entryId: string, accountId: string, signed: MinorUnits, currency: string, name: string): NewTransaction => ({
        id: entryId, accountId, date: body.date, name: (body.name ?? name).slice(0, 500), amount: signed, currency, notes: body.notes ?? null, excluded: false,
        parentId: null, categoryId: null, merchantId: null, kind: 'funds_movement', tagIds: [],
      });
      await this.edits.insert(scope, [side(outflowId, from.id, amount, from.currency, `Transfer to ${to.name}`), side(inflowId, to.id, -arriving, to.currency, `Transfer from ${from.name}`)], tx);
      await this.entries.insertTransfers(scope.familyId, null, [{ id, inflow: inflowId, outflow: outflowId, status: 'confirmed', notes: body.notes ?? null }], tx);
      await this.entries.setTransferKinds([inflowId], [outflowId], tx);
    });
    const [outflow, inflow] = await this.present(scope, [outflowId, inflowId], locale);
    return { id, outflow, inflow };
  }

  /** Runs `work` in one database transaction while holding the accounts (unknown ids hold nothing the family lacks). */
  private async holdingAccounts<T>(accountIds: Array<string | undefined>, work: (tx: Transaction) => Promise<T>): Promise<T> {
    const release = await this.locks.hold(accountIds.map((id) => id?.toLowerCase()));
    try {
      return await this.transactions.run(work);
    } finally {
      await release();
    }
  }

  private async lockOne(scope: FamilyScope, id: string, tx: Transaction): Promise<LockedTransaction> {
    const [txn] = await this.edits.lock(scope, [id], tx);
    if (!txn) throw ApiError.notFound();
    return txn;
  }

  /**
   * Checks that the categories, merchants and tags each item names are the household's (a 422 naming each field that
   * is not), creates the tags named that it lacks, and gives each item's tag ids (undefined: its tags are not given).
   */
  private async resolve(scope: FamilyScope, items: References[], tx: Transaction): Promise<Array<string[] | undefined>> {
    const ids = (pick: (item: References) => Array<string | null | undefined>) => [...new Set(items.flatMap(pick).filter((id): id is string => Boolean(id)))];
    const foreign = await this.edits.notTheFamilys(
      scope,
      { categories: ids((item) => [item.categoryId]), merchants: ids((item) => [item.merchantId]), tags: ids((item) => item.tagIds ?? []) },
      tx,
    );
    const isForeign = (list: string[], id: string | null | undefined) => Boolean(id) && list.some((other) => other.toLowerCase() === id!.toLowerCase());
    const problems = items.flatMap((item) => [
      ...(isForeign(foreign.categories, item.categoryId) ? [`${item.prefix}category_id is not a category of this household`] : []),
      ...(isForeign(foreign.merchants, item.merchantId) ? [`${item.prefix}merchant_id is not a merchant of this household`] : []),
      ...((item.tagIds ?? []).some((id) => isForeign(foreign.tags, id)) ? [`${item.prefix}tag_ids names a tag that is not this household's`] : []),
    ]);
    if (problems.length) throw ApiError.validation(problems);
    const named = await this.edits.tagsNamed(scope, [...new Set(items.flatMap((item) => item.tagNames ?? []))], tx);
    return items.map((item) =>
      item.tagIds === undefined && item.tagNames === undefined
        ? undefined
        : [...new Set([...(item.tagIds ?? []).map((id) => id.toLowerCase()), ...(item.tagNames ?? []).map((name) => named.get(name)!)])],
    );
  }

  /** The transactions as GET shows them, in the order of `ids`. */
  private async present(scope: FamilyScope, ids: string[], locale: string): Promise<TransactionDto[]> {
    const records = await this.reads.findMany(scope.familyId, ids);
    return ids.map((id) => presentTransaction(records.find((record) => record.id === id)!, locale));
  }
}
