import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SsoIdentityBlock, SsoProvider } from './sso.entities';

/** The sealed columns `security:backfill_encryption` rewrites under the current key: provider secrets, block labels. */
@Injectable()
export class EncryptionBackfillRepository {
  constructor(private readonly dataSource: DataSource) {}

  allProviders(): Promise<SsoProvider[]> {
    return this.dataSource.getRepository(SsoProvider).find();
  }

  /** A column update, not save(): the provider's updated_at (and so its cached configuration) stays as it is. */
  async updateProviderSecrets(id: string, changes: Partial<Pick<SsoProvider, 'clientSecretEncrypted' | 'spPrivateKeyEncrypted'>>): Promise<void> {
    await this.dataSource.getRepository(SsoProvider).update({ id }, changes);
  }

  allIdentityBlocks(): Promise<SsoIdentityBlock[]> {
    return this.dataSource.getRepository(SsoIdentityBlock).find();
  }

  async updateIdentityBlockLabel(id: string, identityLabelEncrypted: string): Promise<void> {
    await this.dataSource.getRepository(SsoIdentityBlock).update({ id }, { identityLabelEncrypted });
  }
}
