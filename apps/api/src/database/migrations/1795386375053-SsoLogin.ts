import { MigrationInterface, QueryRunner } from 'typeorm';

export class SsoLogin1795386375053 implements MigrationInterface {
  name = 'SsoLogin1795386375053';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "sso_login_states" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "state_hash" character(64) NOT NULL, "browser_hash" character(64) NOT NULL, "provider_id" uuid NOT NULL, "purpose" character varying(20) NOT NULL, "user_id" uuid, "code_verifier_encrypted" text NOT NULL, "nonce" character varying(100) NOT NULL, "redirect_uri" character varying(600) NOT NULL, "pending_link" jsonb, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "consumed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_187f7f6b9c341b10d45c8658a0f" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_c64107dbffa30e074b1b89e74c" ON "sso_login_states"  ("state_hash") `);
    await queryRunner.query(`CREATE INDEX "IDX_7dcbe8fffeb72b7f30c5e40685" ON "sso_login_states"  ("expires_at") `);
    await queryRunner.query(`CREATE TABLE "sso_sessions" ("session_id" uuid NOT NULL, "provider_id" uuid NOT NULL, "id_token_encrypted" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8bbcc6d5658380379dd5b49c60e" PRIMARY KEY ("session_id"))`);
    await queryRunner.query(`ALTER TABLE "sso_login_states" ADD CONSTRAINT "FK_b2c5c3e415b4dc404424c1a4253" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "sso_sessions" ADD CONSTRAINT "FK_8bbcc6d5658380379dd5b49c60e" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "sso_sessions" ADD CONSTRAINT "FK_ec2b95a1311fe5b7b18fa25957e" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sso_sessions" DROP CONSTRAINT "FK_ec2b95a1311fe5b7b18fa25957e"`);
    await queryRunner.query(`ALTER TABLE "sso_sessions" DROP CONSTRAINT "FK_8bbcc6d5658380379dd5b49c60e"`);
    await queryRunner.query(`ALTER TABLE "sso_login_states" DROP CONSTRAINT "FK_b2c5c3e415b4dc404424c1a4253"`);
    await queryRunner.query(`DROP TABLE "sso_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_7dcbe8fffeb72b7f30c5e40685"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c64107dbffa30e074b1b89e74c"`);
    await queryRunner.query(`DROP TABLE "sso_login_states"`);
  }
}
