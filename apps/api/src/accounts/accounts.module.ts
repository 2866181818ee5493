import { Module } from '@nestjs/common';
import { FinanceModule } from '../finance/finance.module';
import { AccountsController } from './accounts.controller';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';

@Module({ imports: [FinanceModule], controllers: [AccountsController], providers: [AccountsService, AccountsRepository] })
export class AccountsModule {}
