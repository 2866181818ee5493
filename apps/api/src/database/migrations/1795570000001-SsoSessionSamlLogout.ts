import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * sso_sessions.saml_name_id_encrypted / saml_session_index: what a SAML LogoutRequest for the session names. Sessions
 * opened before have none and sign out locally; nullable columns, so no row is rewritten.
 */
export class SsoSessionSamlLogout1795570000001 implements MigrationInterface {
  name = 'SsoSessionSamlLogout1795570000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sso_sessions" ADD "saml_name_id_encrypted" text`);
    await queryRunner.query(`ALTER TABLE "sso_sessions" ADD "saml_session_index" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sso_sessions" DROP COLUMN "saml_session_index"`);
    await queryRunner.query(`ALTER TABLE "sso_sessions" DROP COLUMN "saml_name_id_encrypted"`);
  }
}
