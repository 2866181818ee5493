import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiExcludeEndpoint, ApiOkResponse, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import type { CookieOptions, Request, Response } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { CurrentSession, Public, RateLimit, RequireSession, SignInNavigation } from '../auth/auth.decorators';
import { SignedInDto } from '../auth/auth.dto';
import { assertSameOrigin } from '../auth/csrf';
import { toMeDto } from '../auth/me.presenter';
import type { SessionPrincipal } from '../auth/principal';
import { clearSessionCookies, setSessionCookies } from '../auth/session-cookies';
import { readCookie, SESSION_COOKIE } from '../auth/session-token';
import { SessionsService } from '../auth/sessions.service';
import { ErrorResponseDto } from '../common/error-response.dto';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UsersService } from '../users/users.service';
import { SsoLoginService } from './sso-login.service';
import { SsoTestLoginService } from './sso-test-login.service';
import { publicOrigin } from './sso-urls';

/** Binds a sign-in transaction to the browser that started it; only its hash is stored. */
export const SSO_COOKIE = 'hearth_sso';

export const ssoCookieOptions = (req: Request): CookieOptions => ({ httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/auth', maxAge: 15 * 60_000 });

export class LinkAccountDto {
  @ApiProperty({ description: "The password of the existing account with the provider's e-mail address" })
  @IsString()
  @Length(1, 1024)
  password: string;
}

export class PendingLinkDto {
  @ApiProperty() email: string;
  @ApiProperty() provider_name: string;
  @ApiProperty() provider_label: string;
}

export class LogoutDto {
  @ApiProperty({ nullable: true, type: String, description: "The provider's end-session (OIDC) or single logout (SAML) URL to send the browser to, if any" })
  logout_url: string | null;
}

/** SSO sign-in in the browser: /auth/<name> and /auth/<name>/callback, outside /api/v1. */
@ApiTags('sessions')
@Controller('auth')
export class SsoController {
  constructor(
    private readonly login: SsoLoginService,
    private readonly testLogins: SsoTestLoginService,
    private readonly sessions: SessionsService,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** What the link page shows: the provider and the e-mail of the account waiting for its password. */
  @Get('link')
  @Public()
  @ApiOkResponse({ type: PendingLinkDto })
  @ApiResponse({ type: ErrorResponseDto, status: 404, description: 'link_not_found: no pending link for this browser, or it expired' })
  async pendingLink(@Req() req: Request): Promise<PendingLinkDto> {
    const info = await this.login.pendingLink(this.browserToken(req));
    return { email: info.email, provider_name: info.providerName, provider_label: info.providerLabel };
  }

  /** Links the provider identity to the existing account after its password is confirmed, then signs in. */
  @Post('link')
  @Public()
  @RateLimit('login')
  @ApiCreatedResponse({ type: SignedInDto })
  @ApiResponse({ type: ErrorResponseDto, status: 401, description: 'invalid_credentials: not the password of the account (audited as login_failed, link_password_invalid)' })
  @ApiResponse({ type: ErrorResponseDto, status: 403, description: 'csrf_failed: a cross-origin request; removed_identity: the identity was removed with its user meanwhile' })
  @ApiResponse({ type: ErrorResponseDto, status: 404, description: 'link_not_found: no pending link for this browser, or it expired' })
  @ApiResponse({ type: ErrorResponseDto, status: 409, description: 'identity_in_use: the identity was linked to an account meanwhile' })
  async link(@Body() body: LinkAccountDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SignedInDto> {
    assertSameOrigin(req, this.config.appUrl);
    const signedIn = await this.login.completeLink(this.browserToken(req), body.password, requestOrigin(req));
    setSessionCookies(req, res, signedIn.token, signedIn.csrfToken, signedIn.expiresAt);
    const user = await this.users.findWithFamily(signedIn.user.id);
    return { user: toMeDto(signedIn.user, user?.family?.name ?? '', signedIn.csrfToken, this.config.auth), expires_at: signedIn.expiresAt.toISOString() };
  }

  /**
   * Signs out; for a session from an OIDC provider with an end-session endpoint, or a SAML provider with a single
   * logout URL, also returns where to log out there.
   */
  @Post('logout')
  @RequireSession({ signOut: true })
  @HttpCode(200)
  @ApiOkResponse({ type: LogoutDto })
  async logout(@CurrentSession() session: SessionPrincipal, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<LogoutDto> {
    const url = await this.login.logout(session, publicOrigin(req, this.config), requestOrigin(req));
    clearSessionCookies(req, res);
    return { logout_url: url };
  }

  /**
   * Starts sign-in: redirects to the provider. `?intent=connect` with a session adds the provider to that account.
   * This is the one step of an SSO sign-in counted as a sign-in attempt; the provider's return counts as a return step.
   */
  @Get(':provider')
  @Public()
  @RateLimit('login')
  @SignInNavigation()
  @ApiExcludeEndpoint()
  async start(@Param('provider') name: string, @Query('intent') intent: string | undefined, @Req() req: Request, @Res() res: Response): Promise<void> {
    const connectUser = intent === 'connect' ? await this.sessionOf(req) : null;
    if (intent === 'connect' && !connectUser) return this.redirect(res, '/login?error=sso_session_required');
    const token = this.login.browserToken(this.browserToken(req));
    const result = await this.login.start(name, token, publicOrigin(req, this.config), requestOrigin(req), connectUser);
    if ('error' in result) return this.redirect(res, `/login?error=${result.error}`);
    res.cookie(SSO_COOKIE, token, this.cookieOptions(req));
    res.redirect(302, result.url);
  }

  @Get(':provider/callback')
  @Public()
  @RateLimit('sso_return')
  @SignInNavigation()
  @ApiExcludeEndpoint()
  async callbackGet(@Param('provider') name: string, @Query() query: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.callback(name, query, req, res);
  }

  /** form_post responses arrive as a cross-site POST; the state and the browser cookie are what protect it. */
  @Post(':provider/callback')
  @Public()
  @RateLimit('sso_return')
  @SignInNavigation()
  @ApiExcludeEndpoint()
  async callbackPost(@Param('provider') name: string, @Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.callback(name, body, req, res);
  }

  private async callback(name: string, raw: Record<string, unknown>, req: Request, res: Response): Promise<void> {
    // Only single string values are protocol parameters; repeated or nested ones are dropped.
    const parameters = Object.fromEntries(Object.entries(raw ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
    // A super admin's test login comes back here too; it only records what the provider sent (SsoTestLoginService).
    const test = await this.testLogins.callback(name, parameters, this.browserToken(req), requestOrigin(req));
    if (test) return this.redirect(res, test.redirect);
    const result = await this.login.callback(name, parameters, this.browserToken(req), requestOrigin(req));
    switch (result.kind) {
      case 'failed':
        return this.redirect(res, `/login?error=${result.error}`);
      case 'link_required':
        return this.redirect(res, '/sso/link');
      case 'connected':
        return this.redirect(res, `/settings/security?connected=${encodeURIComponent(result.providerName)}`);
      case 'signed_in':
        setSessionCookies(req, res, result.signedIn.token, result.signedIn.csrfToken, result.signedIn.expiresAt);
        return this.redirect(res, '/');
    }
  }

  private async sessionOf(req: Request): Promise<SessionPrincipal | null> {
    return this.sessions.authenticate(readCookie(req.header('cookie'), SESSION_COOKIE)).catch(() => null);
  }

  private browserToken(req: Request): string | undefined {
    return readCookie(req.header('cookie'), SSO_COOKIE);
  }

  private cookieOptions(req: Request): CookieOptions {
    return ssoCookieOptions(req);
  }

  private redirect(res: Response, path: string): void {
    res.redirect(302, path);
  }
}
