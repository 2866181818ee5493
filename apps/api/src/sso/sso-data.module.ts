import { Module } from '@nestjs/common';
import { SsoRepository } from './sso.repository';

/**
 * The SQL of providers and identities on its own, so the auth module can read the sign-in page's providers without
 * importing SsoModule, which itself builds on the auth module.
 */
@Module({ providers: [SsoRepository], exports: [SsoRepository] })
export class SsoDataModule {}
