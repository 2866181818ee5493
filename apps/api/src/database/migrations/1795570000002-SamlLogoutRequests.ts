import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * saml_requests also remembers our LogoutRequests (purpose `logout`), which are bound to no browser: browser_hash is
 * null for exactly those. The table holds minutes-old rows only, so the check's scan is cheap.
 */
export class SamlLogoutRequests1795570000002 implements MigrationInterface {
  name = 'SamlLogoutRequests1795570000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "saml_requests" ALTER COLUMN "browser_hash" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "saml_requests" ADD CONSTRAINT "saml_requests_browser_bound" CHECK (("purpose" = 'logout') = ("browser_hash" IS NULL))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "saml_requests" DROP CONSTRAINT "saml_requests_browser_bound"`);
    await queryRunner.query(`DELETE FROM "saml_requests" WHERE "browser_hash" IS NULL`);
    await queryRunner.query(`ALTER TABLE "saml_requests" ALTER COLUMN "browser_hash" SET NOT NULL`);
  }
}
