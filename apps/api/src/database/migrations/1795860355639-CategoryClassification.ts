import { MigrationInterface, QueryRunner } from 'typeorm';

export class CategoryClassification1795860355639 implements MigrationInterface {
  name = 'CategoryClassification1795860355639';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "categories" ADD "classification" character varying(10) NOT NULL DEFAULT 'expense'`);
    await queryRunner.query(`ALTER TABLE "categories" ADD CONSTRAINT "categories_classification_valid" CHECK ("classification" IN ('income', 'expense'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "categories" DROP CONSTRAINT "categories_classification_valid"`);
    await queryRunner.query(`ALTER TABLE "categories" DROP COLUMN "classification"`);
  }
}
