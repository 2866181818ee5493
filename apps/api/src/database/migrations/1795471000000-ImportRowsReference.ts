import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * import_rows refer to their import through statement-level triggers instead of a foreign key. A foreign key checks
 * each inserted row on its own, a large share of the time a large file's rows take to store
 * (docs/performance.md#statement-level-references). The trigger does what the key did, once per statement: rows must
 * name an existing import, which it locks FOR KEY SHARE so it cannot be deleted before the writer commits; deleting
 * imports deletes their rows.
 */
export class ImportRowsReference1795471000000 implements MigrationInterface {
  name = 'ImportRowsReference1795471000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "import_rows" DROP CONSTRAINT "FK_c175270322bf4c2e99418c2aa9f"`);
    await queryRunner.query(
      `CREATE FUNCTION import_rows_reference_imports() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         named int;
         found int;
       BEGIN
         SELECT count(DISTINCT import_id) INTO named FROM written;
         SELECT count(*) INTO found FROM (SELECT 1 FROM imports WHERE id IN (SELECT import_id FROM written) FOR KEY SHARE) i;
         IF found < named THEN
           RAISE EXCEPTION 'insert or update on table "import_rows" violates its reference to "imports": no such import'
             USING ERRCODE = 'foreign_key_violation';
         END IF;
         RETURN NULL;
       END $$`,
    );
    for (const event of ['INSERT', 'UPDATE']) {
      await queryRunner.query(
        `CREATE TRIGGER "import_rows_reference_${event.toLowerCase()}" AFTER ${event} ON "import_rows"
         REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION import_rows_reference_imports()`,
      );
    }
    await queryRunner.query(
      `CREATE FUNCTION imports_delete_rows() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         DELETE FROM import_rows WHERE import_id IN (SELECT id FROM gone);
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "imports_delete_rows" AFTER DELETE ON "imports" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION imports_delete_rows()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "imports_delete_rows" ON "imports"`);
    await queryRunner.query(`DROP FUNCTION imports_delete_rows()`);
    for (const event of ['insert', 'update']) await queryRunner.query(`DROP TRIGGER "import_rows_reference_${event}" ON "import_rows"`);
    await queryRunner.query(`DROP FUNCTION import_rows_reference_imports()`);
    await queryRunner.query(
      `ALTER TABLE "import_rows" ADD CONSTRAINT "FK_c175270322bf4c2e99418c2aa9f" FOREIGN KEY ("import_id") REFERENCES "imports"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
