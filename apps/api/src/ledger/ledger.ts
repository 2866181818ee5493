import { Injectable } from '@nestjs/common';
import { EntriesRepository } from './entries.repository';
import { ImportedBudgetsRepository } from './imported-budgets.repository';
import { ImportedTransactionsRepository } from './imported-transactions.repository';
import { LedgerAccountsRepository } from './ledger-accounts.repository';
import { TaxonomyRepository } from './taxonomy.repository';
import { TradesRepository } from './trades.repository';

/**
 * The ledger's repositories in one object, for code that writes the ledger from plain functions handed an open
 * transaction (the import publishers) rather than from a service of its own.
 */
@Injectable()
export class Ledger {
  constructor(
    readonly accounts: LedgerAccountsRepository,
    readonly entries: EntriesRepository,
    readonly importedTransactions: ImportedTransactionsRepository,
    readonly trades: TradesRepository,
    readonly taxonomy: TaxonomyRepository,
    readonly importedBudgets: ImportedBudgetsRepository,
  ) {}
}
