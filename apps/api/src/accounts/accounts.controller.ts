import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ListQuery } from '../common/list-query';
import { RECORD_NOT_FOUND, recordIdPipe } from '../common/record-id';
import { AccountDto, AccountListDto, ListAccountsQuery, ShowAccountQuery } from './account.dto';
import { AccountsService } from './accounts.service';
import { unconvertedHeaderDoc, withUnconvertedHeader } from '../common/unconverted-entries';
import { LanguageHeader } from '../common/request-locale';

const BAD_QUERY = { status: 422, description: 'validation_failed: include_disabled is not true/false/1/0, or locale is not a language tag' };
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
  constructor(private readonly accounts: AccountsService) {}

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
}
