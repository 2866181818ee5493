import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * sso_identity_blocks: the SSO identities of permanently removed users, refused at sign-in, link and JIT creation
 * until a super admin allows them again. A new, empty table: existing removals blocked nothing and stay that way.
 */
export class SsoIdentityBlocks1795552348189 implements MigrationInterface {
  name = 'SsoIdentityBlocks1795552348189';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "sso_identity_blocks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "provider_id" uuid NOT NULL, "uid_digest" character(64) NOT NULL, "identity_label_encrypted" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b172c52d104c399ace8c9aa39f8" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_71fd5732182b029a739f2984e9" ON "sso_identity_blocks"  ("provider_id", "uid_digest") `);
    await queryRunner.query(`ALTER TABLE "sso_identity_blocks" ADD CONSTRAINT "FK_34a452c131d57b75771eb56b2a3" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sso_identity_blocks" DROP CONSTRAINT "FK_34a452c131d57b75771eb56b2a3"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_71fd5732182b029a739f2984e9"`);
    await queryRunner.query(`DROP TABLE "sso_identity_blocks"`);
  }
}
