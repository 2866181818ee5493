import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { TransactionWritesService } from './transaction-writes.service';
import { TransactionsController } from './transactions.controller';
import { TransactionsRepository } from './transactions.repository';
import { TransactionsService } from './transactions.service';
import { TransfersController } from './transfers.controller';

@Module({
  imports: [LedgerModule],
  controllers: [TransactionsController, TransfersController],
  providers: [TransactionsService, TransactionWritesService, TransactionsRepository],
})
export class TransactionsModule {}
