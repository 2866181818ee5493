import { MigrationInterface, QueryRunner } from 'typeorm';

export class ImportBookkeeping1795387000000 implements MigrationInterface {
  name = 'ImportBookkeeping1795387000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Bulk publishing maintains every index of entries and transactions; these three now skip the NULL majority.
    await queryRunner.query(`DROP INDEX "public"."IDX_15a9759bbf29fcc529111aee2f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_d8b983e5ca6f10ecf049986255"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e80829a78860eadca0d60c8e21"`);
    await queryRunner.query(`CREATE INDEX "entries_import_id" ON "entries" ("import_id") WHERE "import_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "entries_parent_entry_id" ON "entries" ("parent_entry_id") WHERE "parent_entry_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "transactions_merchant_id" ON "transactions" ("merchant_id") WHERE "merchant_id" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "imports" ADD "content_bytes" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "imports" ADD "invalid_rows_count" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`UPDATE "imports" SET "content_bytes" = octet_length("raw_file_content") WHERE "raw_file_content" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "import_rows" ADD "duplicate_of" uuid`);
    await queryRunner.query(`UPDATE "import_rows" SET "duplicate_of" = ("values"->>'duplicate_of')::uuid, "values" = "values" - 'duplicate_of' WHERE "values" ? 'duplicate_of'`);
    await queryRunner.query(`CREATE INDEX "import_rows_duplicate_of" ON "import_rows" ("import_id", "duplicate_of") WHERE "duplicate_of" IS NOT NULL`);
    await queryRunner.query(
      `UPDATE "imports" i SET "invalid_rows_count" = (SELECT count(*) FROM "import_rows" r WHERE r."import_id" = i."id" AND r."errors" <> '[]'::jsonb)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."transactions_merchant_id"`);
    await queryRunner.query(`DROP INDEX "public"."entries_parent_entry_id"`);
    await queryRunner.query(`DROP INDEX "public"."entries_import_id"`);
    await queryRunner.query(`CREATE INDEX "IDX_e80829a78860eadca0d60c8e21" ON "transactions" ("merchant_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_d8b983e5ca6f10ecf049986255" ON "entries" ("parent_entry_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_15a9759bbf29fcc529111aee2f" ON "entries" ("import_id")`);
    await queryRunner.query(`DROP INDEX "public"."import_rows_duplicate_of"`);
    await queryRunner.query(`ALTER TABLE "import_rows" DROP COLUMN "duplicate_of"`);
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "invalid_rows_count"`);
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "content_bytes"`);
  }
}
