import { Body, Controller, Delete, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiConsumes, ApiCreatedResponse, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UsersService } from '../users/users.service';
import { CurrentSession, Public, RateLimit, RequireSession } from './auth.decorators';
import { SignedInDto, SignInDto } from './auth.dto';
import { assertSameOrigin } from './csrf';
import { toMeDto } from './me.presenter';
import type { SessionPrincipal } from './principal';
import { clearSessionCookies, setSessionCookies } from './session-cookies';
import { readCookie, SESSION_COOKIE } from './session-token';
import { SessionsService } from './sessions.service';

/** Browser sign-in and sign-out (docs/sign-in.md#paths-outside-apiv1): outside /api/v1, at /sessions. */
@ApiTags('sessions')
@Controller('sessions')
export class SessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** E-mail/password sign-in; sets the session and CSRF cookies. */
  @Post()
  @Public()
  @RateLimit('login')
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiCreatedResponse({ type: SignedInDto })
  async create(@Body() body: SignInDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SignedInDto> {
    assertSameOrigin(req, this.config.appUrl); // no login CSRF from other sites
    const signedIn = await this.sessions.signIn(body.email, body.password, requestOrigin(req), readCookie(req.header('cookie'), SESSION_COOKIE));
    setSessionCookies(req, res, signedIn.token, signedIn.csrfToken, signedIn.expiresAt);
    const user = await this.users.findWithFamily(signedIn.user.id);
    return { user: toMeDto(signedIn.user, user?.family?.name ?? '', signedIn.csrfToken, this.config.auth), expires_at: signedIn.expiresAt.toISOString() };
  }

  /** Signs out: the session row is revoked (the old cookie stops working) and the cookies are cleared. */
  @Delete()
  @RequireSession({ signOut: true })
  @HttpCode(204)
  @ApiNoContentResponse()
  async destroy(@CurrentSession() session: SessionPrincipal, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.sessions.signOut(session, requestOrigin(req));
    clearSessionCookies(req, res);
  }
}
