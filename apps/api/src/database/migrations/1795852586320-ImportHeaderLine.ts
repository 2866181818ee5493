import { MigrationInterface, QueryRunner } from 'typeorm';

export class ImportHeaderLine1795852586320 implements MigrationInterface {
  name = 'ImportHeaderLine1795852586320';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" ADD "header_row" integer`);
    await queryRunner.query(`ALTER TABLE "imports" ADD "has_header" boolean NOT NULL DEFAULT true`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "has_header"`);
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "header_row"`);
  }
}
