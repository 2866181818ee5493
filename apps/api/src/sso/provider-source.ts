import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { AuditService } from '../audit/audit.service';
import { ApiError } from '../common/api-error';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { Transactions } from '../database/transactions';
import { seedProviders } from './provider-seeder';
import { parseProvidersFile } from './provider-yaml';
import { SecretBox } from './secret-box';
import type { SsoProvider } from './sso.entities';
import { SsoRepository } from './sso.repository';

/**
 * Where providers come from (docs/sso.md#providers-from-a-file). `db`: the admin API, read on every request. `yaml`: config/auth.yml, read
 * once at start and written to the database (identities need the rows); only those providers sign in, and the admin
 * API cannot change them.
 */
@Injectable()
export class ProviderSource implements OnModuleInit {
  private yamlNames = new Set<string>();

  constructor(
    private readonly repository: SsoRepository,
    private readonly transactions: Transactions,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  get kind(): 'db' | 'yaml' {
    return this.config.sso.providersSource;
  }

  async onModuleInit(): Promise<void> {
    if (this.kind === 'db') {
      const count = await this.repository.countEnabledProviders();
      this.logger.info({ count }, `${count} providers loaded from the database`);
      return;
    }
    const file = resolve(this.config.sso.providersFile);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      this.logger.warn({ file }, 'Auth config not loaded: the providers file cannot be read; no SSO providers are available');
      return;
    }
    const { providers, problems } = parseProvidersFile(text, file, this.config.nodeEnv);
    const seeded = await this.oneProcessAtATime(() =>
      seedProviders({ providers: this.repository, transactions: this.transactions, audit: this.audit }, SecretBox.fromConfig(this.config), providers, {
        dryRun: false,
        allowInsecureHttp: this.config.sso.allowInsecureHttp,
        actor: 'system',
      }),
    );
    for (const problem of [...problems, ...seeded.errors]) this.logger.warn({ file }, `Provider skipped: ${problem}`);
    const failed = new Set(seeded.errors.map((error) => error.split(':')[0]));
    this.yamlNames = new Set(providers.filter((p) => p.enabled !== false && !failed.has(p.name)).map((p) => p.name));
    this.logger.info({ count: this.yamlNames.size, file }, `${this.yamlNames.size} providers loaded from ${this.config.sso.providersFile}`);
  }

  /**
   * Several processes sharing one PostgreSQL (HEARTH_ROLE api/worker) start together and would insert the same new
   * provider names at once; a session advisory lock on another connection makes them seed in turn. PGlite has one
   * connection and one process, so it needs none.
   */
  private async oneProcessAtATime<T>(work: () => Promise<T>): Promise<T> {
    if (this.config.databaseUrl === null) return work();
    return this.repository.withProviderSeedLock(work);
  }

  /** Whether sign-in may use this provider now. */
  isActive(provider: SsoProvider): boolean {
    return provider.enabled && (this.kind === 'db' || this.yamlNames.has(provider.name));
  }

  assertManagedInDatabase(): void {
    if (this.kind === 'yaml') {
      throw new ApiError(
        409,
        'providers_from_yaml',
        `Providers come from ${this.config.sso.providersFile} (AUTH_PROVIDERS_SOURCE=yaml); edit the file and restart, or switch to db.`,
      );
    }
  }
}
