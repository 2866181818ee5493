import { Module } from '@nestjs/common';
import { FinanceModule } from '../finance/finance.module';
import { LedgerModule } from '../ledger/ledger.module';
import { AccountWritesService } from './account-writes.service';
import { AccountsController } from './accounts.controller';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';

@Module({ imports: [FinanceModule, LedgerModule], controllers: [AccountsController], providers: [AccountsService, AccountWritesService, AccountsRepository] })
export class AccountsModule {}
