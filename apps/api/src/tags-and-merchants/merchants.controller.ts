import { Body, Controller, Delete, Get, Param, Patch, Req } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ListQuery } from '../common/list-query';
import { RECORD_NOT_FOUND, recordIdPipe } from '../common/record-id';
import { DeleteLabelQuery, LabelDeletionDto, ListLabelsQuery, RenameLabelDto, MerchantDto, MerchantListDto } from './label.dto';
import { LabelsService } from './labels.service';

/**
 * The household's own merchants (Sure's FamilyMerchant; merchants a data provider shares between households are not listed). Any member may manage them, as categories: they are the household's shared
 * names, which imports create too.
 */
@ApiTags('merchants')
@Controller('merchants')
@RequireSession() // the admin app's session also works; X-Api-Key takes precedence when sent
export class MerchantsController {
  constructor(private readonly labels: LabelsService) {}

  @Get()
  @RequireScope('read')
  @ApiOkResponse({ type: MerchantListDto, description: 'By name' })
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'validation_failed: a parameter the list does not take' })
  async list(@CurrentPrincipal() principal: Principal, @ListQuery() query: ListLabelsQuery): Promise<MerchantListDto> {
    const { labels, pagination } = await this.labels.list('merchant', principal, query);
    return { merchants: labels, pagination };
  }

  @Get(':id')
  @RequireScope('read')
  @ApiOkResponse({ type: MerchantDto })
  @ApiResponse(RECORD_NOT_FOUND)
  show(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string): Promise<MerchantDto> {
    return this.labels.show('merchant', principal, id);
  }

  @Patch(':id')
  @RequireScope('write')
  @ApiOkResponse({ type: MerchantDto, description: 'Renamed' })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({
    status: 422,
    type: ErrorResponseDto,
    description: 'validation_failed naming the field: a name that is missing, empty, too long, or already another merchant\'s (the message gives the DELETE that merges them); nothing is changed',
  })
  rename(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string, @Body() body: RenameLabelDto): Promise<MerchantDto> {
    return this.labels.rename('merchant', principal, id, body);
  }

  @Delete(':id')
  @RequireScope('write')
  @ApiOkResponse({
    type: LabelDeletionDto,
    description: 'Deleted in one transaction (audit event merchant_deleted). With replacement_id (a merge): its transactions get the replacement as their merchant. Without: they are left without a merchant.',
  })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'validation_failed: replacement_id is no UUID, the merchant itself, not a merchant of the household, or a parameter DELETE does not take; nothing is changed' })
  remove(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string, @ListQuery() query: DeleteLabelQuery, @Req() req: Request): Promise<LabelDeletionDto> {
    return this.labels.remove('merchant', principal, id, query, requestOrigin(req));
  }
}
