import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One foreign key, (account_id, family_id) -> accounts (id, family_id), replaces the two single-column keys of
 * entries: an entry can no longer name one family and sit in another family's account, and a bulk import pays one
 * referential check per row instead of two. Families
 * still cascade to their entries, through accounts.
 */
export class EntryAccountFamilyKey1795463407268 implements MigrationInterface {
  name = 'EntryAccountFamilyKey1795463407268';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "entries" DROP CONSTRAINT "FK_b9faeb4bcd62fcc3e983aabc09f"`);
    await queryRunner.query(`ALTER TABLE "entries" DROP CONSTRAINT "FK_a401df6850c3d68be2791b44111"`);
    await queryRunner.query(`ALTER TABLE "accounts" ADD CONSTRAINT "accounts_id_family" UNIQUE ("id", "family_id")`);
    await queryRunner.query(`ALTER TABLE "entries" ADD CONSTRAINT "FK_a855376c73dc9bae7c1a341af0b" FOREIGN KEY ("account_id", "family_id") REFERENCES "accounts"("id","family_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "entries" DROP CONSTRAINT "FK_a855376c73dc9bae7c1a341af0b"`);
    await queryRunner.query(`ALTER TABLE "accounts" DROP CONSTRAINT "accounts_id_family"`);
    await queryRunner.query(`ALTER TABLE "entries" ADD CONSTRAINT "FK_a401df6850c3d68be2791b44111" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "entries" ADD CONSTRAINT "FK_b9faeb4bcd62fcc3e983aabc09f" FOREIGN KEY ("family_id") REFERENCES "families"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }
}
