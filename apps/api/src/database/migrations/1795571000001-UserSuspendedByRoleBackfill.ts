import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * users.suspended_by_role for users suspended before it existed, so a family admin cannot lift a super admin's
 * suspension made before the upgrade either: the role, now, of who suspended them last (audit log), the best record of
 * their rank then. Where that row is gone (retention), or its author was removed or is a member now, it stays null,
 * and any administrator who manages the user may reactivate them, as before.
 */
export class UserSuspendedByRoleBackfill1795571000001 implements MigrationInterface {
  name = 'UserSuspendedByRoleBackfill1795571000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE "users" u SET "suspended_by_role" = NULLIF((
        SELECT s."role" FROM "users" s
         WHERE s."id" = (SELECT (a."details"->>'actor_user_id')::uuid FROM "audit_logs" a
                          WHERE a."user_id" = u."id" AND a."event" = 'user_suspended'
                          ORDER BY a."created_at" DESC, a."id" DESC LIMIT 1)), 'member')
       WHERE u."status" = 'suspended' AND u."suspended_by_role" IS NULL`);
  }

  async down(): Promise<void> {
    // Nothing to undo: UserSuspendedByRole's down drops the column.
  }
}
