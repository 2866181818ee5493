import { Body, Controller, Delete, Get, Param, Patch, Req } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ListQuery } from '../common/list-query';
import { RECORD_NOT_FOUND, recordIdPipe } from '../common/record-id';
import { DeleteLabelQuery, LabelDeletionDto, ListLabelsQuery, RenameLabelDto, TagDto, TagListDto } from './label.dto';
import { LabelsService } from './labels.service';

/**
 * The household's tags, labels a transaction may carry several of. Any member may manage them, as categories: they are the household's shared
 * names, which imports create too.
 */
@ApiTags('tags')
@Controller('tags')
@RequireSession() // the admin app's session also works; X-Api-Key takes precedence when sent
export class TagsController {
  constructor(private readonly labels: LabelsService) {}

  @Get()
  @RequireScope('read')
  @ApiOkResponse({ type: TagListDto, description: 'By name' })
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'validation_failed: a parameter the list does not take' })
  async list(@CurrentPrincipal() principal: Principal, @ListQuery() query: ListLabelsQuery): Promise<TagListDto> {
    const { labels, pagination } = await this.labels.list('tag', principal, query);
    return { tags: labels, pagination };
  }

  @Get(':id')
  @RequireScope('read')
  @ApiOkResponse({ type: TagDto })
  @ApiResponse(RECORD_NOT_FOUND)
  show(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string): Promise<TagDto> {
    return this.labels.show('tag', principal, id);
  }

  @Patch(':id')
  @RequireScope('write')
  @ApiOkResponse({ type: TagDto, description: 'Renamed' })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({
    status: 422,
    type: ErrorResponseDto,
    description: 'validation_failed naming the field: a name that is missing, empty, too long, or already another tag\'s (the message gives the DELETE that merges them); nothing is changed',
  })
  rename(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string, @Body() body: RenameLabelDto): Promise<TagDto> {
    return this.labels.rename('tag', principal, id, body);
  }

  @Delete(':id')
  @RequireScope('write')
  @ApiOkResponse({
    type: LabelDeletionDto,
    description: 'Deleted in one transaction (audit event tag_deleted). With replacement_id (a merge): its transactions carry the replacement instead, once each even when they carried both. Without: they simply lose the tag.',
  })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'validation_failed: replacement_id is no UUID, the tag itself, not a tag of the household, or a parameter DELETE does not take; nothing is changed' })
  remove(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string, @ListQuery() query: DeleteLabelQuery, @Req() req: Request): Promise<LabelDeletionDto> {
    return this.labels.remove('tag', principal, id, query, requestOrigin(req));
  }
}
