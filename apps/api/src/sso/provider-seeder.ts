import type { AuditActor } from '@hearth/contracts';
import type { AuditService } from '../audit/audit.service';
import type { Transactions } from '../database/transactions';
import type { ProviderSpec } from './provider-yaml';
import { SecretBox } from './secret-box';
import { applyProviderFields, newProvider, providerProblems } from './provider-fields';
import type { SsoRepository } from './sso.repository';

export interface SeedResult {
  created: string[];
  updated: string[];
  unchanged: string[];
  errors: string[];
  /** What was (or, in a dry run, would be) done, one line per provider; never a secret value. */
  lines: string[];
}

/**
 * Creates or updates providers by name from config/auth.yml entries. Discovery is not fetched here (the file is
 * trusted operator input, and start-up must not depend on the IdP being up); sign-in checks it on first use.
 */
export async function seedProviders(
  { providers, transactions, audit }: { providers: SsoRepository; transactions: Transactions; audit: AuditService },
  box: SecretBox,
  specs: ProviderSpec[],
  /** `actor`: who seeds, as the provider_created / provider_updated audit rows record it (cli, or system at start-up). */
  options: { dryRun: boolean; allowInsecureHttp: boolean; actor: AuditActor },
): Promise<SeedResult> {
  const result: SeedResult = { created: [], updated: [], unchanged: [], errors: [], lines: [] };
  for (const spec of specs) {
    const existing = await providers.findProviderByName(spec.name);
    const provider = existing ?? newProvider(spec.strategy, spec.name);
    if (existing && existing.strategy !== spec.strategy) {
      result.errors.push(`${spec.name}: strategy differs from the stored provider (${existing.strategy}); delete it first`);
      result.lines.push(`ERROR: ${spec.name}: strategy cannot change`);
      continue;
    }
    const changed = applyProviderFields(provider, { ...spec, label: spec.label ?? existing?.label ?? spec.name }, box).filter((f) => f !== 'name');
    if (existing && !changed.length) {
      result.unchanged.push(spec.name);
      result.lines.push(`SKIP: ${spec.name} (no changes)`);
      continue;
    }
    const problems = providerProblems(provider, changed, !existing, options.allowInsecureHttp);
    if (problems.length) {
      result.errors.push(`${spec.name}: ${problems.join('; ')}`);
      result.lines.push(`ERROR: ${spec.name}: ${problems.join('; ')}`);
      continue;
    }
    const verb = existing ? 'UPDATE' : 'CREATE';
    if (!options.dryRun) {
      await transactions.run(async (tx) => {
        const saved = await providers.saveProvider(provider, tx);
        await audit.record(
          existing ? 'provider_updated' : 'provider_created',
          { actor: options.actor, providerId: saved.id, providerName: saved.name, details: { strategy: saved.strategy, enabled: saved.enabled, changed, source: 'providers file' } },
          tx,
        );
      });
    }
    (existing ? result.updated : result.created).push(spec.name);
    result.lines.push(`${verb}${options.dryRun ? ' (dry-run)' : ''}: ${spec.name} (${changed.join(', ')})`);
  }
  return result;
}
