import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The idle timeout (SESSION_IDLE_MINUTES) counts from sessions.last_seen_at, so every session needs one. The column
 * has been kept within a minute of each use since the start; a session where it is empty was never used after its
 * sign-in, so its creation time is its last use. (now() would give sessions idle for days a fresh idle period.)
 */
export class SessionIdleTimeout1795522971303 implements MigrationInterface {
  name = 'SessionIdleTimeout1795522971303';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "sessions" SET "last_seen_at" = "created_at" WHERE "last_seen_at" IS NULL`);
    await queryRunner.query(`ALTER TABLE "sessions" ALTER COLUMN "last_seen_at" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "sessions" ALTER COLUMN "last_seen_at" SET DEFAULT now()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" ALTER COLUMN "last_seen_at" DROP DEFAULT`);
    await queryRunner.query(`ALTER TABLE "sessions" ALTER COLUMN "last_seen_at" DROP NOT NULL`);
  }
}
