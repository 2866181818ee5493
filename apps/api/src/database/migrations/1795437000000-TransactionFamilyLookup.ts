import { MigrationInterface, QueryRunner } from 'typeorm';

const FUNCTION = (families: string) => `CREATE OR REPLACE FUNCTION "budget_inputs_changed_transactions"() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           UPDATE families SET data_version = data_version + 1 WHERE id IN (${families});
           RETURN NULL;
         END $$`;

/**
 * The transactions trigger finds each changed row's family through its entry. As a plain join, with statistics that
 * lagged behind the table's growth, the planner could hash the whole entries table for every statement, so an import
 * chunk's time in the trigger grew with the table. One primary-key probe per changed row (the fenced LATERAL) costs
 * the same whatever the table's size or statistics.
 */
export class TransactionFamilyLookup1795437000000 implements MigrationInterface {
  name = 'TransactionFamilyLookup1795437000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(FUNCTION(`SELECT e.family_id FROM changed c CROSS JOIN LATERAL (SELECT family_id FROM entries WHERE id = c.entry_id OFFSET 0) e`));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(FUNCTION(`SELECT e.family_id FROM changed c JOIN entries e ON e.id = c.entry_id`));
  }
}
