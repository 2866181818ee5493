import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../../database/transactions';
import { IN_CHUNK } from '../../ledger/import-chunk';
import type { ImportRowRecord } from './publish-context';

/** The statements of publishing on the import's own tables (imports, import_rows). */
@Injectable()
export class PublishingRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The chunk's rows in order, `bounds` being IN_CHUNK's parameters (with a row kind, only the rows of that kind). */
  chunkRows(bounds: unknown[], tx?: Transaction): Promise<ImportRowRecord[]> {
    return managerOf(tx, this.dataSource).query(
      `SELECT r.source_row_number AS "sourceRowNumber", r."values" FROM import_rows r WHERE ${IN_CHUNK} ORDER BY r.source_row_number`,
      bounds,
    );
  }
}
