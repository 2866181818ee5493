import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, EntityManager } from 'typeorm';
import type { ImportType } from '@hearth/contracts';
import { LOGGER } from '../../common/logger';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { Import } from '../import.entity';
import type { PublishJob } from '../imports.queue';
import { publishAccounts } from './accounts.publisher';
import { publishTrades } from './investments.publisher';
import { resolveMappables } from './mappables';
import { ChunkPublisher, ImportChunk, withRows } from './publish-context';
import { publishCategories, publishMerchants, publishRules } from './taxonomy.publisher';
import { publishTransactions } from './transactions.publisher';
import { publishStatement } from './statement.publisher';
import { deleteServiceImportBudgets, publishServiceImport } from './service-import.publisher';
import { beginServiceImportReadback, finishServiceImportReadback, markServiceImportReverted } from '../service-import-verification';

const PUBLISHERS: Partial<Record<ImportType, ChunkPublisher>> = {
  TransactionImport: publishTransactions,
  MintImport: publishTransactions,
  ActualImport: publishTransactions,
  YnabImport: publishTransactions,
  TradeImport: withRows(publishTrades),
  AccountImport: withRows(publishAccounts),
  CategoryImport: withRows(publishCategories),
  MerchantImport: withRows(publishMerchants),
  RuleImport: withRows(publishRules),
  QifImport: publishStatement,
  PdfImport: publishStatement,
  ServiceImport: withRows(publishServiceImport),
};

// What the user sees in `error`; the cause (possibly SQL text) goes to the log only.
const PUBLISH_FAILED = 'Publishing stopped on an internal error. Committed chunks are kept and the rest rolled back; publish again to resume.';
const REVERT_FAILED = 'Reverting stopped on an internal error and was rolled back; nothing was removed. Revert again to retry.';

/** Tables an import can add rows to, each carrying import_id; revert deletes exactly these rows. */
const CREATED_BY_IMPORT = ['entries', 'transfers', 'accounts', 'rules', 'merchants', 'tags', 'categories'];

/** Turns an import's rows into records (publish) and removes them again (revert). Runs inside the job worker. */
@Injectable()
export class ImportPublisher {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async publish({ importId, familyId }: PublishJob): Promise<void> {
    const imp = await this.dataSource.getRepository(Import).findOneBy({ id: importId, familyId });
    // A redelivered or stale job finds the import no longer importing and does nothing.
    if (!imp || imp.status !== 'importing') return;
    const publishChunk = PUBLISHERS[imp.type];
    if (!publishChunk) return this.finish(imp, 'importing', 'failed', `Publishing ${imp.type} is not supported yet`);
    try {
      const familyCurrency = (await this.dataSource.query(`SELECT currency FROM families WHERE id = $1`, [familyId]))[0].currency;
      const ctx = await this.dataSource.transaction((tx) => resolveMappables(tx, imp, familyCurrency));
      if (imp.type === 'ServiceImport') await beginServiceImportReadback(this.dataSource, imp); // verification: counts before
      while (await this.dataSource.transaction((tx) => this.publishNextChunk(tx, imp, (chunk) => publishChunk(tx, chunk, ctx)))) {
        // each iteration commits one chunk
      }
      if (imp.type === 'ServiceImport') await finishServiceImportReadback(this.dataSource, imp); // verification: readback
      await this.finish(imp, 'importing', 'complete', null);
    } catch (error) {
      this.logger.warn({ importId, type: imp.type, err: error }, 'import publish failed');
      if (imp.type === 'ServiceImport') await finishServiceImportReadback(this.dataSource, imp, PUBLISH_FAILED).catch(() => undefined);
      await this.finishOrRetry(imp, 'importing', 'failed', PUBLISH_FAILED, error);
    }
  }

