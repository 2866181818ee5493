import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { LOGGER } from '../common/logger';
import { enqueueWithin } from '../jobs/enqueue';
import type { JobOutcome } from '../jobs/job-log';
import { currentRequest } from '../common/request-context';
import type { FamilyExportDto } from './family-export.dto';
import type { FamilyExport } from './family-export.entity';
import { FamilyExporter } from './family-exporter';
import { FamilyExportsRepository } from './family-exports.repository';
import { FAMILY_EXPORTS_QUEUE, FamilyExportJob } from './family-exports.queue';

const EXPORT_FAILED = 'The export stopped on an internal error. Start a new export.';

function present(e: FamilyExport): FamilyExportDto {
  return {
    id: e.id,
    status: e.status,
    file_name: e.fileName,
    record_counts: e.recordCounts,
    error: e.error,
    completed_at: e.completedAt ? e.completedAt.toISOString() : null,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}

/** sure_export-like name: hearth_export_YYYYMMDD_HHMMSS.ndjson (UTC). */
const fileName = (now: Date) => `hearth_export_${now.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '_')}.ndjson`;

/** Family export use cases: start one (a queued job builds it), show, list, download. Always the principal's family. */
@Injectable()
export class FamilyExportsService {
  constructor(
    private readonly exports: FamilyExportsRepository,
    private readonly exporter: FamilyExporter,
    @InjectQueue(FAMILY_EXPORTS_QUEUE) private readonly queue: Queue<FamilyExportJob>,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    queue.on('error', (err) => logger.warn({ err }, 'family exports queue connection error'));
  }

  async create(principal: Principal): Promise<FamilyExportDto> {
    const created = await this.exports.create(principal.familyId, fileName(new Date()));
    try {
      await enqueueWithin(this.queue, 'export', { exportId: created.id, familyId: principal.familyId, requestId: currentRequest()?.id }, { removeOnComplete: 1000, removeOnFail: 5000 });
    } catch (err) {
      this.logger.warn({ err, exportId: created.id }, 'family export could not be queued');
      await this.exports.transition(principal.familyId, created.id, ['pending'], 'failed', { error: 'The export could not be queued.' });
      throw new ApiError(500, 'export_failed', 'The export was created but could not be queued for processing.', { details: { export_id: created.id } });
    }
    return this.show(principal, created.id);
  }

  async show(principal: Principal, id: string): Promise<FamilyExportDto> {
    return present(await this.findOrFail(principal.familyId, id));
  }

  async list(principal: Principal): Promise<FamilyExportDto[]> {
    return (await this.exports.list(principal.familyId)).map(present);
  }

  /** The NDJSON of a completed export; 409 export_not_ready before that. */
  async download(principal: Principal, id: string): Promise<{ fileName: string; content: string }> {
    const found = await this.findOrFail(principal.familyId, id);
    if (found.status !== 'completed') {
      throw new ApiError(409, 'export_not_ready', `The export is ${found.status}; download it once it is completed.`);
    }
    return { fileName: found.fileName, content: (await this.exports.content(principal.familyId, id)) ?? '' };
  }

  /** The job: pending -> processing -> completed (or failed, the cause in the log only). */
  /** Builds the export of a delivered job; returns how it ended and the records it holds, for the job's log line. */
  async run({ exportId, familyId }: FamilyExportJob): Promise<JobOutcome> {
    if (!(await this.exports.transition(familyId, exportId, ['pending'], 'processing'))) return { outcome: 'skipped', rows: 0 };
    try {
      const { content, recordCounts } = await this.exporter.export(familyId);
      await this.exports.transition(familyId, exportId, ['processing'], 'completed', { content, recordCounts });
      return { outcome: 'complete', rows: Object.values(recordCounts).reduce((sum, n) => sum + n, 0) };
    } catch (err) {
      this.logger.warn({ err, exportId }, 'family export failed');
      await this.exports.transition(familyId, exportId, ['processing'], 'failed', { error: EXPORT_FAILED });
      return { outcome: 'failed', rows: 0 };
    }
  }

  private async findOrFail(familyId: string, id: string): Promise<FamilyExport> {
    const found = await this.exports.findOne(familyId, id);
    if (!found) throw ApiError.notFound();
    return found;
  }
}
