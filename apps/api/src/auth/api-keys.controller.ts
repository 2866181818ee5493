import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { AuditService, requestOrigin } from '../audit/audit.service';
import { ApiError } from '../common/api-error';
import type { ApiKey } from './auth.entities';
import { CurrentSession, RequireSession } from './auth.decorators';
import { ApiKeyDto, ApiKeyListDto, CreateApiKeyDto, CreatedApiKeyDto } from './auth.dto';
import { ApiKeysService } from './api-keys.service';
import type { SessionPrincipal } from './principal';
import { parseUtcDateTime } from '../common/utc-date-time';
import { recordIdPipe } from '../common/record-id';
import { ListQuery, NO_QUERY_PARAMS, NoQueryParams } from '../common/list-query';

const toDto = (key: ApiKey): ApiKeyDto => ({
  id: key.id,
  name: key.name,
  prefix: key.prefix,
  scope: key.scope,
  last_used_at: key.lastUsedAt?.toISOString() ?? null,
  expires_at: key.expiresAt?.toISOString() ?? null,
  revoked_at: key.revokedAt?.toISOString() ?? null,
  created_at: key.createdAt.toISOString(),
});

/** The signed-in user's own API keys: create (the key is shown once), list, revoke. */
@ApiTags('settings')
@Controller('settings/api_keys')
export class ApiKeysController {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly audit: AuditService,
  ) {}

  @Get()
  @RequireSession()
  @ApiOkResponse({ type: ApiKeyListDto })
  @ApiResponse(NO_QUERY_PARAMS)
  async list(@CurrentSession() session: SessionPrincipal, @ListQuery() _query: NoQueryParams): Promise<ApiKeyListDto> {
    return { api_keys: (await this.apiKeys.listForUser(session.userId)).map(toDto) };
  }

  @Post()
  @RequireSession()
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  async create(@CurrentSession() session: SessionPrincipal, @Body() body: CreateApiKeyDto, @Req() req: Request): Promise<CreatedApiKeyDto> {
    // Read as the audit log's bounds are: without an offset, UTC (not the server's own zone).
    const expiresAt = body.expires_at ? parseUtcDateTime(body.expires_at) : null;
    if (body.expires_at && !expiresAt) throw ApiError.validation(['expires_at must be an ISO 8601 date or date-time']);
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw ApiError.validation(['expires_at must be in the future']);
    const created = await this.apiKeys.create({ userId: session.userId, name: body.name, scope: body.scope, expiresAt, uniqueName: true });
    await this.audit.record('api_key_created', {
      userId: session.userId,
      familyId: session.familyId,
      origin: requestOrigin(req),
      details: { api_key_id: created.id, prefix: created.prefix, scope: created.scope },
    });
    return { ...toDto(created.record), key: created.key };
  }

  @Delete(':id')
  @RequireSession()
  @HttpCode(204)
  @ApiNoContentResponse()
  async revoke(@CurrentSession() session: SessionPrincipal, @Param('id', recordIdPipe) id: string, @Req() req: Request): Promise<void> {
    const key = await this.apiKeys.revokeById(id, session.userId);
    if (!key) throw ApiError.notFound();
    await this.audit.record('api_key_revoked', {
      userId: session.userId,
      familyId: session.familyId,
      origin: requestOrigin(req),
      details: { api_key_id: key.id, prefix: key.prefix },
    });
  }
}
