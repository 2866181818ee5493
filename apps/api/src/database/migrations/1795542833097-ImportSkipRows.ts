import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * imports.skip_rows: the row numbers PATCH skip_rows leaves out of an import. Existing imports skip none; a constant
 * default, so adding the column rewrites no rows.
 */
export class ImportSkipRows1795542833097 implements MigrationInterface {
  name = 'ImportSkipRows1795542833097';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" ADD "skip_rows" jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "skip_rows"`);
  }
}
