import { Controller, Get, Headers, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ListQuery } from '../common/list-query';
import { RECORD_NOT_FOUND, recordIdPipe } from '../common/record-id';
import { AccountDto, AccountListDto, ListAccountsQuery, ShowAccountQuery } from './account.dto';
import { AccountsService } from './accounts.service';
import { LanguageHeader } from '../common/request-locale';

const BAD_QUERY = { status: 422, description: 'validation_failed: include_disabled is not true/false/1/0, or locale is not a language tag' };
const BAD_LIST_QUERY = { status: 422, description: 'validation_failed: include_disabled is not true/false/1/0, locale is not a language tag, or a parameter the list does not take' };

/** The family's accounts, so that an API client can learn the account_id an import takes. */
@ApiTags('accounts')
@Controller('accounts')
@RequireSession() // the admin app's session also works; X-Api-Key takes precedence when sent
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: AccountListDto, description: 'By name; draft and active accounts unless include_disabled' })
  @ApiResponse(BAD_LIST_QUERY)
  list(@CurrentPrincipal() principal: Principal, @ListQuery() query: ListAccountsQuery, @Headers('accept-language') language?: string): Promise<AccountListDto> {
    return this.accounts.list(principal, query, language);
  }

  @Get(':id')
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: AccountDto })
  @ApiResponse({ ...RECORD_NOT_FOUND, description: `${RECORD_NOT_FOUND.description}, or disabled without include_disabled` })
  @ApiResponse(BAD_QUERY)
  show(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @Query() query: ShowAccountQuery,
    @Headers('accept-language') language?: string,
  ): Promise<AccountDto> {
    return this.accounts.show(principal, id, query, language);
  }
}
