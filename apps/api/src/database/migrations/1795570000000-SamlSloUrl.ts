import { MigrationInterface, QueryRunner } from 'typeorm';

/** sso_providers.slo_url: the IdP's single logout URL, for SP-initiated SAML logout (optional; nullable, no rewrite). */
export class SamlSloUrl1795570000000 implements MigrationInterface {
  name = 'SamlSloUrl1795570000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sso_providers" ADD "slo_url" character varying(500)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sso_providers" DROP COLUMN "slo_url"`);
  }
}
