import { MigrationInterface, QueryRunner } from 'typeorm';

export class AccountsClosedAt1795875724302 implements MigrationInterface {
  name = 'AccountsClosedAt1795875724302';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "accounts" ADD "closed_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "accounts" DROP COLUMN "closed_at"`);
  }
}
