import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * sso_identities.mapped_role for identities signed in before it existed, so removing a mapping also takes back the
 * roles it gave before the upgrade. Recorded only where the last sign-in ran under the provider's current mapping
 * (last_used_at not before the provider's last change, and the mapping has group mappings or conditions) and no
 * role change other than the mapping's has been audited since: then the user's role is the one that mapping gave.
 * Elsewhere it stays null, and the role is left alone until a sign-in records it.
 */
export class SsoMappedRoleBackfill1795560000001 implements MigrationInterface {
  name = 'SsoMappedRoleBackfill1795560000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE "sso_identities" i SET "mapped_role" = u."role"
        FROM "users" u, "sso_providers" p
       WHERE u."id" = i."user_id" AND p."id" = i."provider_id" AND i."mapped_role" IS NULL
         AND i."last_used_at" >= p."updated_at"
         AND (CASE WHEN jsonb_typeof(p."role_mapping"->'groupMappings') = 'array' THEN jsonb_array_length(p."role_mapping"->'groupMappings') ELSE 0 END
            + CASE WHEN jsonb_typeof(p."role_mapping"->'conditions') = 'array' THEN jsonb_array_length(p."role_mapping"->'conditions') ELSE 0 END) > 0
         AND NOT EXISTS (
               SELECT 1 FROM "audit_logs" a
                WHERE a."user_id" = u."id" AND a."event" = 'role_changed' AND a."created_at" >= i."last_used_at"
                  AND a."details"->>'source' IS DISTINCT FROM 'sso_role_mapping')`);
  }

  async down(): Promise<void> {
    // Nothing to undo: SsoIdentityGroups' down drops the column.
  }
}
