import { Module } from '@nestjs/common';
import { FamilyExportsModule } from '../family-exports/family-exports.module';
import { FamilyExportsProcessor } from '../family-exports/family-exports.processor';
import { ImportsModule } from '../imports/imports.module';
import { ImportsProcessor } from '../imports/imports.processor';
import { AuditRetentionProcessor, AuditRetentionSchedule } from '../audit/audit-retention.processor';
import { HealthProcessor } from './health.processor';

/**
 * Every BullMQ processor (@Processor) and job scheduler of the service, and nothing else. Loaded by processes with
 * HEARTH_ROLE `all` or `worker`; an `api` process only enqueues. A new processor belongs here, not in its feature
 * module (workers.module.spec.ts checks).
 */
export const WORKER_PROVIDERS = [HealthProcessor, ImportsProcessor, FamilyExportsProcessor, AuditRetentionProcessor, AuditRetentionSchedule];

@Module({
  imports: [ImportsModule, FamilyExportsModule],
  providers: WORKER_PROVIDERS,
})
export class WorkersModule {}
