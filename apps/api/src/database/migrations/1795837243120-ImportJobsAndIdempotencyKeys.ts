import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * imports.job_id and heartbeat_at let the reaper tell an import whose job waits in the queue from one whose worker
 * vanished; import_idempotency_keys holds POST /imports' Idempotency-Key answers per family for 24 hours.
 */
export class ImportJobsAndIdempotencyKeys1795837243120 implements MigrationInterface {
  name = 'ImportJobsAndIdempotencyKeys1795837243120';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "import_idempotency_keys" ("family_id" uuid NOT NULL, "key" character varying(255) NOT NULL, "request_fingerprint" character(64) NOT NULL, "import_id" uuid, "response_status" smallint, "response_body" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0890bb0b68e1ba94d7c3c5c61a3" PRIMARY KEY ("family_id", "key"))`);
    await queryRunner.query(`CREATE INDEX "IDX_645b87d4b4c73427918da94b17" ON "import_idempotency_keys"  ("created_at") `);
    await queryRunner.query(`ALTER TABLE "imports" ADD "job_id" character varying(64)`);
    await queryRunner.query(`ALTER TABLE "imports" ADD "heartbeat_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "import_idempotency_keys" ADD CONSTRAINT "FK_319d5b4ba5809a0977618c60778" FOREIGN KEY ("family_id") REFERENCES "families"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "import_idempotency_keys" DROP CONSTRAINT "FK_319d5b4ba5809a0977618c60778"`);
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "heartbeat_at"`);
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "job_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_645b87d4b4c73427918da94b17"`);
    await queryRunner.query(`DROP TABLE "import_idempotency_keys"`);
  }
}
