import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What publishing a row changed in the existing record it claimed (import_rows.duplicate_of), so that reverting the
 * import puts it back: each changed field with its value before and after.
 */
export class ImportRowsPrevious1795474200000 implements MigrationInterface {
  name = 'ImportRowsPrevious1795474200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "import_rows" ADD "previous" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "import_rows" DROP COLUMN "previous"`);
  }
}
