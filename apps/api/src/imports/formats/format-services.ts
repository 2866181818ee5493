import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { Ledger } from '../../ledger/ledger';
import { PublishingRepository } from '../publishing/publishing.repository';
import { ServiceImportVerification } from '../service-import-verification';
import { ServiceImports } from '../service-import';

/** What a format's hooks may call: the services of the formats that have hooks, and the import settings. */
@Injectable()
export class FormatServices {
  constructor(
    readonly serviceImports: ServiceImports,
    readonly verification: ServiceImportVerification,
    readonly ledger: Ledger,
    readonly publishing: PublishingRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get importMaxRows(): number {
    return this.config.importMaxRows;
  }
}
