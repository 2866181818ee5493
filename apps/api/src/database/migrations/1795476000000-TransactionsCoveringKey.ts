import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The primary key of transactions carries the columns budgets read (INCLUDE), and the separate covering index on
 * the same entry_id (BudgetReadIndexes) goes: one b-tree per inserted transaction instead of two. The budget
 * aggregate keeps its one index-only lookup per entry, now in the key.
 */
export class TransactionsCoveringKey1795476000000 implements MigrationInterface {
  name = 'TransactionsCoveringKey1795476000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE UNIQUE INDEX "transactions_key_covering" ON "transactions" ("entry_id") INCLUDE ("category_id", "kind", "pending", "investment_activity_label")`,
    );
    await queryRunner.query(`ALTER TABLE "transactions" DROP CONSTRAINT "PK_f9d5045b579bd77815fb635abca"`);
    await queryRunner.query(`ALTER TABLE "transactions" ADD CONSTRAINT "PK_f9d5045b579bd77815fb635abca" PRIMARY KEY USING INDEX "transactions_key_covering"`);
    await queryRunner.query(`DROP INDEX "transactions_budget_covering"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "transactions_budget_covering" ON "transactions" ("entry_id") INCLUDE ("category_id", "kind", "pending", "investment_activity_label")`,
    );
    await queryRunner.query(`ALTER TABLE "transactions" DROP CONSTRAINT "PK_f9d5045b579bd77815fb635abca"`);
    await queryRunner.query(`ALTER TABLE "transactions" ADD CONSTRAINT "PK_f9d5045b579bd77815fb635abca" PRIMARY KEY ("entry_id")`);
  }
}
