import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { Logger } from 'pino';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { ErrorFilter } from './common/error.filter';
import { LOGGER } from './common/logger';
import { APP_CONFIG, AppConfig } from './config/config';
import { DatabaseModule } from './database/database.module';
import { HealthController } from './health/health.controller';
import { HealthRepository } from './health/health.repository';
import { HealthService } from './health/health.service';
import { JobsModule } from './jobs/jobs.module';
import { WorkersModule } from './jobs/workers.module';
import type { Runtime } from './runtime';
import { UsersModule } from './users/users.module';
import { FinanceModule } from './finance/finance.module';
import { ImportsModule } from './imports/imports.module';
import { SsoModule } from './sso/sso.module';
import { BudgetsModule } from './budgets/budgets.module';
import { AccountsModule } from './accounts/accounts.module';
import { TransactionsModule } from './transactions/transactions.module';
import { CategoriesModule } from './categories/categories.module';
import { TagsAndMerchantsModule } from './tags-and-merchants/tags-and-merchants.module';
import { FamilyExportsModule } from './family-exports/family-exports.module';
import { ReportsModule } from './reports/reports.module';

/** Feature modules; the runtime (database, queue) and process-wide services are wired in forRoot. */
export const FEATURE_MODULES = [AuditModule, AuthModule, UsersModule, FinanceModule, ImportsModule, SsoModule, BudgetsModule, AccountsModule, TransactionsModule, CategoriesModule, TagsAndMerchantsModule, FamilyExportsModule, ReportsModule];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, runtime: Runtime, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        DatabaseModule.forRoot(runtime),
        JobsModule.forRoot(runtime, config.queuePrefix),
        ...FEATURE_MODULES,
        // HEARTH_ROLE=api only enqueues: no BullMQ workers, no job schedulers.
        ...(config.role === 'api' ? [] : [WorkersModule]),
      ],
      controllers: [HealthController],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
        { provide: APP_FILTER, useClass: ErrorFilter },
        HealthService,
        HealthRepository,
      ],
      exports: [APP_CONFIG, LOGGER],
    };
  }
}
