import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Transactions are indexed by (category, kind) with their entry (INCLUDE), in place of the bare category index: a
 * budget's category list looks for a category's first transaction that counts as spending (nonSpendingCategories),
 * reading only the kinds budgets count. With the bare index the planner expected each category spread over the whole
 * table and scanned the table, all of it for a category without spending (a salary), in time that grew with it.
 */
export class TransactionsByCategoryAndKind1795590000000 implements MigrationInterface {
  name = 'TransactionsByCategoryAndKind1795590000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "transactions_category_kind" ON "transactions" ("category_id", "kind") INCLUDE ("entry_id")`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c9e41213ca42d50132ed7ab2b0"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_c9e41213ca42d50132ed7ab2b0" ON "transactions" ("category_id")`);
    await queryRunner.query(`DROP INDEX "public"."transactions_category_kind"`);
  }
}
