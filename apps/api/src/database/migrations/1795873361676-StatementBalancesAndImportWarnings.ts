import { MigrationInterface, QueryRunner } from 'typeorm';

export class StatementBalancesAndImportWarnings1795873361676 implements MigrationInterface {
  name = 'StatementBalancesAndImportWarnings1795873361676';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" ADD "statement_balances" jsonb`);
    await queryRunner.query(`ALTER TABLE "imports" ADD "warnings" jsonb NOT NULL DEFAULT '[]'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "warnings"`);
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "statement_balances"`);
  }
}
