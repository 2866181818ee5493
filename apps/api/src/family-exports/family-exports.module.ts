import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { FamilyExporter } from './family-exporter';
import { FamilyExportsController } from './family-exports.controller';
import { FAMILY_EXPORTS_QUEUE } from './family-exports.queue';
import { FamilyExportsRepository } from './family-exports.repository';
import { FamilyExportsService } from './family-exports.service';

/**
 * Family export: the family's data as the service's NDJSON, built by a job (docs/api/family-exports.md); the processor
 * runs in worker processes (jobs/workers.module.ts).
 */
@Module({
  imports: [BullModule.registerQueue({ name: FAMILY_EXPORTS_QUEUE })],
  controllers: [FamilyExportsController],
  providers: [FamilyExportsRepository, FamilyExporter, FamilyExportsService],
  exports: [FamilyExportsService],
})
export class FamilyExportsModule {}
