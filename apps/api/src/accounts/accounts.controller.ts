import { Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { requestOrigin } from '../audit/audit.service';
import { LocaleQuery } from '../budgets/budget.dto';
import { StrictBody } from '../common/strict-body';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ListQuery } from '../common/list-query';
import { RECORD_NOT_FOUND, recordIdPipe } from '../common/record-id';
import {
  AccountDeletionDto,
  AccountDto,
  AccountListDto,
  CreateAccountDto,
  CreateValuationDto,
  ListAccountsQuery,
  ShowAccountQuery,
  UpdateAccountDto,
  ValuationDto,
  ValuationListDto,
} from './account.dto';
import { AccountWritesService } from './account-writes.service';
import { AccountsService } from './accounts.service';
import { unconvertedHeaderDoc, withUnconvertedHeader } from '../common/unconverted-entries';
import { LanguageHeader, requestLocale } from '../common/request-locale';

const BAD_QUERY = { status: 422, description: 'validation_failed: include_disabled is not true/false/1/0, or locale is not a language tag' };
const WRITE_422 =
  'validation_failed naming the field: a field the operation does not take, a name taken by another account, an account_type not known or of the other classification, a currency not ISO 4217 or changed while the account holds entries, an amount that is no decimal or has more decimals than the currency, a date not YYYY-MM-DD';
const BAD_LIST_QUERY = { status: 422, description: 'validation_failed: include_disabled is not true/false/1/0, locale is not a language tag, or a parameter the list does not take' };

/** Entries in another currency left out of the balances because no exchange rate to the account's currency exists on their day. */
const UNCONVERTED_HEADER = 'X-Balance-Unconverted-Entries';
const UNCONVERTED = unconvertedHeaderDoc(UNCONVERTED_HEADER, 'Present when foreign-currency entries had no exchange rate on their day and were left out of a balance');

/**
 * The family's accounts, so that an API client can learn the account_id an import takes, with balances rolled forward
 * from their entries (rollForward).
 */
@ApiTags('accounts')
@Controller('accounts')
@RequireSession() // the admin app's session also works; X-Api-Key takes precedence when sent
export class AccountsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly writes: AccountWritesService,
  ) {}

  @Get()
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: AccountListDto, description: 'By name; draft and active accounts unless include_disabled', headers: UNCONVERTED })
  @ApiResponse(BAD_LIST_QUERY)
  async list(
    @CurrentPrincipal() principal: Principal,
    @ListQuery() query: ListAccountsQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<AccountListDto> {
    return withUnconvertedHeader(res, UNCONVERTED_HEADER, await this.accounts.list(principal, query, language));
  }

  @Get(':id')
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: AccountDto, headers: UNCONVERTED })
  @ApiResponse({ ...RECORD_NOT_FOUND, description: `${RECORD_NOT_FOUND.description}, or disabled without include_disabled` })
  @ApiResponse(BAD_QUERY)
  async show(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @Query() query: ShowAccountQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<AccountDto> {
    return withUnconvertedHeader(res, UNCONVERTED_HEADER, await this.accounts.show(principal, id, query, language));
  }

  @Post()
  @RequireScope('write')
  @LanguageHeader()
  @ApiCreatedResponse({ type: AccountDto, description: 'Created with its opening balance (a valuation of kind opening_anchor): the account as GET shows it' })
  @ApiResponse({ status: 422, description: WRITE_422 })
  async create(
    @CurrentPrincipal() principal: Principal,
    @StrictBody() body: CreateAccountDto,
    @Query() query: LocaleQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<AccountDto> {
    const id = await this.writes.create(principal, body);
    return withUnconvertedHeader(res, UNCONVERTED_HEADER, await this.accounts.show(principal, id, { locale: query.locale, include_disabled: 'true' }, language));
  }

  @Patch(':id')
  @RequireScope('write')
  @LanguageHeader()
  @ApiOkResponse({ type: AccountDto, description: 'The fields given changed; closed: true closes it, false reopens it' })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, description: WRITE_422 })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @StrictBody() body: UpdateAccountDto,
    @Query() query: LocaleQuery,
    @Res({ passthrough: true }) res: Response,
    @Headers('accept-language') language?: string,
  ): Promise<AccountDto> {
    await this.writes.update(principal, id, body);
    return withUnconvertedHeader(res, UNCONVERTED_HEADER, await this.accounts.show(principal, id, { locale: query.locale, include_disabled: 'true' }, language));
  }

  @Get(':id/deletion')
  @RequireScope('read')
  @ApiOkResponse({ type: AccountDeletionDto, description: 'What DELETE would take with the account: read it before deleting' })
  @ApiResponse(RECORD_NOT_FOUND)
  deletion(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string): Promise<AccountDeletionDto> {
    return this.writes.deletion(principal, id);
  }

  @Delete(':id')
  @RequireScope('write')
  @ApiOkResponse({
    type: AccountDeletionDto,
    description: 'Deleted in one transaction with its transactions, valuations and trades (audit event account_deleted): what went. Imports stay listed; the other side of a transfer stays as an ordinary transaction',
  })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 409, description: 'import_in_progress: an import into the account is publishing or reverting' })
  remove(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string, @Req() req: Request): Promise<AccountDeletionDto> {
    return this.writes.remove(principal, id, requestOrigin(req));
  }

  @Get(':id/valuations')
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: ValuationListDto, description: 'The opening balance and every balance set since, newest first' })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, description: 'validation_failed: locale is not a language tag' })
  valuations(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @Query() query: LocaleQuery,
    @Headers('accept-language') language?: string,
  ): Promise<ValuationListDto> {
    return this.writes.valuations(principal, id, requestLocale(query.locale, language));
  }

  @Post(':id/valuations')
  @RequireScope('write')
  @LanguageHeader()
  @ApiCreatedResponse({ type: ValuationDto, description: 'The balance as of the end of the date; the account rolls forward from it. One set by hand the same day is replaced' })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, description: WRITE_422 })
  addValuation(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @StrictBody() body: CreateValuationDto,
    @Query() query: LocaleQuery,
    @Headers('accept-language') language?: string,
  ): Promise<ValuationDto> {
    return this.writes.addValuation(principal, id, body, requestLocale(query.locale, language));
  }

  @Delete(':id/valuations/:valuation_id')
  @RequireScope('write')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted: the balance rolls forward from the valuation before it' })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, description: 'validation_failed: the opening balance, which stays' })
  async deleteValuation(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @Param('valuation_id', recordIdPipe) valuationId: string,
  ): Promise<void> {
    await this.writes.deleteValuation(principal, id, valuationId);
  }
}
