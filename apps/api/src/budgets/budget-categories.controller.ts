import { Body, Controller, Get, Headers, Param, Patch, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { BudgetCategoryDto, BudgetCategoryListDto, ListBudgetCategoriesQuery, LocaleQuery, UpdateBudgetCategoryDto } from './budget.dto';
import type { Presentation } from './budget.presenter';
import { ListQuery } from '../common/list-query';
import { RECORD_NOT_FOUND, recordIdPipe } from '../common/record-id';
import { AMOUNT_OUT_OF_RANGE, UNCONVERTED, UNCONVERTED_HEADER } from './budget-http';
import { withUnconvertedHeader } from '../common/unconverted-entries';
import { BudgetsService } from './budgets.service';
import { LanguageHeader } from '../common/request-locale';

@ApiTags('budgets')
@Controller('budget_categories')
@RequireSession()
export class BudgetCategoriesController {
  constructor(private readonly budgets: BudgetsService) {}

  @Get()
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({
    type: BudgetCategoryListDto,
    description:
      'A row per budget and category of the family, categories made after the budget included; a category that never counts as spending (only money in, or transfers) is left out while nothing is planned for it',
  })
  @ApiResponse({ status: 422, description: 'validation_failed: a date filter is not an ISO 8601 date, an id filter not a UUID, locale not a language tag, or a parameter the list does not take' })
  list(
    @CurrentPrincipal() principal: Principal,
    @ListQuery() query: ListBudgetCategoriesQuery,
    @Headers('accept-language') language?: string,
  ): Promise<BudgetCategoryListDto> {
    return this.budgets.listCategories(principal, query, this.budgets.presentation(query.locale, language));
  }

  @Get(':id')
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: BudgetCategoryDto, headers: UNCONVERTED })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse(AMOUNT_OUT_OF_RANGE)
  show(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @Query() query: LocaleQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<BudgetCategoryDto> {
    return this.respond(principal, id, this.budgets.presentation(query.locale, language), res);
  }

  @Patch(':id')
  @RequireScope('write')
  @LanguageHeader()
  @ApiOkResponse({ type: BudgetCategoryDto, description: "A subcategory's parent row moves with its limit" })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, description: 'validation_failed: budgeted_spending is not a decimal >= 0; or amount_out_of_range as for GET, the change then made' })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @Body() body: UpdateBudgetCategoryDto,
    @Query() query: LocaleQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<BudgetCategoryDto> {
    const view = this.budgets.presentation(query.locale, language);
    await this.budgets.updateCategory(principal, id, body);
    return this.respond(principal, id, view, res);
  }

  private async respond(principal: Principal, id: string, view: Presentation, res: Response): Promise<BudgetCategoryDto> {
    return withUnconvertedHeader(res, UNCONVERTED_HEADER, await this.budgets.showCategory(principal, id, view));
  }
}
