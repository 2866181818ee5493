import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ListQuery } from '../common/list-query';
import { RECORD_NOT_FOUND } from '../common/record-id';
import { LanguageHeader } from '../common/request-locale';
import { unconvertedHeaderDoc, withUnconvertedHeader } from '../common/unconverted-entries';
import { AccountBalancesDto, AccountBalancesQuery, CashFlowDto, NetWorthDto, NetWorthQuery, ReportRangeQuery, SpendingByCategoryDto } from './report.dto';
import { ReportsService } from './reports.service';

/** Foreign-currency entries (and, for net worth, balances) left out of the figures: no exchange rate on their day. */
const UNCONVERTED_HEADER = 'X-Report-Unconverted-Entries';
const UNCONVERTED = unconvertedHeaderDoc(UNCONVERTED_HEADER, 'Present when amounts in another currency had no exchange rate on their day and were left out');

const BAD_RANGE =
  'validation_failed naming the parameter: a date not YYYY-MM-DD or outside 1900-01-01..2999-12-31, start_date after end_date, a bad locale, or a parameter the report does not take';
const BAD_SERIES = `${BAD_RANGE}; an interval other than day, week or month, or a range longer than it allows (10 years of days, 50 of weeks, 100 of months)`;
const BAD_CURRENCY = { status: 409, description: 'invalid_family_currency: the stored household currency is not ISO 4217; an admin sets a valid one in household settings' };

/** The dashboard's figures, read from the ledger: net worth over time, balances per account, cash flow and spending by category. */
@ApiTags('reports')
@Controller('reports')
@RequireSession() // the admin app's session also works; X-Api-Key takes precedence when sent
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('net_worth')
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: NetWorthDto, headers: UNCONVERTED, description: 'Assets, liabilities and net worth at each point; default range: the year up to today' })
  @ApiResponse({ status: 422, description: BAD_SERIES })
  @ApiResponse(BAD_CURRENCY)
  async netWorth(
    @CurrentPrincipal() principal: Principal,
    @ListQuery() query: NetWorthQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<NetWorthDto> {
    return withUnconvertedHeader(res, UNCONVERTED_HEADER, await this.reports.netWorth(principal, query, language));
  }

  @Get('account_balances')
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: AccountBalancesDto, headers: UNCONVERTED, description: "Each account's balance at each point, in its own currency; default range: the 90 days up to today" })
  @ApiResponse({ ...RECORD_NOT_FOUND, description: 'account_id names no draft or active account of the family' })
  @ApiResponse({ status: 422, description: `${BAD_SERIES}; an account_id that is no UUID` })
  async accountBalances(
    @CurrentPrincipal() principal: Principal,
    @ListQuery() query: AccountBalancesQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<AccountBalancesDto> {
    return withUnconvertedHeader(res, UNCONVERTED_HEADER, await this.reports.accountBalances(principal, query, language));
  }

  @Get('cash_flow')
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: CashFlowDto, headers: UNCONVERTED, description: 'Income, spending and net by budget month, counted as budgets count; default range: the last 12 budget months' })
  @ApiResponse({ status: 422, description: `${BAD_RANGE}; a range of more than 100 years` })
  @ApiResponse(BAD_CURRENCY)
  async cashFlow(
    @CurrentPrincipal() principal: Principal,
    @ListQuery() query: ReportRangeQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<CashFlowDto> {
    return withUnconvertedHeader(res, UNCONVERTED_HEADER, await this.reports.cashFlow(principal, query, language));
  }

  @Get('spending_by_category')
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: SpendingByCategoryDto, headers: UNCONVERTED, description: "Spending per top-level category, subcategories rolled up; default range: this budget month" })
  @ApiResponse({ status: 422, description: BAD_RANGE })
  @ApiResponse(BAD_CURRENCY)
  async spendingByCategory(
    @CurrentPrincipal() principal: Principal,
    @ListQuery() query: ReportRangeQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<SpendingByCategoryDto> {
    return withUnconvertedHeader(res, UNCONVERTED_HEADER, await this.reports.spendingByCategory(principal, query, language));
  }
}
