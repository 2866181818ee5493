import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * sso_identities.groups / groups_received_at: the groups of the last sign-in, for the administrator's "sync roles";
 * sso_identities.mapped_role: the role the provider's mapping last gave, so removing the mapping can take it back.
 * Existing identities have none of these until their next sign-in; nullable columns, so no row is rewritten.
 */
export class SsoIdentityGroups1795560000000 implements MigrationInterface {
  name = 'SsoIdentityGroups1795560000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sso_identities" ADD "groups" jsonb`);
    await queryRunner.query(`ALTER TABLE "sso_identities" ADD "groups_received_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "sso_identities" ADD "mapped_role" character varying(20)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sso_identities" DROP COLUMN "mapped_role"`);
    await queryRunner.query(`ALTER TABLE "sso_identities" DROP COLUMN "groups_received_at"`);
    await queryRunner.query(`ALTER TABLE "sso_identities" DROP COLUMN "groups"`);
  }
}
