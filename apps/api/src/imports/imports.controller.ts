import { ArgumentMetadata, Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiCreatedResponse, ApiExtraModels, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiParam, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { requestOrigin } from '../audit/audit.service';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import type { Request, Response } from 'express';
import { ApiError } from '../common/api-error';
import { ErrorResponseAmbiguousDateFormatDto, ErrorResponseDto, ErrorResponseWithImportIdDto } from '../common/error-response.dto';
import { ListQuery } from '../common/list-query';
import { CreateImportDto, ImportListDto, ImportResponseDto, ImportRowListDto, ImportRowsQuery, ListImportsQuery, UpdateImportDto } from './import.dto';
import type { UploadedFile as Upload } from './import-content';
import { idempotencyClaim } from './import-idempotency';
import { ImportUploadInterceptor, JsonBodyInterceptor } from './import-upload.interceptor';
import { ImportsService } from './imports.service';

/**
 * Malformed ids answer like unknown ones: 404, never a hint about what exists. A valid one goes on in lower case, as
 * the database writes ids, so the service can compare it with the ids it reads back.
 */
class ImportIdPipe extends ParseUUIDPipe {
  override async transform(value: string, metadata: ArgumentMetadata): Promise<string> {
    return (await super.transform(value, metadata)).toLowerCase();
  }
}
const importId = new ImportIdPipe({ exceptionFactory: () => ApiError.notFound() });

/** The error answers each route documents, with the body each really sends. */
const IdParam = ApiParam({ name: 'id', format: 'uuid', description: 'Import id; a malformed or unknown one (or one of another family) is 404' });
const NotFound = ApiResponse({ status: 404, type: ErrorResponseDto, description: 'record_not_found: no such import in your family' });
const BadBody = ApiResponse({ status: 400, type: ErrorResponseDto, description: 'invalid_json or malformed_multipart: the body could not be read' });
const QueueDown = (code: string) =>
  ApiResponse({ status: 500, type: ErrorResponseWithImportIdDto, description: `${code}: the import is kept as it was but could not be queued; try again` });

@ApiTags('imports')
@Controller('imports')
@ApiExtraModels(ErrorResponseDto, ErrorResponseWithImportIdDto, ErrorResponseAmbiguousDateFormatDto)
@RequireSession() // the admin app's session also works; X-Api-Key takes precedence when sent
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @Post()
  @RequireScope('write')
  @UseInterceptors(ImportUploadInterceptor)
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiBody({ type: CreateImportDto })
  @ApiCreatedResponse({
    type: ImportResponseDto,
    headers: { 'Idempotent-Replayed': { description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key', schema: { type: 'string' } } },
  })
  @BadBody
  @ApiResponse({ status: 415, type: ErrorResponseDto, description: 'unsupported_media_type: the body is neither JSON nor multipart/form-data' })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'invalid_family_currency: the stored household currency is not ISO 4217; an admin sets a valid one in household settings' })
  @ApiResponse({
    status: 422,
    description:
      'Validation error (ErrorResponse), dates that fit two formats (ErrorResponseAmbiguousDateFormat: send date_format, one of date_formats), ' +
      'or publish rejected (ErrorResponseWithImportId: the import is stored)',
    content: {
      'application/json': {
        schema: { oneOf: [{ $ref: getSchemaPath(ErrorResponseDto) }, { $ref: getSchemaPath(ErrorResponseAmbiguousDateFormatDto) }, { $ref: getSchemaPath(ErrorResponseWithImportIdDto) }] },
      },
    },
  })
  @QueueDown('publish_failed')
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Any unique string (1-255 visible ASCII characters, such as a UUID). A repeat of the request with the same key within 24 hours (per family) ' +
      'gets the first answer again (same status and body, with `Idempotent-Replayed: true`) instead of storing a second import; the same key ' +
      'with a different body is 422 `idempotency_key_reused`, a malformed key 422 `validation_failed`.',
  })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateImportDto,
    @Req() req: Request & { file?: Upload },
    @Res({ passthrough: true }) res: Response,
  ): Promise<ImportResponseDto> {
    const claim = idempotencyClaim(req.headers['idempotency-key'], body, req.file);
    if (!claim) return { data: await this.imports.create(principal, body, req.file) };
    const answer = await this.imports.createOnce(principal, body, req.file, claim);
    res.status(answer.status);
    if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
    return answer.body as ImportResponseDto;
  }

  @Get()
  @RequireScope('read')
  @ApiOkResponse({ type: ImportListDto })
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'validation_failed: page, per_page, status or type out of range, or a parameter the list does not take' })
  list(@CurrentPrincipal() principal: Principal, @ListQuery() query: ListImportsQuery): Promise<ImportListDto> {
    return this.imports.list(principal, query);
  }

  @Get(':id')
  @RequireScope('read')
  @IdParam
  @ApiOkResponse({ type: ImportResponseDto })
  @NotFound
  async show(@CurrentPrincipal() principal: Principal, @Param('id', importId) id: string): Promise<ImportResponseDto> {
    return { data: await this.imports.show(principal, id) };
  }

  @Get(':id/rows')
  @RequireScope('read')
  @IdParam
  @ApiOkResponse({ type: ImportRowListDto })
  @NotFound
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'validation_failed: page or per_page out of range, errors other than only, or a parameter the list does not take' })
  rows(@CurrentPrincipal() principal: Principal, @Param('id', importId) id: string, @ListQuery() query: ImportRowsQuery): Promise<ImportRowListDto> {
    return this.imports.rows(principal, id, query);
  }

  @Patch(':id')
  @RequireScope('write')
  @UseInterceptors(JsonBodyInterceptor)
  @IdParam
  @ApiOkResponse({ type: ImportResponseDto })
  @BadBody
  @ApiResponse({ status: 415, type: ErrorResponseDto, description: 'unsupported_media_type: the body is not JSON' })
  @NotFound
  @ApiResponse({
    status: 409,
    type: ErrorResponseDto,
    description:
      'import_not_editable: the import is importing, complete or reverting, or has rows published (revert it first); invalid_family_currency: the stored household currency is not ISO 4217',
  })
  @ApiResponse({
    status: 422,
    description: 'Validation error: configuration, content, mappings or skip_rows; or dates that fit two formats (ErrorResponseAmbiguousDateFormat: send date_format)',
    content: { 'application/json': { schema: { oneOf: [{ $ref: getSchemaPath(ErrorResponseDto) }, { $ref: getSchemaPath(ErrorResponseAmbiguousDateFormatDto) }] } } },
  })
  async update(@CurrentPrincipal() principal: Principal, @Param('id', importId) id: string, @Body() body: UpdateImportDto): Promise<ImportResponseDto> {
    return { data: await this.imports.update(principal, id, body) };
  }

  @Post(':id/publish')
  @HttpCode(202)
  @RequireScope('write')
  @IdParam
  @ApiResponse({ status: 202, type: ImportResponseDto, description: 'Publishing queued' })
  @NotFound
  @ApiResponse({
    status: 409,
    type: ErrorResponseWithImportIdDto,
    description: 'import_publishing (already publishing: one publish at a time), import_reverting, or import_published (revert it first)',
  })
  @ApiResponse({
    status: 422,
    type: ErrorResponseWithImportIdDto,
    description: 'not_publishable, max_row_count_exceeded or preflight_failed: errors says why',
  })
  @QueueDown('publish_failed')
  async publish(@CurrentPrincipal() principal: Principal, @Param('id', importId) id: string): Promise<ImportResponseDto> {
    return { data: await this.imports.publish(principal, id) };
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScope('write')
  @IdParam
  @ApiNoContentResponse({ description: 'Discarded: the import, its rows and mappings are deleted (audit event import_discarded)' })
  @NotFound
  @ApiResponse({
    status: 409,
    type: ErrorResponseDto,
    description: 'import_published (rows are published: revert it first), import_publishing or import_reverting (wait for it to finish)',
  })
  async discard(@CurrentPrincipal() principal: Principal, @Param('id', importId) id: string, @Req() req: Request): Promise<void> {
    await this.imports.discard(principal, id, requestOrigin(req));
  }

  @Post(':id/revert')
  @HttpCode(202)
  @RequireScope('write')
  @IdParam
  @ApiResponse({ status: 202, type: ImportResponseDto, description: 'Revert queued' })
  @NotFound
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'not_revertable: nothing of the import is published' })
  @QueueDown('revert_failed')
  async revert(@CurrentPrincipal() principal: Principal, @Param('id', importId) id: string): Promise<ImportResponseDto> {
    return { data: await this.imports.revert(principal, id) };
  }
}
