import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { LabelsService } from './labels.service';
import { MerchantsController } from './merchants.controller';
import { TagsController } from './tags.controller';

@Module({ imports: [LedgerModule], controllers: [TagsController, MerchantsController], providers: [LabelsService] })
export class TagsAndMerchantsModule {}
