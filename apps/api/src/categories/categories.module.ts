import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { CategoriesController } from './categories.controller';
import { CategoriesService } from './categories.service';

@Module({ imports: [LedgerModule], controllers: [CategoriesController], providers: [CategoriesService] })
export class CategoriesModule {}
