import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { CurrentSession, RateLimit, RequireSession } from '../auth/auth.decorators';
import type { SessionPrincipal } from '../auth/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { recordIdPipe } from '../common/record-id';
import { adminUserDto } from '../users/admin-user.presenter';
import { SyncRolesDto } from '../users/admin-users.dto';
import { SsoAccountsService } from './sso-accounts.service';

/**
 * "Sync roles" of user management, next to the other user actions under admin/users; here because it
 * applies SSO role mapping, and user management does not depend on SSO.
 */
@ApiTags('admin')
@Controller('admin/users')
@RequireSession({ minRole: 'admin' })
@RateLimit('admin')
export class SsoRoleSyncController {
  constructor(private readonly accounts: SsoAccountsService) {}

  /** Applies the provider's current role mapping to the groups of the user's last SSO sign-in; audited as role_changed. */
  @Post(':id/sync_roles')
  @HttpCode(200)
  @ApiOkResponse({ type: SyncRolesDto })
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'no_sso_identity, no_stored_groups (no SSO sign-in since groups are kept) or sign_in_needed (the mapping has attribute conditions)' })
  async syncRoles(@CurrentSession() actor: SessionPrincipal, @Param('id', recordIdPipe) id: string, @Req() req: Request): Promise<SyncRolesDto> {
    const result = await this.accounts.syncStoredGroups(actor, id, requestOrigin(req));
    return {
      user: adminUserDto(result.user),
      role_before: result.roleBefore,
      role_after: result.roleAfter,
      provider: result.provider,
      groups: result.groups,
      groups_received_at: result.groupsReceivedAt.toISOString(),
      rule: result.rule,
    };
  }
}
