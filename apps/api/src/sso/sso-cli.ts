import { readFile } from 'node:fs/promises';
import { AuditLogsRepository } from '../audit/audit-logs.repository';
import { AuditService } from '../audit/audit.service';
import type { AppConfig } from '../config/config';
import type { CommandDatabase } from '../database/command-database';
import { Transactions } from '../database/transactions';
import { CLIENT_SECRET_PURPOSE } from './oidc-gateway';
import { seedProviders } from './provider-seeder';
import { ParsedProviders, parseProvidersFile } from './provider-yaml';
import { SecretBox, SecretBoxError } from './secret-box';
import { SP_PRIVATE_KEY_PURPOSE } from './provider-fields';
import { IDENTITY_LABEL_PURPOSE } from '../users/identity-blocks.repository';
import { EncryptionBackfillRepository } from './encryption-backfill.repository';
import { SsoRepository } from './sso.repository';

type Print = (line: string) => void;

/** `sso_providers:seed`: config/auth.yml into the database; DRY_RUN=true only prints what would change. */
export async function seedProvidersTask(db: CommandDatabase, config: AppConfig, file: string, dryRun: boolean, print: Print): Promise<number> {
  print(`Mode: ${dryRun ? 'DRY RUN (no changes will be saved)' : 'LIVE (changes will be saved)'}`);
  print(`Source: ${file}`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    print(`ERROR: ${file} not found`);
    return 1;
  }
  let parsed: ParsedProviders;
  try {
    parsed = parseProvidersFile(text, file, config.nodeEnv);
  } catch (error) {
    print(`ERROR: ${(error as Error).message}`);
    return 1;
  }
  const { providers, problems } = parsed;
  for (const problem of problems) print(`SKIP: ${problem}`);
  if (!providers.length) {
    print(`WARNING: No providers found in ${file} for ${config.nodeEnv} environment`);
    return 0;
  }
  const seeding = { providers: db.make(SsoRepository), transactions: db.make(Transactions), audit: new AuditService(db.make(AuditLogsRepository)) };
  const result = await seedProviders(seeding, SecretBox.fromConfig(config), providers, { dryRun, allowInsecureHttp: config.sso.allowInsecureHttp, actor: 'cli' });
  for (const line of result.lines) print(line);
  print(`Created: ${result.created.length}  Updated: ${result.updated.length}  Skipped: ${result.unchanged.length + problems.length}  Errors: ${result.errors.length}`);
  return result.errors.length ? 1 : 0;
}

/** `sso_providers:list`: every stored provider, by name. */
export async function listProvidersTask(db: CommandDatabase, print: Print): Promise<number> {
  const providers = await db.make(SsoRepository).listProviders();
  if (!providers.length) print('No SSO providers found in database');
  for (const p of providers) print(`${p.name.padEnd(20)} ${p.strategy.padEnd(20)} ${p.enabled ? '✓ enabled' : '✗ disabled'}`);
  return 0;
}

export interface BackfillResult {
  ok: boolean;
  dry_run: boolean;
  results: Record<string, { processed: number; updated: number; failed_count: number; failed_samples: string[] }>;
}

/**
 * `security:backfill_encryption`: rewrites every provider secret and removed identity's label under the current key:
 * plaintext values (from before encryption) and values sealed with the SECRET_KEY_BASE-derived key before
 * ACTIVE_RECORD_ENCRYPTION_* were set.
 */
export async function backfillEncryptionTask(db: CommandDatabase, config: AppConfig, dryRun: boolean): Promise<BackfillResult> {
  const repository = db.make(EncryptionBackfillRepository);
  const current = SecretBox.fromConfig(config);
  const legacy = SecretBox.fromConfig({ ...config, sso: { ...config.sso, encryptionKeys: null } });
  const stats = { processed: 0, updated: 0, failed_count: 0, failed_samples: [] as string[] };
  const columns = [
    ['clientSecretEncrypted', CLIENT_SECRET_PURPOSE],
    ['spPrivateKeyEncrypted', SP_PRIVATE_KEY_PURPOSE],
  ] as const;
  const rewrite = (value: string, purpose: string): string | null => {
    if (!SecretBox.isEnvelope(value)) return current.seal(value, purpose);
    try {
      current.open(value, purpose);
      return null;
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      return current.seal(legacy.open(value, purpose), purpose);
    }
  };
  for (const provider of await repository.allProviders()) {
    stats.processed++;
    const changes: Partial<Record<'clientSecretEncrypted' | 'spPrivateKeyEncrypted', string>> = {};
    try {
      for (const [column, purpose] of columns) {
        const value = provider[column];
        const next = value ? rewrite(value, purpose) : null;
        if (next) changes[column] = next;
      }
    } catch {
      stats.failed_count++;
      if (stats.failed_samples.length < 3) stats.failed_samples.push(provider.name);
      continue;
    }
    if (Object.keys(changes).length) {
      stats.updated++;
      if (!dryRun) await repository.updateProviderSecrets(provider.id, changes);
    }
  }
  const labels = { processed: 0, updated: 0, failed_count: 0, failed_samples: [] as string[] };
  for (const block of await repository.allIdentityBlocks()) {
    labels.processed++;
    let next: string | null;
    try {
      next = rewrite(block.identityLabelEncrypted, IDENTITY_LABEL_PURPOSE);
    } catch {
      labels.failed_count++;
      if (labels.failed_samples.length < 3) labels.failed_samples.push(block.id);
      continue;
    }
    if (!next) continue;
    labels.updated++;
    if (!dryRun) await repository.updateIdentityBlockLabel(block.id, next);
  }
  const result = { ok: stats.failed_count + labels.failed_count === 0, dry_run: dryRun, results: { sso_providers: stats, sso_identity_blocks: labels } };
  if (!dryRun && stats.updated + labels.updated > 0) await new AuditService(db.make(AuditLogsRepository)).record('secrets_reencrypted', { actor: 'cli', details: result.results });
  return result;
}
