import { MigrationInterface, QueryRunner } from 'typeorm';

/** audit_logs.actor: user, cli or system. Retention rows written so far came from the job or its CLI command: system. */
export class AuditLogActor1795837653000 implements MigrationInterface {
  name = 'AuditLogActor1795837653000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_logs" ADD "actor" character varying(10) NOT NULL DEFAULT 'user'`);
    await queryRunner.query(`UPDATE "audit_logs" SET "actor" = 'system' WHERE "event" = 'audit_retention'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_logs" DROP COLUMN "actor"`);
  }
}
