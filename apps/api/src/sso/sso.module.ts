import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { UsersModule } from '../users/users.module';
import { OidcGateway } from './oidc-gateway';
import { ProviderSource } from './provider-source';
import { SamlGateway } from './saml-gateway';
import { SamlController } from './saml.controller';
import { SamlRepository } from './saml.repository';
import { SamlService } from './saml.service';
import { SsoAccountsRepository } from './sso-accounts.repository';
import { SsoAccountsService } from './sso-accounts.service';
import { SsoIdentitiesController } from './sso-identities.controller';
import { SsoIdentitiesService } from './sso-identities.service';
import { SsoLoginService } from './sso-login.service';
import { SsoProvidersController } from './sso-providers.controller';
import { SsoProvidersService } from './sso-providers.service';
import { SsoRoleSyncController } from './sso-role-sync.controller';
import { SsoTestLoginRepository } from './sso-test-login.repository';
import { SsoTestLoginService } from './sso-test-login.service';
import { SsoController } from './sso.controller';
import { SsoDataModule } from './sso-data.module';

/** Identity providers (OIDC, OAuth2, SAML 2.0), SSO sign-in, JIT provisioning and connected identities. */
@Module({
  imports: [AuthModule, SsoDataModule, UsersModule],
  controllers: [SamlController, SsoController, SsoProvidersController, SsoIdentitiesController, SsoRoleSyncController],
  providers: [ProviderSource, OidcGateway, SsoProvidersService, SsoAccountsRepository, SsoAccountsService, SsoLoginService, SsoIdentitiesService, SamlRepository, SamlGateway, SamlService, SsoTestLoginRepository, SsoTestLoginService],
})
export class SsoModule {}
