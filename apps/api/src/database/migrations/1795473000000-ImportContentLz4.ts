import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An import's stored file (up to 10 MB of text) is compressed with lz4 instead of pglz where the server has lz4: it is
 * stored inside the POST, and lz4 compresses as well at a fraction of the time (docs/performance.md).
 * The embedded PGlite is built without lz4 and keeps pglz.
 */
export class ImportContentLz41795473000000 implements MigrationInterface {
  name = 'ImportContentLz41795473000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DO $$ BEGIN
         ALTER TABLE "imports" ALTER COLUMN "raw_file_content" SET COMPRESSION lz4;
       EXCEPTION WHEN feature_not_supported THEN NULL;
       END $$`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" ALTER COLUMN "raw_file_content" SET COMPRESSION default`);
  }
}
