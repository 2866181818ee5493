import { Body, Controller, Get, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { Public, RateLimit, SignInNavigation } from '../auth/auth.decorators';
import { setSessionCookies } from '../auth/session-cookies';
import { readCookie } from '../auth/session-token';
import { APP_CONFIG, AppConfig } from '../config/config';
import { SamlService } from './saml.service';
import { SsoTestLoginService } from './sso-test-login.service';
import { CallbackResult, SsoLoginService } from './sso-login.service';
import { publicOrigin } from './sso-urls';
import { SSO_COOKIE } from './sso.controller';

/**
 * SAML service-provider endpoints (docs/sso.md#saml-20), outside /api/v1. Sign-in starts at /auth/<name> like every provider.
 * The ACS takes the IdP's cross-site POST without cookies or CSRF token: the signed assertion, its audience,
 * Destination, Recipient, InResponseTo and replay checks are what protect it. It then sends the browser to the GET
 * side of the same address, where the sign-in transaction cookie proves it is the browser that started the sign-in.
 */
@ApiExcludeController()
@Controller('auth/saml/:id')
export class SamlController {
  constructor(
    private readonly login: SsoLoginService,
    private readonly saml: SamlService,
    private readonly testLogins: SsoTestLoginService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('metadata')
  @Public()
  async metadata(@Param('id') id: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const xml = await this.saml.metadata(id, publicOrigin(req, this.config));
    res.type('application/samlmetadata+xml').send(xml);
  }

  @Post('callback')
  @Public()
  @RateLimit('sso_return')
  @SignInNavigation()
  async acs(@Param('id') id: string, @Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const result = await this.login.samlCallback(id, body?.SAMLResponse, publicOrigin(req, this.config), requestOrigin(req));
    if (result.kind === 'failed') return res.redirect(302, `/login?error=${result.error}`);
    // 303: the browser follows with a GET, a top-level navigation that carries our SameSite=Lax cookie.
    res.redirect(303, `/auth/saml/${encodeURIComponent(id)}/callback?state=${encodeURIComponent(result.state)}`);
  }

  /**
   * The browser's return from the ACS. Responses themselves only come by POST (HTTP-POST binding): a GET without the
   * one-time state (a SAMLResponse in the query included) is refused and audited.
   */
  @Get('callback')
  @Public()
  @RateLimit('sso_return')
  @SignInNavigation()
  async complete(@Param('id') id: string, @Query('state') state: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    const result = await this.login.samlComplete(id, state, readCookie(req.header('cookie'), SSO_COOKIE), requestOrigin(req));
    if (result.kind === 'test_login') {
      return res.redirect(302, await this.testLogins.samlCallback(result.provider, result.identity, result.userId, requestOrigin(req)));
    }
    this.finish(result, req, res);
  }

  /** The SingleLogoutService by HTTP-POST: the IdP's LogoutRequest, or its LogoutResponse to ours. */
  @Post('logout')
  @Public()
  @RateLimit('sso_return')
  @SignInNavigation()
  async logout(@Param('id') id: string, @Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const origin = publicOrigin(req, this.config);
    const target =
      body?.SAMLResponse !== undefined
        ? await this.saml.logoutAnswered(id, { binding: 'post', SAMLResponse: body.SAMLResponse }, origin, requestOrigin(req))
        : await this.saml.logoutRequested(id, { binding: 'post', SAMLRequest: body?.SAMLRequest, RelayState: body?.RelayState }, origin, requestOrigin(req));
    res.redirect(302, target);
  }

  /**
   * The SingleLogoutService by HTTP-Redirect, the binding most IdPs use in the browser: their LogoutRequest, or their
   * LogoutResponse to ours. Anything else goes to the sign-in page. The signature covers the query as sent, so the
   * raw query is passed on.
   */
  @Get('logout')
  @Public()
  @RateLimit('sso_return')
  @SignInNavigation()
  async logoutGet(
    @Param('id') id: string,
    @Query('SAMLRequest') samlRequest: unknown,
    @Query('SAMLResponse') samlResponse: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const query = req.originalUrl.slice(req.originalUrl.indexOf('?') + 1);
    const origin = publicOrigin(req, this.config);
    let target = '/login';
    if (samlResponse !== undefined) target = await this.saml.logoutAnswered(id, { binding: 'redirect', query }, origin, requestOrigin(req));
    else if (samlRequest !== undefined) target = await this.saml.logoutRequested(id, { binding: 'redirect', query }, origin, requestOrigin(req));
    res.redirect(302, target);
  }

  private finish(result: CallbackResult, req: Request, res: Response): void {
    switch (result.kind) {
      case 'failed':
        return res.redirect(302, `/login?error=${result.error}`);
      case 'link_required':
        return res.redirect(302, '/sso/link');
      case 'connected':
        return res.redirect(302, `/settings/security?connected=${encodeURIComponent(result.providerName)}`);
      case 'signed_in':
        setSessionCookies(req, res, result.signedIn.token, result.signedIn.csrfToken, result.signedIn.expiresAt);
        return res.redirect(302, '/');
    }
  }
}
