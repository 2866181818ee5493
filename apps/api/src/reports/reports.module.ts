import { Module } from '@nestjs/common';
import { FinanceModule } from '../finance/finance.module';
import { LedgerModule } from '../ledger/ledger.module';
import { ReportsController } from './reports.controller';
import { ReportsService } from './reports.service';

@Module({ imports: [FinanceModule, LedgerModule], controllers: [ReportsController], providers: [ReportsService] })
export class ReportsModule {}
