import { Controller, Delete, Get, HttpCode, Param, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { CurrentSession, RateLimit, RequireSession } from '../auth/auth.decorators';
import type { SessionPrincipal } from '../auth/principal';
import { ListQuery, NO_QUERY_PARAMS, NoQueryParams } from '../common/list-query';
import { RECORD_NOT_FOUND, recordIdPipe } from '../common/record-id';
import { IdentityBlockListDto } from './admin-users.dto';
import { IdentityBlocksService } from './identity-blocks.service';

/**
 * SSO identities of permanently removed users, which cannot sign in, link or create an account again (super admins
 * only: a block spans every family). 10 requests/min/IP.
 */
@ApiTags('admin')
@Controller('admin/sso_identity_blocks')
@RequireSession({ minRole: 'super_admin' })
@RateLimit('admin')
export class IdentityBlocksController {
  constructor(private readonly blocks: IdentityBlocksService) {}

  @Get()
  @ApiOkResponse({ type: IdentityBlockListDto })
  @ApiResponse(NO_QUERY_PARAMS)
  async list(@ListQuery() _query: NoQueryParams): Promise<IdentityBlockListDto> {
    const rows = await this.blocks.list();
    return {
      sso_identity_blocks: rows.map((row) => ({
        id: row.id,
        provider_id: row.providerId,
        provider_name: row.providerName,
        provider_label: row.providerLabel,
        identity_label: row.identityLabel,
        created_at: row.createdAt.toISOString(),
      })),
    };
  }

  /** "Allow again": deletes the block, audited as identity_unblocked. */
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  @ApiResponse(RECORD_NOT_FOUND)
  async allowAgain(@CurrentSession() actor: SessionPrincipal, @Param('id', recordIdPipe) id: string, @Req() req: Request): Promise<void> {
    await this.blocks.allowAgain(actor, id, requestOrigin(req));
  }
}
