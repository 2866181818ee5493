import { Injectable } from '@nestjs/common';
import { ACCOUNTABLE_TYPES, LIABILITY_TYPES, type AccountableType } from '@hearth/contracts';
import { familyToday } from '@hearth/domain/budget-math';
import { formatMoney } from '@hearth/domain/money';
import { AuditService, type RequestOrigin } from '../audit/audit.service';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { assertUsableFamilyCurrency } from '../common/currency-field';
import { FamilyScope, familyScopeOf } from '../common/family-scope';
import { amountField, exactCents } from '../common/money-fields';
import { timeOrderedId } from '../common/time-ordered-id';
import { Transaction, Transactions } from '../database/transactions';
import { FamiliesRepository } from '../finance/families.repository';
import { AccountLocksRepository } from '../ledger/account-locks.repository';
import type { AccountDeletionDto, CreateAccountDto, CreateValuationDto, UpdateAccountDto, ValuationDto, ValuationListDto } from './account.dto';
import { ACCOUNT_TYPES } from './account.presenter';
import { AccountsRepository, type LockedAccount, type ValuationRecord } from './accounts.repository';

const accountableTypeOf = (name: string): AccountableType => ACCOUNTABLE_TYPES.find((type) => ACCOUNT_TYPES[type] === name)!;
const classificationOf = (type: AccountableType) => (LIABILITY_TYPES.includes(type) ? 'liability' : 'asset');

/**
 * The household's own changes to its accounts: create, edit, close and reopen, delete, and balances set by hand
 * (valuations). Writes that touch entries hold the account as an import publish does (AccountLocksRepository), so
 * that they never interleave with a publish's chunks. Budgets see a delete at once: the ledger's triggers move
 * families.data_version in the same transaction.
 */
