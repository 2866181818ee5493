import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery of a publish job that is publishing an import. Chunks run in transactions of their own and hold the
 * import row only FOR KEY SHARE, so a second delivery of the job would otherwise publish alongside the first. Each
 * delivery takes the token over when it starts; chunks commit, and the import finishes, only under the current one.
 */
export class PublishToken1795472000000 implements MigrationInterface {
  name = 'PublishToken1795472000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" ADD "publish_token" uuid`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "imports" DROP COLUMN "publish_token"`);
  }
}
