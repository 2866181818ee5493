import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Covering indexes for the budget aggregate: one index-only range scan of the family's month in entries and one
 * lookup per entry in transactions, instead of scanning the transactions table.
 */
export class BudgetReadIndexes1795388000000 implements MigrationInterface {
  name = 'BudgetReadIndexes1795388000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_2935025fedb23e84f4659569cc"`);
    await queryRunner.query(
      `CREATE INDEX "entries_family_date_covering" ON "entries" ("family_id", "date") INCLUDE ("id", "account_id", "amount_minor", "currency", "excluded", "entryable_type")`,
    );
    await queryRunner.query(
      `CREATE INDEX "transactions_budget_covering" ON "transactions" ("entry_id") INCLUDE ("category_id", "kind", "pending", "investment_activity_label")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."transactions_budget_covering"`);
    await queryRunner.query(`DROP INDEX "public"."entries_family_date_covering"`);
    await queryRunner.query(`CREATE INDEX "IDX_2935025fedb23e84f4659569cc" ON "entries" ("family_id", "date")`);
  }
}
