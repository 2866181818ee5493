import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { CurrentSession, RateLimit, RequireSession } from '../auth/auth.decorators';
import type { SessionPrincipal } from '../auth/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ListQuery, NO_QUERY_PARAMS, NoQueryParams } from '../common/list-query';
import { recordIdPipe } from '../common/record-id';
import { adminUserDto } from './admin-user.presenter';
import { AdminUserDto, AdminUserListDto, AuthHistoryDto, ChangeRoleDto, DeleteUserDto, ListUsersQuery } from './admin-users.dto';
import { AdminUsersService } from './admin-users.service';

const UserId = () => Param('id', recordIdPipe);

/** User management for the admin app: family admins see their family, super admins everyone. 10 requests/min/IP. */
@ApiTags('admin')
@Controller('admin/users')
@RequireSession({ minRole: 'admin' })
@RateLimit('admin')
export class AdminUsersController {
  constructor(private readonly users: AdminUsersService) {}

  @Get()
  @ApiOkResponse({ type: AdminUserListDto })
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'validation_failed: a filter, page or per_page out of range, or a parameter the list does not take' })
  async list(@CurrentSession() actor: SessionPrincipal, @ListQuery() query: ListUsersQuery): Promise<AdminUserListDto> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 25;
    const { rows, total } = await this.users.list(actor, {
      q: query.q,
      role: query.role,
      status: query.status,
      provider: query.provider,
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return { users: rows.map(adminUserDto), total, page, per_page: perPage };
  }

  @Get(':id')
  @ApiOkResponse({ type: AdminUserDto })
  async show(@CurrentSession() actor: SessionPrincipal, @UserId() id: string): Promise<AdminUserDto> {
    return adminUserDto(await this.users.get(actor, id));
  }

  /** Changes the role (the only writable field). */
  @Patch(':id')
  @ApiOkResponse({ type: AdminUserDto })
  async changeRole(@CurrentSession() actor: SessionPrincipal, @UserId() id: string, @Body() body: ChangeRoleDto, @Req() req: Request): Promise<AdminUserDto> {
    return adminUserDto(await this.users.changeRole(actor, id, body.role, requestOrigin(req)));
  }

  @Post(':id/suspend')
  @HttpCode(200)
  @ApiOkResponse({ type: AdminUserDto })
  async suspend(@CurrentSession() actor: SessionPrincipal, @UserId() id: string, @Req() req: Request): Promise<AdminUserDto> {
    return adminUserDto(await this.users.suspend(actor, id, requestOrigin(req)));
  }

  @Post(':id/reactivate')
  @HttpCode(200)
  @ApiOkResponse({ type: AdminUserDto })
  @ApiResponse({
    status: 403,
    type: ErrorResponseDto,
    description: 'a user ranked above the caller, or suspended_by_super_admin: a super admin suspended the user, and only a super admin reactivates them',
  })
  async reactivate(@CurrentSession() actor: SessionPrincipal, @UserId() id: string, @Req() req: Request): Promise<AdminUserDto> {
    return adminUserDto(await this.users.reactivate(actor, id, requestOrigin(req)));
  }

  /** Permanent: the body must repeat the user's e-mail address. */
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiResponse({
    status: 403,
    type: ErrorResponseDto,
    description: 'a user ranked above the caller, or suspended_by_super_admin: a super admin suspended the user, and only a super admin removes them',
  })
  async remove(@CurrentSession() actor: SessionPrincipal, @UserId() id: string, @Body() body: DeleteUserDto, @Req() req: Request): Promise<void> {
    await this.users.remove(actor, id, body.confirmation_email, requestOrigin(req));
  }

  /** Sign-in and account events of the user, newest first (from the audit log). */
  @Get(':id/auth_history')
  @ApiOkResponse({ type: AuthHistoryDto })
  @ApiResponse(NO_QUERY_PARAMS)
  async history(@CurrentSession() actor: SessionPrincipal, @UserId() id: string, @ListQuery() _query: NoQueryParams): Promise<AuthHistoryDto> {
    const events = await this.users.history(actor, id);
    return {
      events: events.map((e) => ({
        id: e.id,
        event: e.event,
        provider: e.providerName,
        ip_address: e.ipAddress,
        user_agent: e.userAgent,
        details: e.details,
        created_at: e.createdAt.toISOString(),
      })),
    };
  }
}
