import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rows with errors of an import, in file order (GET /imports/{id}/rows?errors=only, and the invalid-row counts
 * and publish messages): partial, so it holds only the few invalid rows and valid rows cost no index write; without
 * it, finding them reads every row of the import.
 */
export class ImportRowsWithErrors1795560000002 implements MigrationInterface {
  name = 'ImportRowsWithErrors1795560000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "import_rows_with_errors" ON "import_rows" ("import_id", "source_row_number") WHERE "errors" <> '[]'::jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."import_rows_with_errors"`);
  }
}
