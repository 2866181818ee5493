import { Module } from '@nestjs/common';
import { AccountLocksRepository } from './account-locks.repository';
import { EntriesRepository } from './entries.repository';
import { ImportedTransactionsRepository } from './imported-transactions.repository';
import { Ledger } from './ledger';
import { LedgerAccountsRepository } from './ledger-accounts.repository';
import { TaxonomyRepository } from './taxonomy.repository';
import { TradesRepository } from './trades.repository';

/**
 * Owns the statements on the ledger's tables (accounts, entries, valuations, transactions, trades, categories, tags,
 * taggings, merchants): other modules, imports among them, call its repositories. It imports no feature module.
 */
@Module({
  providers: [AccountLocksRepository, EntriesRepository, ImportedTransactionsRepository, LedgerAccountsRepository, TaxonomyRepository, TradesRepository, Ledger],
  exports: [AccountLocksRepository, EntriesRepository, ImportedTransactionsRepository, LedgerAccountsRepository, TaxonomyRepository, TradesRepository, Ledger],
})
export class LedgerModule {}
