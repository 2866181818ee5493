import { Controller, Get, Param, Post, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ListQuery, NO_QUERY_PARAMS, NoQueryParams } from '../common/list-query';
import { recordIdPipe } from '../common/record-id';
import { FamilyExportListDto, FamilyExportResponseDto } from './family-export.dto';
import { FamilyExportsService } from './family-exports.service';

@ApiTags('family_exports')
@Controller('family_exports')
@RequireSession({ minRole: 'admin' }) // the admin app's session also works; X-Api-Key takes precedence when sent
export class FamilyExportsController {
  constructor(private readonly exports: FamilyExportsService) {}

  @Post()
  @RequireScope('write')
  @ApiCreatedResponse({ type: FamilyExportResponseDto, description: 'Export queued; poll GET /family_exports/{id} until completed' })
  @ApiResponse({ status: 500, description: 'Export created but could not be queued (export_failed)' })
  async create(@CurrentPrincipal() principal: Principal): Promise<FamilyExportResponseDto> {
    return { data: await this.exports.create(principal) };
  }

  @Get()
  @RequireScope('read')
  @ApiOkResponse({ type: FamilyExportListDto })
  @ApiResponse(NO_QUERY_PARAMS)
  async list(@CurrentPrincipal() principal: Principal, @ListQuery() _query: NoQueryParams): Promise<FamilyExportListDto> {
    return { data: await this.exports.list(principal) };
  }

  @Get(':id')
  @RequireScope('read')
  @ApiOkResponse({ type: FamilyExportResponseDto })
  async show(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string): Promise<FamilyExportResponseDto> {
    return { data: await this.exports.show(principal, id) };
  }

  @Get(':id/download')
  @RequireScope('read')
  @ApiProduces('application/x-ndjson')
  @ApiOkResponse({ description: 'The NDJSON file (ServiceImport input)', schema: { type: 'string' } })
  @ApiResponse({ status: 409, description: 'Export not completed yet (export_not_ready)' })
  async download(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string, @Res({ passthrough: true }) res: Response): Promise<string> {
    const file = await this.exports.download(principal, id);
    res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${file.fileName}"`);
    return file.content;
  }
}
