import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { FamilyExportsModule } from '../family-exports/family-exports.module';
import { FamilyExportsProcessor } from '../family-exports/family-exports.processor';
import { ImportsModule } from '../imports/imports.module';
import { ImportsProcessor } from '../imports/imports.processor';
import { AuditRetentionProcessor } from '../audit/audit-retention.processor';
import { JobSchedules } from './job-schedules';
import { HealthProcessor } from './health.processor';
import { WorkerShutdown } from './worker-shutdown';

/**
 * Every BullMQ processor (@Processor) and job scheduler of the service, and nothing else. Loaded by processes with
 * HEARTH_ROLE `all` or `worker`; an `api` process only enqueues. A new processor belongs here, not in its feature
 * module (workers.module.spec.ts checks).
 */
export const WORKER_PROVIDERS = [HealthProcessor, ImportsProcessor, FamilyExportsProcessor, AuditRetentionProcessor, JobSchedules];

@Module({
  imports: [DiscoveryModule, ImportsModule, FamilyExportsModule],
  providers: [...WORKER_PROVIDERS, WorkerShutdown],
})
export class WorkersModule {}
