import { MigrationInterface, QueryRunner } from 'typeorm';

/** Import de-duplication looks entries up by (account, date, amount); the (account, date) index it replaces was its prefix. */
export class DeduplicationIndex1795434000000 implements MigrationInterface {
  name = 'DeduplicationIndex1795434000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_3442fc823f5bfa9c7b9f8a1bae"`);
    await queryRunner.query(`CREATE INDEX "entries_account_date_amount" ON "entries" ("account_id", "date", "amount_minor") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."entries_account_date_amount"`);
    await queryRunner.query(`CREATE INDEX "IDX_3442fc823f5bfa9c7b9f8a1bae" ON "entries" ("account_id", "date") `);
  }
}
