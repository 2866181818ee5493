import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { AuditLogsController } from './audit-logs.controller';
import { AuditLogsRepository } from './audit-logs.repository';
import { AUDIT_QUEUE } from './audit-retention.queue';
import { AuditRetentionRepository } from './audit-retention.repository';
import { AuditRetentionService } from './audit-retention.service';
import { AuditService } from './audit.service';

const queue = BullModule.registerQueue({ name: AUDIT_QUEUE });

/**
 * Global so every feature (sessions, users, SSO) records events through the one service. Retention's processor and
 * daily schedule run in worker processes (jobs/workers.module.ts).
 */
@Global()
@Module({
  imports: [queue],
  controllers: [AuditLogsController],
  providers: [AuditService, AuditLogsRepository, AuditRetentionRepository, AuditRetentionService],
  exports: [AuditService, AuditRetentionService, queue],
})
export class AuditModule {}
