import { Body, Controller, Get, Headers, HttpStatus, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { BudgetDto, BudgetListDto, CreateBudgetDto, ListBudgetsQuery, LocaleQuery, UpdateBudgetDto } from './budget.dto';
import { ListQuery } from '../common/list-query';
import { RECORD_NOT_FOUND, recordIdPipe } from '../common/record-id';
import { AMOUNT_OUT_OF_RANGE, UNCONVERTED, UNCONVERTED_HEADER } from './budget-http';
import { withUnconvertedHeader } from '../common/unconverted-entries';
import type { Presentation } from './budget.presenter';
import { BudgetsService } from './budgets.service';
import { LanguageHeader } from '../common/request-locale';

@ApiTags('budgets')
@Controller('budgets')
@RequireSession() // the admin app's session also works; X-Api-Key takes precedence when sent
export class BudgetsController {
  constructor(private readonly budgets: BudgetsService) {}

  @Get()
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: BudgetListDto })
  @ApiResponse({ status: 422, description: 'validation_failed: a date filter is not an ISO 8601 date, locale is not a language tag, or a parameter the list does not take' })
  list(@CurrentPrincipal() principal: Principal, @ListQuery() query: ListBudgetsQuery, @Headers('accept-language') language?: string): Promise<BudgetListDto> {
    return this.budgets.list(principal, query, this.budgets.presentation(query.locale, language));
  }

  @Get(':id')
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: BudgetDto, headers: UNCONVERTED })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse(AMOUNT_OUT_OF_RANGE)
  async show(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @Query() query: LocaleQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<BudgetDto> {
    return this.respond(principal, id, this.budgets.presentation(query.locale, language), res);
  }

  @Post()
  @RequireScope('write')
  @LanguageHeader()
  @ApiResponse({ status: 201, type: BudgetDto, description: 'Budget created, with a row (0) per category' })
  @ApiResponse({ status: 200, type: BudgetDto, description: 'The budget of that month already existed; rows added for new categories' })
  @ApiResponse({ status: 422, description: 'validation_failed (bad date) or budget_out_of_range (beyond two years back / ahead); or amount_out_of_range as for GET, the budget then made' })
  @ApiResponse({ status: 409, description: 'invalid_family_currency: the stored household currency is not ISO 4217 (nothing is created); an admin sets a valid one in household settings' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateBudgetDto,
    @Query() query: LocaleQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<BudgetDto> {
    const view = this.budgets.presentation(query.locale, language); // a bad locale is refused before any write
    const { id, created } = await this.budgets.create(principal, body);
    res.status(created ? HttpStatus.CREATED : HttpStatus.OK);
    return this.respond(principal, id, view, res);
  }

  @Patch(':id')
  @RequireScope('write')
  @LanguageHeader()
  @ApiOkResponse({ type: BudgetDto })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, description: 'validation_failed: an amount is not a decimal >= 0; or amount_out_of_range as for GET, the change then made' })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @Body() body: UpdateBudgetDto,
    @Query() query: LocaleQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<BudgetDto> {
    const view = this.budgets.presentation(query.locale, language);
    await this.budgets.update(principal, id, body);
    return this.respond(principal, id, view, res);
  }

  private async respond(principal: Principal, id: string, view: Presentation, res: Response): Promise<BudgetDto> {
    return withUnconvertedHeader(res, UNCONVERTED_HEADER, await this.budgets.show(principal, id, view));
  }
}
