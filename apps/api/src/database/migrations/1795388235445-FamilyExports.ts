import { MigrationInterface, QueryRunner } from 'typeorm';

export class FamilyExports1795388235445 implements MigrationInterface {
  name = 'FamilyExports1795388235445';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "family_exports" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "family_id" uuid NOT NULL, "status" character varying(20) NOT NULL DEFAULT 'pending', "file_name" character varying(255) NOT NULL, "content" text, "record_counts" jsonb NOT NULL DEFAULT '{}', "error" text, "completed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "family_exports_status_valid" CHECK ("status" IN ('pending', 'processing', 'completed', 'failed')), CONSTRAINT "PK_aedf2abdebdf501e6baf7e64ceb" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_8577598b350f1a651004e3d97d" ON "family_exports"  ("family_id", "created_at") `);
    await queryRunner.query(`ALTER TABLE "family_exports" ADD CONSTRAINT "FK_10aa4b263cc416e1713a7b9c4fa" FOREIGN KEY ("family_id") REFERENCES "families"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "family_exports" DROP CONSTRAINT "FK_10aa4b263cc416e1713a7b9c4fa"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8577598b350f1a651004e3d97d"`);
    await queryRunner.query(`DROP TABLE "family_exports"`);
  }
}
