import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { CurrentSession, RateLimit, RequireSession } from '../auth/auth.decorators';
import { readCookie } from '../auth/session-token';
import type { SessionPrincipal } from '../auth/principal';
import { ListQuery, NO_QUERY_PARAMS, NoQueryParams } from '../common/list-query';
import { recordIdPipe } from '../common/record-id';
import { APP_CONFIG, AppConfig } from '../config/config';
import { CreateProviderDto, ProviderDto, ProviderListDto, UpdateProviderDto } from './sso-providers.dto';
import { SsoProvidersService } from './sso-providers.service';
import { TestLoginResultDto, TestLoginStartedDto } from './sso-test-login.dto';
import { SsoTestLoginService } from './sso-test-login.service';
import { SSO_COOKIE, ssoCookieOptions } from './sso.controller';
import { samlUrls } from './saml-gateway';
import { callbackUrl, loginUrl, publicOrigin } from './sso-urls';
import type { SsoProvider } from './sso.entities';

export function toProviderDto(provider: SsoProvider, origin: string): ProviderDto {
  return {
    id: provider.id,
    name: provider.name,
    label: provider.label,
    strategy: provider.strategy,
    enabled: provider.enabled,
    issuer: provider.issuer,
    client_id: provider.clientId,
    has_client_secret: provider.clientSecretEncrypted !== null,
    scopes: provider.scopes,
    authorization_url: provider.authorizationUrl,
    token_url: provider.tokenUrl,
    userinfo_url: provider.userinfoUrl,
    token_auth_method: provider.tokenAuthMethod,
    sso_url: provider.ssoUrl,
    slo_url: provider.sloUrl,
    idp_entity_id: provider.idpEntityId,
    idp_certificate: provider.idpCertificate,
    sign_requests: provider.signRequests,
    has_sp_private_key: provider.spPrivateKeyEncrypted !== null,
    sp_certificate: provider.spCertificate,
    default_role: provider.defaultRole,
    group_attribute: provider.groupAttribute,
    role_mapping: provider.roleMapping,
    // SAML answers at its ACS (/auth/saml/<id>/callback; metadata beside it), OIDC and OAuth2 at /auth/<name>/callback.
    callback_url: provider.strategy === 'saml' ? samlUrls(origin, provider.id).acs : callbackUrl(origin, provider.name),
    login_url: loginUrl(origin, provider.name),
    created_at: provider.createdAt.toISOString(),
    updated_at: provider.updatedAt.toISOString(),
  };
}

const ProviderId = () => Param('id', recordIdPipe);

/** Identity-provider management (docs/sso.md#providers): super admins only, 10 requests/min/IP, every change audited. */
@ApiTags('admin')
@Controller('admin/sso_providers')
@RequireSession({ minRole: 'super_admin' })
@RateLimit('admin')
export class SsoProvidersController {
  constructor(
    private readonly providers: SsoProvidersService,
    private readonly testLogins: SsoTestLoginService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOkResponse({ type: ProviderListDto })
  @ApiResponse(NO_QUERY_PARAMS)
  async list(@Req() req: Request, @ListQuery() _query: NoQueryParams): Promise<ProviderListDto> {
    const origin = publicOrigin(req, this.config);
    return { sso_providers: (await this.providers.list()).map((p) => toProviderDto(p, origin)), source: this.providers.sourceKind };
  }

  @Get(':id')
  @ApiOkResponse({ type: ProviderDto })
  async show(@ProviderId() id: string, @Req() req: Request): Promise<ProviderDto> {
    return toProviderDto(await this.providers.get(id), publicOrigin(req, this.config));
  }

  @Post()
  @ApiCreatedResponse({ type: ProviderDto })
  async create(@CurrentSession() actor: SessionPrincipal, @Body() body: CreateProviderDto, @Req() req: Request): Promise<ProviderDto> {
    return toProviderDto(await this.providers.create(actor, body, requestOrigin(req)), publicOrigin(req, this.config));
  }

  /** Partial update; an omitted or empty client_secret keeps the stored one. */
  @Patch(':id')
  @ApiOkResponse({ type: ProviderDto })
  async update(
    @CurrentSession() actor: SessionPrincipal,
    @ProviderId() id: string,
    @Body() body: UpdateProviderDto,
    @Req() req: Request,
  ): Promise<ProviderDto> {
    return toProviderDto(await this.providers.update(actor, id, body, requestOrigin(req)), publicOrigin(req, this.config));
  }

  @Post(':id/enable')
  @HttpCode(200)
  @ApiOkResponse({ type: ProviderDto })
  async enable(@CurrentSession() actor: SessionPrincipal, @ProviderId() id: string, @Req() req: Request): Promise<ProviderDto> {
    return toProviderDto(await this.providers.setEnabled(actor, id, true, requestOrigin(req)), publicOrigin(req, this.config));
  }

  /** Sign-in through the provider stops, and the sessions opened through it end (not the caller's). */
  @Post(':id/disable')
  @HttpCode(200)
  @ApiOkResponse({ type: ProviderDto })
  async disable(@CurrentSession() actor: SessionPrincipal, @ProviderId() id: string, @Req() req: Request): Promise<ProviderDto> {
    return toProviderDto(await this.providers.setEnabled(actor, id, false, requestOrigin(req)), publicOrigin(req, this.config));
  }

  /**
   * Test login before enabling (docs/sso.md#test-login), for enabled and disabled providers of every strategy: open
   * authorization_url in this browser (for SAML, the IdP's redirect-binding URL); after the provider's sign-in the
   * callback or ACS records what it sent (no account, identity, session or role change) and returns to the providers
   * page. Sets the same browser-binding cookie as a sign-in.
   */
  @Post(':id/test_login')
  @ApiCreatedResponse({ type: TestLoginStartedDto })
  async startTestLogin(
    @CurrentSession() actor: SessionPrincipal,
    @ProviderId() id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TestLoginStartedDto> {
    const token = this.testLogins.browserToken(readCookie(req.header('cookie'), SSO_COOKIE));
    const started = await this.testLogins.start(actor, id, token, publicOrigin(req, this.config), requestOrigin(req));
    res.cookie(SSO_COOKIE, token, ssoCookieOptions(req));
    return { authorization_url: started.authorizationUrl, expires_at: started.expiresAt.toISOString() };
  }

  /** The calling super admin's latest test login with this provider: pending, expired, failed (why) or what it showed. */
  @Get(':id/test_login/result')
  @ApiOkResponse({ type: TestLoginResultDto })
  testLoginResult(@CurrentSession() actor: SessionPrincipal, @ProviderId() id: string): Promise<TestLoginResultDto> {
    return this.testLogins.result(actor, id);
  }

  /** Deletes the provider and, with it, every identity linked through it; sessions opened through it end (not the caller's). */
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async remove(@CurrentSession() actor: SessionPrincipal, @ProviderId() id: string, @Req() req: Request): Promise<void> {
    await this.providers.remove(actor, id, requestOrigin(req));
  }
}
