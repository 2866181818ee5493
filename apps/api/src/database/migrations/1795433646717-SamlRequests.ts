import { MigrationInterface, QueryRunner } from 'typeorm';

export class SamlRequests1795433646717 implements MigrationInterface {
  name = 'SamlRequests1795433646717';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "saml_requests" ("id" character varying(100) NOT NULL, "provider_id" uuid NOT NULL, "browser_hash" character(64) NOT NULL, "purpose" character varying(20) NOT NULL, "user_id" uuid, "issue_instant" character varying(40) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "consumed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6bfb0a52a23916eaf5f1586beab" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_00e1993afee3131555a5685a38" ON "saml_requests"  ("expires_at") `);
    await queryRunner.query(`CREATE TABLE "saml_assertions" ("provider_id" uuid NOT NULL, "assertion_id" character varying(200) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_05c45f61df83ab9bfeeccea708d" PRIMARY KEY ("provider_id", "assertion_id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_bb40983116003d7161bdf04436" ON "saml_assertions"  ("expires_at") `);
    await queryRunner.query(`ALTER TABLE "saml_requests" ADD CONSTRAINT "FK_35adcaca61262aaab8d4905047b" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "saml_assertions" ADD CONSTRAINT "FK_2b7b6b2ed46844ae4acd62c0e64" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "saml_assertions" DROP CONSTRAINT "FK_2b7b6b2ed46844ae4acd62c0e64"`);
    await queryRunner.query(`ALTER TABLE "saml_requests" DROP CONSTRAINT "FK_35adcaca61262aaab8d4905047b"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_bb40983116003d7161bdf04436"`);
    await queryRunner.query(`DROP TABLE "saml_assertions"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_00e1993afee3131555a5685a38"`);
    await queryRunner.query(`DROP TABLE "saml_requests"`);
  }
}
