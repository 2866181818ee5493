import { AuditLog } from '../audit/audit-log.entity';
import { ApiKey, PasswordResetToken, Session } from '../auth/auth.entities';
import { Budget, BudgetCategory } from '../budgets/budget.entity';
import { FamilyExport } from '../family-exports/family-export.entity';
import { Account } from '../finance/entities/account.entity';
import {
  Entry,
  EntryTransaction,
  ExchangeRate,
  Security,
  Tagging,
  Trade,
  Transfer,
  Valuation,
} from '../finance/entities/entry.entity';
import { Family } from '../finance/entities/family.entity';
import { Category, Merchant, Rule, Tag } from '../finance/entities/taxonomy.entity';
import { Import, ImportMapping, ImportRow } from '../imports/import.entity';
import { ImportIdempotencyKey } from '../imports/import-idempotency-key.entity';
import { SamlAssertion, SamlRequest } from '../sso/saml.entities';
import { SsoIdentity, SsoIdentityBlock, SsoLoginState, SsoProvider, SsoSession } from '../sso/sso.entities';
import { User } from '../users/user.entity';

/** Every entity; the migrations must describe exactly these (checked by `npm run migrations:check`). */
export const ENTITIES = [
  Family,
  User,
  Account,
  Entry,
  EntryTransaction,
  Trade,
  Valuation,
  Security,
  Transfer,
  ExchangeRate,
  Category,
  Tag,
  Tagging,
  Merchant,
  Rule,
  Budget,
  BudgetCategory,
  Import,
  ImportRow,
  ImportMapping,
  ImportIdempotencyKey,
  ApiKey,
  Session,
  PasswordResetToken,
  SsoProvider,
  SsoIdentity,
  SsoLoginState,
  SsoSession,
  SsoIdentityBlock,
  SamlRequest,
  SamlAssertion,
  AuditLog,
  FamilyExport,
];
