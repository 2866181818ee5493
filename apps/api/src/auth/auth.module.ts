import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { getOptionsToken, getStorageToken } from '@nestjs/throttler';
import type { Logger } from 'pino';
import { LOGGER } from '../common/logger';
import { APP_CONFIG, AppConfig } from '../config/config';
import { SsoDataModule } from '../sso/sso-data.module';
import { UsersModule } from '../users/users.module';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { AuthConfigController } from './auth-config.controller';
import { AuthConfigService } from './auth-config.service';
import { AuthGuard } from './auth.guard';
import { MAILER, mailerProvider } from './mailer';
import { MeController } from './me.controller';
import { PasswordResetsRepository } from './password-resets.repository';
import { PasswordResetsService } from './password-resets.service';
import { RateLimitGuard, rateLimitOptions, RateLimitStorage } from './rate-limit';
import { SessionsController } from './sessions.controller';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

@Module({
  imports: [SsoDataModule, UsersModule],
  controllers: [SessionsController, MeController, AuthConfigController, ApiKeysController],
  providers: [
    ApiKeysRepository,
    ApiKeysService,
    AuthConfigService,
    SessionsRepository,
    SessionsService,
    PasswordResetsRepository,
    PasswordResetsService,
    mailerProvider,
    {
      provide: RateLimitStorage,
      useFactory: (config: AppConfig, logger: Logger) => new RateLimitStorage(config.redisUrl, logger),
      inject: [APP_CONFIG, LOGGER],
    },
    { provide: getStorageToken(), useExisting: RateLimitStorage },
    {
      provide: getOptionsToken(),
      useFactory: (config: AppConfig, storage: RateLimitStorage) => rateLimitOptions(config, storage),
      inject: [APP_CONFIG, RateLimitStorage],
    },
    // Order matters: budgets are counted before credentials are checked.
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [ApiKeysService, SessionsService, MAILER],
})
export class AuthModule {}
