import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { ImportsController } from './imports.controller';
import { ImportIdempotencyKeys } from './import-idempotency';
import { ImportIdempotencyRepository } from './import-idempotency.repository';
import { ImportMappings } from './import-mappings';
import { ImportMappingsRepository } from './import-mappings.repository';
import { IMPORTS_QUEUE } from './imports.queue';
import { ImportsRepository } from './imports.repository';
import { ImportsService } from './imports.service';
import { ServiceImports } from './service-import';
import { ServiceImportRepository } from './service-import.repository';
import { ServiceImportVerification } from './service-import-verification';
import { ImportPublisher } from './publishing/import-publisher';
import { FormatServices } from './formats/format-services';
import { PublishingRepository } from './publishing/publishing.repository';

const queue = BullModule.registerQueue({ name: IMPORTS_QUEUE });

/** HTTP side of imports; the processor and the reaper schedule run in worker processes (jobs/workers.module.ts). */
@Module({
  imports: [queue, LedgerModule],
  controllers: [ImportsController],
  providers: [
    ImportsRepository,
    ImportsService,
    ImportPublisher,
    PublishingRepository,
    ImportIdempotencyKeys,
    ImportIdempotencyRepository,
    ServiceImports,
    ServiceImportRepository,
    ServiceImportVerification,
    ImportMappings,
    ImportMappingsRepository,
    FormatServices,
  ],
  exports: [queue, ImportPublisher, ImportsRepository, ImportIdempotencyKeys],
})
export class ImportsModule {}
