import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An account's balance is rolled forward from its latest valuation (accounts.repository.ts): this partial index finds it
 * without reading the account's other entries, and takes no entry for a transaction or a trade.
 */
export class EntryValuationAnchors1795579030225 implements MigrationInterface {
  name = 'EntryValuationAnchors1795579030225';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "entries_account_valuations" ON "entries"  ("account_id", "date") WHERE "entryable_type" = 'Valuation'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."entries_account_valuations"`);
  }
}
