import { Controller, Delete, Get, HttpCode, Param, Req } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { CurrentSession, RequireSession } from '../auth/auth.decorators';
import type { SessionPrincipal } from '../auth/principal';
import { ListQuery, NO_QUERY_PARAMS, NoQueryParams } from '../common/list-query';
import { recordIdPipe } from '../common/record-id';
import { SsoIdentitiesService } from './sso-identities.service';

export class IdentityDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() provider_name: string;
  @ApiProperty() provider_label: string;
  @ApiProperty() strategy: string;
  @ApiProperty({ nullable: true, type: String }) email: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_used_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class IdentityListDto {
  @ApiProperty({ type: [IdentityDto] }) sso_identities: IdentityDto[];
}

/** The signed-in user's connected SSO accounts. Connecting another: GET /auth/<name>?intent=connect. */
@ApiTags('settings')
@Controller('settings/sso_identities')
@RequireSession()
export class SsoIdentitiesController {
  constructor(private readonly identities: SsoIdentitiesService) {}

  @Get()
  @ApiOkResponse({ type: IdentityListDto })
  @ApiResponse(NO_QUERY_PARAMS)
  async list(@CurrentSession() session: SessionPrincipal, @ListQuery() _query: NoQueryParams): Promise<IdentityListDto> {
    const rows = await this.identities.list(session);
    return {
      sso_identities: rows.map((row) => ({
        id: row.id,
        provider_name: row.providerName,
        provider_label: row.providerLabel,
        strategy: row.strategy,
        email: row.email,
        last_used_at: row.lastUsedAt?.toISOString() ?? null,
        created_at: row.createdAt.toISOString(),
      })),
    };
  }

  /** Refused with 409 last_login_method when it is the only way left to sign in. */
  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse()
  async disconnect(
    @CurrentSession() session: SessionPrincipal,
    @Param('id', recordIdPipe) id: string,
    @Req() req: Request,
  ): Promise<void> {
    await this.identities.disconnect(session, id, requestOrigin(req));
  }
}
