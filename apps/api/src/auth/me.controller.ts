import { Body, Controller, Get, HttpCode, Inject, Put, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { ApiError } from '../common/api-error';
import { APP_CONFIG, AppConfig } from '../config/config';
import { UsersService } from '../users/users.service';
import { CurrentSession, RateLimit, RequireSession } from './auth.decorators';
import { ChangePasswordDto, MeDto } from './auth.dto';
import { toMeDto } from './me.presenter';
import type { SessionPrincipal } from './principal';
import { SessionsService } from './sessions.service';

/** The signed-in user, for the admin app. */
@ApiTags('me')
@Controller('me')
export class MeController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @RequireSession()
  @ApiOkResponse({ type: MeDto })
  async show(@CurrentSession() session: SessionPrincipal): Promise<MeDto> {
    const user = await this.users.findWithFamily(session.userId);
    if (!user) throw ApiError.notFound();
    return toMeDto(user, user.family?.name ?? '', this.sessions.csrfToken(session.token), this.config.auth);
  }

  /** Changes the caller's password (current password required); the caller's other sessions end. */
  @Put('password')
  @RequireSession()
  @RateLimit('login')
  @HttpCode(204)
  @ApiNoContentResponse()
  async changePassword(@CurrentSession() session: SessionPrincipal, @Body() body: ChangePasswordDto, @Req() req: Request): Promise<void> {
    await this.sessions.changePassword(session, body.current_password, body.new_password, requestOrigin(req));
  }
}
