import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Req, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import type { Request } from 'express';
import { ApiError } from '../common/api-error';
import { CreateImportDto, ImportListDto, ImportResponseDto, ImportRowListDto, ListImportsQuery, PageQuery, UpdateImportDto } from './import.dto';
import type { UploadedFile as Upload } from './import-content';
import { ImportUploadInterceptor } from './import-upload.interceptor';
import { ImportsService } from './imports.service';

/** Malformed ids answer like unknown ones: 404, never a hint about what exists. */
const importId = new ParseUUIDPipe({ exceptionFactory: () => ApiError.notFound() });

@ApiTags('imports')
@Controller('imports')
@RequireSession() // the admin app's session also works; X-Api-Key takes precedence when sent
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @Post()
  @RequireScope('write')
  @UseInterceptors(ImportUploadInterceptor)
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody({ type: CreateImportDto })
  @ApiCreatedResponse({ type: ImportResponseDto })
  @ApiResponse({ status: 422, description: 'Validation error (ErrorResponse) or publish rejected (ErrorResponseWithImportId)' })
  @ApiResponse({ status: 500, description: 'Import stored but the publish could not be queued (ErrorResponseWithImportId)' })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateImportDto, @Req() req: Request & { file?: Upload }): Promise<ImportResponseDto> {
    return { data: await this.imports.create(principal, body, req.file) };
  }

  @Get()
  @RequireScope('read')
  @ApiOkResponse({ type: ImportListDto })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListImportsQuery): Promise<ImportListDto> {
    return this.imports.list(principal, query);
  }

  @Get(':id')
  @RequireScope('read')
  @ApiOkResponse({ type: ImportResponseDto })
  async show(@CurrentPrincipal() principal: Principal, @Param('id', importId) id: string): Promise<ImportResponseDto> {
    return { data: await this.imports.show(principal, id) };
  }

  @Get(':id/rows')
  @RequireScope('read')
  @ApiOkResponse({ type: ImportRowListDto })
  rows(@CurrentPrincipal() principal: Principal, @Param('id', importId) id: string, @Query() query: PageQuery): Promise<ImportRowListDto> {
    return this.imports.rows(principal, id, query);
  }

  @Patch(':id')
  @RequireScope('write')
  @ApiOkResponse({ type: ImportResponseDto })
  @ApiResponse({ status: 409, description: 'import_not_editable: the import is importing, complete or reverting, or has rows published (revert it first)' })
  @ApiResponse({ status: 422, description: 'Validation error (ErrorResponse): configuration, content or mappings' })
  async update(@CurrentPrincipal() principal: Principal, @Param('id', importId) id: string, @Body() body: UpdateImportDto): Promise<ImportResponseDto> {
    return { data: await this.imports.update(principal, id, body) };
  }

  @Post(':id/publish')
  @HttpCode(202)
  @RequireScope('write')
  @ApiResponse({ status: 202, type: ImportResponseDto, description: 'Publishing queued' })
  async publish(@CurrentPrincipal() principal: Principal, @Param('id', importId) id: string): Promise<ImportResponseDto> {
    return { data: await this.imports.publish(principal, id) };
  }

  @Post(':id/revert')
  @HttpCode(202)
  @RequireScope('write')
  @ApiResponse({ status: 202, type: ImportResponseDto, description: 'Revert queued' })
  async revert(@CurrentPrincipal() principal: Principal, @Param('id', importId) id: string): Promise<ImportResponseDto> {
    return { data: await this.imports.revert(principal, id) };
  }
}
