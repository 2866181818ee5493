import { Module } from '@nestjs/common';
import { AccountLocksRepository } from './account-locks.repository';
import { CategoriesRepository } from './categories.repository';
import { EntriesRepository } from './entries.repository';
import { ImportRevertRepository } from './import-revert.repository';
import { ImportedBudgetsRepository } from './imported-budgets.repository';
import { ImportedTransactionsRepository } from './imported-transactions.repository';
import { LabelsRepository } from './labels.repository';
import { Ledger } from './ledger';
import { LedgerAccountsRepository } from './ledger-accounts.repository';
import { ReportsRepository } from './reports.repository';
import { TaxonomyRepository } from './taxonomy.repository';
import { TradesRepository } from './trades.repository';
import { TransactionEditsRepository } from './transaction-edits.repository';

const REPOSITORIES = [
  AccountLocksRepository,
  CategoriesRepository,
  EntriesRepository,
  ImportRevertRepository,
  ImportedBudgetsRepository,
  ImportedTransactionsRepository,
  LabelsRepository,
  LedgerAccountsRepository,
  ReportsRepository,
  TaxonomyRepository,
  TradesRepository,
  TransactionEditsRepository,
];

/**
 * Owns the statements on the ledger's tables (accounts, entries, valuations, transactions, transfers, trades,
 * securities, categories, tags, taggings, merchants, rules, and the budgets a ServiceImport carries): other modules,
 * imports among them, call its repositories. It imports no feature module.
 */
@Module({
  providers: [...REPOSITORIES, Ledger],
  exports: [...REPOSITORIES, Ledger],
})
export class LedgerModule {}
