import { Body, Controller, Delete, Get, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ListQuery, NO_QUERY_PARAMS, NoQueryParams } from '../common/list-query';
import { RECORD_NOT_FOUND, recordIdPipe } from '../common/record-id';
import { CategoriesService } from './categories.service';
import {
  CategoryDeletionDto,
  CategoryDto,
  CategoryListDto,
  CategoryTreeDto,
  CreateCategoryDto,
  DeleteCategoryQuery,
  ListCategoriesQuery,
  UpdateCategoryDto,
} from './category.dto';

const BAD_CATEGORY = {
  status: 422,
  type: ErrorResponseDto,
  description:
    'validation_failed naming the field: a name that is empty, too long or already used in the household; a colour or icon that is malformed, or a colour given to a subcategory; a parent_id that is not a top-level category of the household, is the category itself, or given to a category with subcategories (one level of nesting); nothing is changed',
};

/**
 * The household's categories. Any member may manage them, as in Sure: they are the household's shared names for
 * where money goes, like the imports members run, which create categories too.
 */
@ApiTags('categories')
@Controller('categories')
@RequireSession() // the admin app's session also works; X-Api-Key takes precedence when sent
export class CategoriesController {
  constructor(private readonly categories: CategoriesService) {}

  @Get()
  @RequireScope('read')
  @ApiOkResponse({ type: CategoryListDto, description: 'By name, as Sure lists them' })
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'validation_failed: roots_only is not true/false/1/0, parent_id is no UUID, or a parameter the list does not take' })
  list(@CurrentPrincipal() principal: Principal, @ListQuery() query: ListCategoriesQuery): Promise<CategoryListDto> {
    return this.categories.list(principal, query);
  }

  @Get('tree')
  @RequireScope('read')
  @ApiOkResponse({ type: CategoryTreeDto, description: 'Every category of the household, unpaged: top-level ones by name, each with its subcategories' })
  @ApiResponse(NO_QUERY_PARAMS)
  tree(@CurrentPrincipal() principal: Principal, @ListQuery() _query: NoQueryParams): Promise<CategoryTreeDto> {
    return this.categories.tree(principal);
  }

  @Get(':id')
  @RequireScope('read')
  @ApiOkResponse({ type: CategoryDto })
  @ApiResponse(RECORD_NOT_FOUND)
  show(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string): Promise<CategoryDto> {
    return this.categories.show(principal, id);
  }

  @Post()
  @RequireScope('write')
  @ApiCreatedResponse({ type: CategoryDto })
  @ApiResponse(BAD_CATEGORY)
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateCategoryDto): Promise<CategoryDto> {
    return this.categories.create(principal, body);
  }

  @Patch(':id')
  @RequireScope('write')
  @ApiOkResponse({ type: CategoryDto, description: "Renamed, recoloured (a top-level category's subcategories take its colour), given another icon or classification, or moved" })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse(BAD_CATEGORY)
  update(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string, @Body() body: UpdateCategoryDto): Promise<CategoryDto> {
    return this.categories.update(principal, id, body);
  }

  @Delete(':id')
  @RequireScope('write')
  @ApiOkResponse({
    type: CategoryDeletionDto,
    description:
      "Deleted in one transaction (audit event category_deleted). With replacement_id (a merge): its transactions and subcategories go to the replacement and each budget's limit for it is added to the replacement's (between a parent and its subcategory the larger is kept, the smaller having been ring-fenced inside it); subcategories go under the replacement when it is top-level, else become top-level. Without: its transactions become uncategorised, its budget rows go and its subcategories become top-level.",
  })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'validation_failed: replacement_id is no UUID, the category itself, not a category of the household, or a parameter DELETE does not take; nothing is changed' })
  remove(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @ListQuery() query: DeleteCategoryQuery,
    @Req() req: Request,
  ): Promise<CategoryDeletionDto> {
    return this.categories.remove(principal, id, query, requestOrigin(req));
  }
}
