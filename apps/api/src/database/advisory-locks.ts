/**
 * Every PostgreSQL advisory lock key the service takes, in one place so that no two uses share one: a lock taken
 * with a second key (pg_advisory_xact_lock(key, id)) shares the first key's space with every other such lock.
 */
export const ADVISORY_LOCKS = {
  /** First-run setup: one first user. */
  setup: 7_201_001,
  /** Role and status changes that must keep a super admin. */
  administration: 7_201_002,
  /** With hashtext(family id): one import at a time creates a family's accounts, categories and tags. */
  familyMappings: 7_201_003,
  /** With a subject digest: a removal's block and an identity's creation do not pass each other. */
  ssoIdentity: 7_201_004,
  /** With hashtext(account id), held by a publish for its whole run: one publish at a time writes an account. */
  accountPublish: 7_201_005,
  /** Session-level: one process at a time runs migrations. */
  migrations: 4_732_017_311,
  /** Session-level: one process at a time seeds providers from the YAML file. */
  providerSeed: 4_732_017_312,
} as const;