  /**
   * Locks the import row (one publisher per import at a time), publishes the rows after the resume point and
   * moves the resume point, all in the caller's transaction. Returns false when nothing was left.
   */
  private async publishNextChunk(tx: EntityManager, imp: Import, publish: (chunk: ImportChunk) => Promise<void>): Promise<boolean> {
    const [current] = await tx.query(`SELECT status, published_through_row FROM imports WHERE id = $1 FOR UPDATE`, [imp.id]);
    if (current?.status !== 'importing') return false;
    // Only the bounds travel: publishers read the rows themselves, most of them in SQL without a round trip.
    const [{ size, through }] = await tx.query(
      `SELECT count(*)::int AS size, max(source_row_number) AS through
         FROM (SELECT source_row_number FROM import_rows WHERE import_id = $1 AND source_row_number > $2 ORDER BY source_row_number LIMIT $3) c`,
      // Rows committed per transaction (IMPORT_CHUNK_ROWS, default 5,000); published_through_row is the resume point.
      [imp.id, current.published_through_row, this.config.importChunkRows],
    );
    if (!size) return false;
    await publish({ after: current.published_through_row, through, size });
    await tx.query(`UPDATE imports SET published_through_row = $2, updated_at = now() WHERE id = $1`, [imp.id, through]);
    await tx.query(`UPDATE families SET data_version = data_version + 1 WHERE id = $1`, [imp.familyId]);
    return true;
  }

  /** Removes everything the import created, in one transaction, and makes it publishable again. */
  async revert({ importId, familyId }: PublishJob): Promise<void> {
    const imp = await this.dataSource.getRepository(Import).findOneBy({ id: importId, familyId });
    if (!imp || imp.status !== 'reverting') return;
    try {
      await this.dataSource.transaction(async (tx) => {
        // Waits for a chunk still in flight (its publisher holds this lock) so no row it commits is left behind.
        await tx.query(`SELECT 1 FROM imports WHERE id = $1 FOR UPDATE`, [importId]);
        // ServiceImport: budgets carry no import_id; its readback becomes `reverted` with the deletion.
        if (imp.type === 'ServiceImport') {
          await deleteServiceImportBudgets(tx, familyId, importId);
          await markServiceImportReverted(tx, importId);
        }
        for (const table of CREATED_BY_IMPORT) {
          await tx.query(`DELETE FROM ${table} WHERE family_id = $1 AND import_id = $2`, [familyId, importId]);
        }
        await tx.query(
          `UPDATE import_mappings m SET mappable_id = NULL, create_when_empty = true
            WHERE m.import_id = $1 AND m.mappable_id IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM accounts WHERE id = m.mappable_id)
              AND NOT EXISTS (SELECT 1 FROM categories WHERE id = m.mappable_id)
              AND NOT EXISTS (SELECT 1 FROM tags WHERE id = m.mappable_id)`,
          [importId],
        );
        await tx.query(`UPDATE import_rows SET duplicate_of = NULL WHERE import_id = $1 AND duplicate_of IS NOT NULL`, [importId]);
        await tx.query(`UPDATE imports SET published_through_row = 0 WHERE id = $1`, [importId]);
        await tx.query(`UPDATE families SET data_version = data_version + 1 WHERE id = $1`, [familyId]);
      });
      await this.finish(imp, 'reverting', 'pending', null);
    } catch (error) {
      this.logger.warn({ importId, err: error }, 'import revert failed');
      await this.finishOrRetry(imp, 'reverting', 'revert_failed', REVERT_FAILED, error);
    }
  }

  /**
   * Records the failure; when even that fails (the database is down or restarting) the job fails with the cause, so
   * the queue retries it with backoff and the retry resumes from the recorded point instead of leaving the import
   * stuck in importing/reverting until the reaper.
   */
  private async finishOrRetry(imp: Import, from: Import['status'], to: Import['status'], message: string, cause: unknown): Promise<void> {
    try {
      await this.finish(imp, from, to, message);
    } catch (recordError) {
      this.logger.warn({ importId: imp.id, err: recordError }, `could not mark the import ${to}; the job will be retried`);
      throw cause;
    }
  }

  private async finish(imp: Import, from: Import['status'], to: Import['status'], error: string | null): Promise<void> {
    await this.dataSource.query(`UPDATE imports SET status = $3, error = $4, updated_at = now() WHERE id = $1 AND status = $2`, [imp.id, from, to, error]);
  }
}
