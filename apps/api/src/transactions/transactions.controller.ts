import { Controller, Get, Headers, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { LocaleQuery } from '../budgets/budget.dto';
import { ListQuery } from '../common/list-query';
import { RECORD_NOT_FOUND, recordIdPipe } from '../common/record-id';
import { LanguageHeader } from '../common/request-locale';
import { ListTransactionsQuery, TransactionDto, TransactionListDto } from './transaction.dto';
import { TransactionsService } from './transactions.service';

/** The family's transactions, so that an API client can read back what its imports published. */
@ApiTags('transactions')
@Controller('transactions')
@RequireSession() // the admin app's session also works; X-Api-Key takes precedence when sent
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Get()
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: TransactionListDto, description: 'Newest first (date, then created_at, then id); split parents and their parts alike' })
  @ApiResponse({ status: 422, description: 'validation_failed naming the parameter: an id that is no UUID, a date not YYYY-MM-DD, an amount that is no decimal, a type other than income/expense, a filter given twice, a bad locale, or a parameter the list does not take' })
  list(@CurrentPrincipal() principal: Principal, @ListQuery() query: ListTransactionsQuery, @Headers('accept-language') language?: string): Promise<TransactionListDto> {
    return this.transactions.list(principal, query, language);
  }

  @Get(':id')
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({ type: TransactionDto })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, description: 'validation_failed: locale is not a language tag' })
  show(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @Query() query: LocaleQuery,
    @Headers('accept-language') language?: string,
  ): Promise<TransactionDto> {
    return this.transactions.show(principal, id, query.locale, language);
  }
}