@Injectable()
export class AccountWritesService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly families: FamiliesRepository,
    private readonly locks: AccountLocksRepository,
    private readonly transactions: Transactions,
    private readonly audit: AuditService,
  ) {}

  /** Creates the account with its opening balance: an opening_anchor valuation, the balance at the start of its day. Returns its id. */
  async create(principal: Principal, body: CreateAccountDto): Promise<string> {
    const scope = familyScopeOf(principal);
    const family = await this.families.findById(scope.familyId);
    if (!family) throw ApiError.notFound();
    const currency = body.currency ?? family.currency;
    if (body.currency === undefined) assertUsableFamilyCurrency(currency);
    const balance = amountField('balance', body.balance ?? '0', currency);
    const name = body.name.trim();
    if (!name) throw ApiError.validation(['name must be 1 to 200 characters']);
    const accountableType = accountableTypeOf(body.account_type);
    const id = timeOrderedId();
    await this.transactions.run(async (tx) => {
      await this.assertNameFree(scope, name, null, tx);
      await this.accounts.insert(
        scope,
        { id, ownerId: principal.userId, name, accountableType, subtype: body.subtype ?? null, classification: classificationOf(accountableType), balance, currency, institutionName: body.institution_name ?? null },
        tx,
      );
      await this.accounts.insertValuation(
        scope,
        { id: timeOrderedId(), accountId: id, date: body.balance_date ?? familyToday(family.timezone), name: 'Opening balance', kind: 'opening_anchor', amount: balance, currency },
        tx,
      );
    });
    return id;
  }

  async update(principal: Principal, given: string, body: UpdateAccountDto): Promise<void> {
    const id = given.toLowerCase();
    const scope = familyScopeOf(principal);
    await this.transactions.run(async (tx) => {
      const account = await this.lockOne(scope, id, tx);
      const name = body.name?.trim();
      if (name === '') throw ApiError.validation(['name must be 1 to 200 characters']);
      if (name !== undefined && name !== account.name) await this.assertNameFree(scope, name, id, tx);
      const accountableType = body.account_type === undefined ? undefined : accountableTypeOf(body.account_type);
      if (accountableType && classificationOf(accountableType) !== account.classification) {
        throw ApiError.validation([
          `account_type cannot turn ${account.classification === 'asset' ? 'an asset into a liability' : 'a liability into an asset'}: its balance would change meaning; create a new account instead`,
        ]);
      }
      const currency = body.currency;
      if (currency !== undefined && currency !== account.currency && account.hasEntries) {
        throw ApiError.validation([`currency cannot change while the account holds transactions, valuations or trades: their amounts are in ${account.currency}`]);
      }
      const closedAt = body.closed === undefined || body.closed === (account.closedAt !== null) ? undefined : body.closed ? new Date() : null;
      await this.accounts.update(scope, id, { name, accountableType, subtype: body.subtype, currency, institutionName: body.institution_name, closedAt }, tx);
    });
  }

  /** What deleting the account takes with it, for the household to read before it confirms. */
  async deletion(principal: Principal, given: string): Promise<AccountDeletionDto> {
    const id = given.toLowerCase();
    const scope = familyScopeOf(principal);
    const account = await this.accounts.findForChange(scope, id, undefined, { read: true });
    if (!account) throw ApiError.notFound();
    return { id, name: account.name, ...(await this.accounts.deletionCounts(scope, id)) };
  }

  /**
   * Deletes the account with its entries and what hangs on them, in one transaction, held as a publish holds it;
   * refused while one of its imports is publishing or reverting. Audited with what went.
   */
  async remove(principal: Principal, given: string, origin: RequestOrigin): Promise<AccountDeletionDto> {
    const id = given.toLowerCase();
    const scope = familyScopeOf(principal);
    return this.holding(id, async (tx) => {
      const account = await this.lockOne(scope, id, tx);
      const busy = await this.accounts.importsAtWork(scope, id, tx);
      if (busy.length) {
        throw new ApiError(409, 'import_in_progress', `The account cannot be deleted while an import into it is publishing or reverting (${busy.join(', ')}); try again when it has finished`);
      }
      const outcome: AccountDeletionDto = { id, name: account.name, ...(await this.accounts.deletionCounts(scope, id, tx)) };
      await this.accounts.delete(scope, id, tx);
      await this.audit.record('account_deleted', { userId: principal.userId, familyId: principal.familyId, origin, details: { account_id: id, ...outcome } }, tx);
      return outcome;
    });
  }

  async valuations(principal: Principal, given: string, locale: string): Promise<ValuationListDto> {
    const id = given.toLowerCase();
    const scope = familyScopeOf(principal);
    if (!(await this.accounts.findForChange(scope, id, undefined, { read: true }))) throw ApiError.notFound();
    return { valuations: (await this.accounts.valuations(scope, id)).map((valuation) => presentValuation(valuation, locale)) };
  }

  /** The account's balance as of the end of `date`, set by hand: from that day on it rolls forward from this one. */
  async addValuation(principal: Principal, given: string, body: CreateValuationDto, locale: string): Promise<ValuationDto> {
    const accountId = given.toLowerCase();
    const scope = familyScopeOf(principal);
    const id = timeOrderedId();
    await this.holding(accountId, async (tx) => {
      const account = await this.lockOne(scope, accountId, tx);
      const amount = amountField('balance', body.balance, account.currency);
      await this.accounts.insertValuation(scope, { id, accountId, date: body.date, name: 'Balance update', kind: 'reconciliation', amount, currency: account.currency }, tx);
    });
    return presentValuation((await this.accounts.findValuation(scope, accountId, id))!, locale);
  }

  /** Deletes a valuation; the opening balance stays (a new valuation replaces what it says from its day on). */
  async deleteValuation(principal: Principal, givenAccount: string, givenValuation: string): Promise<void> {
    const [accountId, id] = [givenAccount.toLowerCase(), givenValuation.toLowerCase()];
    const scope = familyScopeOf(principal);
    await this.holding(accountId, async (tx) => {
      await this.lockOne(scope, accountId, tx);
      const valuation = await this.accounts.findValuation(scope, accountId, id, tx);
      if (!valuation) throw ApiError.notFound();
      if (valuation.kind === 'opening_anchor') {
        throw ApiError.validation(['The opening balance cannot be deleted: set the balance with POST /api/v1/accounts/{id}/valuations instead']);
      }
      await this.accounts.deleteValuation(scope, accountId, id, tx);
    });
  }

  private async assertNameFree(scope: FamilyScope, name: string, exceptId: string | null, tx: Transaction): Promise<void> {
    if (await this.accounts.nameTaken(scope, name, exceptId, tx)) {
      throw ApiError.validation([`name "${name}" is already an account of this household: imports find accounts by name, so each needs its own`]);
    }
  }

  private async lockOne(scope: FamilyScope, id: string, tx: Transaction): Promise<LockedAccount> {
    const account = await this.accounts.findForChange(scope, id, tx);
    if (!account) throw ApiError.notFound();
    return account;
  }

  /** Runs `work` in one database transaction while holding the account as a publish holds it. */
  private async holding<T>(accountId: string, work: (tx: Transaction) => Promise<T>): Promise<T> {
    const release = await this.locks.hold([accountId]);
    try {
      return await this.transactions.run(work);
    } finally {
      await release();
    }
  }
}

function presentValuation(valuation: ValuationRecord, locale: string): ValuationDto {
  const amount = BigInt(valuation.amount);
  return {
    id: valuation.id,
    date: valuation.date,
    kind: valuation.kind,
    balance: formatMoney(amount, valuation.currency, locale),
    balance_cents: exactCents('balance', amount, valuation.currency, locale),
    currency: valuation.currency,
    import_id: valuation.importId,
    created_at: valuation.createdAt.toISOString(),
  };
}
