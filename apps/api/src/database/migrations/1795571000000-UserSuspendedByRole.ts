import { MigrationInterface, QueryRunner } from 'typeorm';

/** users.suspended_by_role: while a user is suspended, the role of who suspended them (filled in by the next migration). */
export class UserSuspendedByRole1795571000000 implements MigrationInterface {
  name = 'UserSuspendedByRole1795571000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "suspended_by_role" character varying(20)`);
    await queryRunner.query(`ALTER TABLE "users" ADD CONSTRAINT "users_suspended_by_role_valid" CHECK ("suspended_by_role" IS NULL OR ("status" = 'suspended' AND "suspended_by_role" IN ('admin', 'super_admin')))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "users_suspended_by_role_valid"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "suspended_by_role"`);
  }
}
