import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An account's balance is rolled forward from its entries at every read (accounts.repository.ts). Its latest valuation,
 * its trades (whose fees move its value) and its split parts (taken away: the parent carries the amount) are each found
 * by a partial index of their own, without reading the account's other entries; none takes an entry for an ordinary
 * transaction, so imports of bank transactions write no more than before.
 */
export class AccountBalanceIndexes1795580030123 implements MigrationInterface {
  name = 'AccountBalanceIndexes1795580030123';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "entries_account_split_parts" ON "entries"  ("account_id") WHERE "parent_entry_id" IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX "entries_account_trades" ON "entries"  ("account_id") WHERE "entryable_type" = 'Trade'`);
    await queryRunner.query(`CREATE INDEX "entries_account_valuations" ON "entries"  ("account_id", "date") WHERE "entryable_type" = 'Valuation'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."entries_account_valuations"`);
    await queryRunner.query(`DROP INDEX "public"."entries_account_trades"`);
    await queryRunner.query(`DROP INDEX "public"."entries_account_split_parts"`);
  }
}
