import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each table a budget is computed from, and how to find the families a changed row belongs to. */
const SOURCES: { table: string; families: string }[] = [
  { table: 'entries', families: `SELECT family_id FROM changed` },
  { table: 'accounts', families: `SELECT family_id FROM changed` },
  { table: 'categories', families: `SELECT family_id FROM changed` },
  { table: 'transactions', families: `SELECT e.family_id FROM changed c JOIN entries e ON e.id = c.entry_id` },
  { table: 'budget_categories', families: `SELECT b.family_id FROM changed c JOIN budgets b ON b.id = c.budget_id` },
  // Rates are shared: every family with a budget in a changed rate's target currency.
  { table: 'exchange_rates', families: `SELECT b.family_id FROM budgets b WHERE b.currency IN (SELECT to_currency FROM changed)` },
];
const EVENTS = [
  ['insert', 'INSERT', 'NEW'],
  ['update', 'UPDATE', 'NEW'],
  ['delete', 'DELETE', 'OLD'],
] as const;

/**
 * families.data_version moves in the same transaction as every write to a budget's inputs, whichever code (or
 * operator SQL) makes it: statement-level triggers, one UPDATE per statement. A computed budget cached under the
 * version read before computing it is therefore never older than that version, in any process (budgets.service.ts).
 */
export class BudgetInputVersions1795436000000 implements MigrationInterface {
  name = 'BudgetInputVersions1795436000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { table, families } of SOURCES) {
      await queryRunner.query(
        `CREATE FUNCTION "budget_inputs_changed_${table}"() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           UPDATE families SET data_version = data_version + 1 WHERE id IN (${families});
           RETURN NULL;
         END $$`,
      );
      for (const [suffix, event, row] of EVENTS) {
        await queryRunner.query(
          `CREATE TRIGGER "budget_inputs_${table}_${suffix}" AFTER ${event} ON "${table}"
           REFERENCING ${row} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "budget_inputs_changed_${table}"()`,
        );
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table } of SOURCES) {
      for (const [suffix] of EVENTS) await queryRunner.query(`DROP TRIGGER IF EXISTS "budget_inputs_${table}_${suffix}" ON "${table}"`);
      await queryRunner.query(`DROP FUNCTION IF EXISTS "budget_inputs_changed_${table}"()`);
    }
  }
}
