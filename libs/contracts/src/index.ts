// Framework-free enums, constants and types shared by the API and the SPA.

export * from './import-formats';

export const IMPORT_STATUSES = ['pending', 'complete', 'importing', 'reverting', 'revert_failed', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

export const VERIFICATION_STATUSES = ['not_verified', 'matched', 'mismatch', 'failed', 'reverted'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const NUMBER_FORMATS = ['1,234.56', '1.234,56', '1 234,56', '1,234'] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];

export const SIGNAGE_CONVENTIONS = ['inflows_positive', 'inflows_negative'] as const;
export type SignageConvention = (typeof SIGNAGE_CONVENTIONS)[number];

export const COLUMN_SEPARATORS = { comma: ',', semicolon: ';' } as const;
export type ColumnSeparatorName = keyof typeof COLUMN_SEPARATORS;

export const AMOUNT_TYPE_STRATEGIES = ['signed_amount', 'custom_column'] as const;
export type AmountTypeStrategy = (typeof AMOUNT_TYPE_STRATEGIES)[number];

export const ROLES = ['member', 'admin', 'super_admin'] as const;
export type Role = (typeof ROLES)[number];
/** Higher rank wins when several sources grant a role. */
export const ROLE_RANK: Readonly<Record<Role, number>> = { member: 0, admin: 1, super_admin: 2 };

/** Whether `role` is at least `minimum` in the hierarchy super_admin > admin > member. */
export const roleAtLeast = (role: Role, minimum: Role): boolean => ROLE_RANK[role] >= ROLE_RANK[minimum];

export const USER_STATUSES = ['active', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const API_KEY_SCOPES = ['read', 'read_write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
/** What an endpoint asks for; `write` is satisfied only by a read_write key. */
export type RequiredScope = 'read' | 'write';

export const SSO_STRATEGIES = ['openid_connect', 'oauth2', 'saml'] as const;
export type SsoStrategy = (typeof SSO_STRATEGIES)[number];

export const AUDIT_EVENTS = [
  'login',
  'login_failed',
  'logout',
  'logout_idp',
  'link',
  'unlink',
  'jit_account_created',
  'provider_created',
  'provider_updated',
  'provider_deleted',
  'user_suspended',
  'user_reactivated',
  'user_removed',
  'role_changed',
  'password_changed',
  'password_reset_requested',
  'password_reset',
  'api_key_created',
  'api_key_revoked',
  // An import deleted before anything of it was published (DELETE /api/v1/imports/{id}).
  'import_discarded',
  // A super admin's test sign-in with a provider (no account, identity or session is touched).
  'provider_test_login',
  // A retention run: rows archived and purged, archive files expired.
  'audit_retention',
  // A super admin lets an SSO identity blocked by a permanent user removal sign in again.
  'identity_unblocked',
  // An operator created a user with the CLI (users:create).
  'user_created',
  // An operator re-encrypted stored provider secrets and identity labels (security:backfill_encryption).
  'secrets_reencrypted',
  // A household category deleted, or merged into another (DELETE /api/v1/categories/{id}): what moved with it.
  'category_deleted',
  // A household tag or merchant deleted, or merged into another (DELETE /api/v1/tags/{id}, /api/v1/merchants/{id}).
  'tag_deleted',
  'merchant_deleted',
  // A household account deleted with its entries (DELETE /api/v1/accounts/{id}): what went with it.
  'account_deleted',
] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];

/**
 * Who acted: `user` through the API or the admin app (the row's user, or the administrator in details.actor_user_id),
 * `cli` an operator's command on the server (npm run cli), `system` a background job (the daily retention run).
 */
export const AUDIT_ACTORS = ['user', 'cli', 'system'] as const;
export type AuditActor = (typeof AUDIT_ACTORS)[number];

export const ACCOUNTABLE_TYPES = [
  'Depository',
  'Investment',
  'Crypto',
  'Property',
  'Vehicle',
  'OtherAsset',
  'CreditCard',
  'Loan',
  'OtherLiability',
] as const;
export type AccountableType = (typeof ACCOUNTABLE_TYPES)[number];
export const LIABILITY_TYPES: readonly AccountableType[] = ['CreditCard', 'Loan', 'OtherLiability'];

/** Transaction kinds; all but `standard` and `one_time` are transfer kinds that budgets treat specially. */
export const TRANSACTION_KINDS = [
  'standard',
  'funds_movement',
  'cc_payment',
  'loan_payment',
  'one_time',
  'investment_contribution',
] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** What a trade or transaction was, as Sure labels investment activity. */
export const INVESTMENT_ACTIVITY_LABELS = [
  'Buy',
  'Sell',
  'Sweep In',
  'Sweep Out',
  'Dividend',
  'Reinvestment',
  'Interest',
  'Fee',
  'Transfer',
  'Contribution',
  'Withdrawal',
  'Exchange',
  'Other',
] as const;
export type InvestmentActivityLabel = (typeof INVESTMENT_ACTIVITY_LABELS)[number];

/** The body of every error response (docs/api/errors-and-lists.md). */
export interface ErrorBody {
  error: string;
  message?: string | null;
  details?: string[] | Record<string, unknown> | null;
  errors?: string[] | null;
  import_id?: string;
  /** ambiguous_date_format: the date formats that fit every date of the file, to choose from, and a date they read differently. */
  date_formats?: string[];
  date_sample?: string;
}
