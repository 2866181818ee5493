import { MigrationInterface, QueryRunner } from 'typeorm';

export class ImportMoneySideColumns1795860000000 implements MigrationInterface {
  name = 'ImportMoneySideColumns1795860000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" ADD "outflow_col_label" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "imports" ADD "inflow_col_label" character varying(255)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "inflow_col_label"`);
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "outflow_col_label"`);
  }
}
