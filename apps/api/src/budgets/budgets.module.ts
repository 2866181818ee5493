import { Module } from '@nestjs/common';
import { FinanceModule } from '../finance/finance.module';
import { BudgetCategoriesController } from './budget-categories.controller';
import { BudgetsController } from './budgets.controller';
import { BudgetsRepository } from './budgets.repository';
import { BudgetsService } from './budgets.service';

@Module({
  imports: [FinanceModule],
  controllers: [BudgetsController, BudgetCategoriesController],
  providers: [BudgetsService, BudgetsRepository],
})
export class BudgetsModule {}
