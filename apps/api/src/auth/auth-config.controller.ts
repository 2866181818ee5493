import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UsersService } from '../users/users.service';
import { Public, RateLimit } from './auth.decorators';
import { AuthConfigService } from './auth-config.service';
import { AuthConfigDto, MessageDto, PasswordResetCompleteDto, PasswordResetRequestDto, SetupDto, SignedInDto } from './auth.dto';
import { assertSameOrigin } from './csrf';
import { localLoginFormVisible, localLoginMode, passwordResetEnabled } from './local-login-policy';
import { toMeDto } from './me.presenter';
import { PasswordResetsService } from './password-resets.service';
import { setSessionCookies } from './session-cookies';
import { LOCAL_LOGIN_DISABLED, SessionsService } from './sessions.service';

/** What the sign-in page shows, first-run setup, and password reset: all reachable without a session. */
@ApiTags('auth')
@Controller('auth')
export class AuthConfigController {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly passwordResets: PasswordResetsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly signInConfig: AuthConfigService,
  ) {}

  @Get('config')
  @Public()
  @ApiOkResponse({ type: AuthConfigDto })
  async show(): Promise<AuthConfigDto> {
    const mode = localLoginMode(this.config.auth);
    return {
      local_login_enabled: this.config.auth.localLoginEnabled,
      local_admin_override_enabled: this.config.auth.localAdminOverrideEnabled,
      local_login_form_visible: localLoginFormVisible(this.config.auth),
      local_login_notice: mode === 'super_admins_only' ? 'Local login is restricted to administrators.' : null,
      password_reset_enabled: passwordResetEnabled(this.config.auth),
      setup_required: await this.signInConfig.setupRequired(),
      providers: await this.signInConfig.signInProviders(),
    };
  }

  /** First run only: creates the first user as super_admin with a new family, and signs them in. */
  @Post('setup')
  @Public()
  @RateLimit('login')
  @ApiCreatedResponse({ type: SignedInDto })
  async setup(@Body() body: SetupDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SignedInDto> {
    assertSameOrigin(req, this.config.appUrl);
    if (localLoginMode(this.config.auth) === 'disabled') throw LOCAL_LOGIN_DISABLED();
    const { user, family } = await this.users.create({
      email: body.email,
      password: body.password,
      role: 'super_admin',
      familyName: body.family_name,
      currency: body.currency,
      onlyWhenNoUsers: true,
    });
    const signedIn = await this.sessions.openSession(user, requestOrigin(req), { method: 'password', setup: true });
    setSessionCookies(req, res, signedIn.token, signedIn.csrfToken, signedIn.expiresAt);
    return { user: toMeDto(user, family.name, signedIn.csrfToken, this.config.auth), expires_at: signedIn.expiresAt.toISOString() };
  }

  /** Sends a reset link when the address has a password account; the answer is the same either way. */
  @Post('password_reset')
  @Public()
  @RateLimit('login')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: MessageDto })
  async requestReset(@Body() body: PasswordResetRequestDto, @Req() req: Request): Promise<MessageDto> {
    assertSameOrigin(req, this.config.appUrl); // another site's form would send mails from its visitors' addresses
    await this.passwordResets.request(body.email, requestOrigin(req));
    return { message: 'If an account with a password exists for that address, a reset link is on its way.' };
  }

  @Post('password_reset/complete')
  @Public()
  @RateLimit('login')
  @HttpCode(204)
  @ApiNoContentResponse()
  async completeReset(@Body() body: PasswordResetCompleteDto, @Req() req: Request): Promise<void> {
    assertSameOrigin(req, this.config.appUrl);
    await this.passwordResets.complete(body.token, body.password, requestOrigin(req));
  }
}
