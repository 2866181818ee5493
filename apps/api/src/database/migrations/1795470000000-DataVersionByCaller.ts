import { MigrationInterface, QueryRunner } from 'typeorm';

/** The budget-input tables and how each trigger finds the families of its changed rows (as migrated so far). */
const SOURCES: { table: string; families: string }[] = [
  { table: 'entries', families: `SELECT family_id FROM changed` },
  { table: 'accounts', families: `SELECT family_id FROM changed` },
  { table: 'categories', families: `SELECT family_id FROM changed` },
  { table: 'transactions', families: `SELECT e.family_id FROM changed c CROSS JOIN LATERAL (SELECT family_id FROM entries WHERE id = c.entry_id OFFSET 0) e` },
  { table: 'budget_categories', families: `SELECT b.family_id FROM changed c JOIN budgets b ON b.id = c.budget_id` },
  { table: 'exchange_rates', families: `SELECT b.family_id FROM budgets b WHERE b.currency IN (SELECT to_currency FROM changed)` },
];

const FUNCTION = (table: string, families: string, byCaller: boolean) => `
  CREATE OR REPLACE FUNCTION "budget_inputs_changed_${table}"() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    ${byCaller ? `IF current_setting('hearth.data_version_by_caller', true) = 'on' THEN RETURN NULL; END IF;` : ''}
    UPDATE families SET data_version = data_version + 1 WHERE id IN (${families});
    RETURN NULL;
  END $$`;

/**
 * A transaction that sets `hearth.data_version_by_caller` (SET LOCAL) moves families.data_version itself before it
 * commits, and the budget-input triggers leave it alone. Import chunks do: two chunks of one import insert at once,
 * and a trigger's UPDATE of the family row inside the insert statement would make the later chunk hold that row
 * while it waits to commit after the earlier one, which needs the row: a deadlock the database cannot see, since
 * the wait is in the publisher. Every other writer keeps the trigger's guarantee.
 */
export class DataVersionByCaller1795470000000 implements MigrationInterface {
  name = 'DataVersionByCaller1795470000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { table, families } of SOURCES) await queryRunner.query(FUNCTION(table, families, true));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table, families } of SOURCES) await queryRunner.query(FUNCTION(table, families, false));
  }
}
