import { MigrationInterface, QueryRunner } from 'typeorm';

/** The dates an import's rows span, kept with rows_count so that the list need not read the rows; filled for stored imports. */
export class ImportsKeepTheirRowDates1795836429097 implements MigrationInterface {
  name = 'ImportsKeepTheirRowDates1795836429097';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" ADD "first_row_date" date`);
    await queryRunner.query(`ALTER TABLE "imports" ADD "last_row_date" date`);
    await queryRunner.query(`
      UPDATE "imports" i SET "first_row_date" = d."first", "last_row_date" = d."last"
        FROM (SELECT "import_id", min(("values"->>'date')::date) AS "first", max(("values"->>'date')::date) AS "last"
                FROM "import_rows" WHERE "values"->>'date' ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' GROUP BY "import_id") d
       WHERE d."import_id" = i."id"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "last_row_date"`);
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "first_row_date"`);
  }
}
