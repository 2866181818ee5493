import { Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { LocaleQuery } from '../budgets/budget.dto';
import { ListQuery } from '../common/list-query';
import { RECORD_NOT_FOUND, recordIdPipe } from '../common/record-id';
import { LanguageHeader, requestLocale } from '../common/request-locale';
import { StrictBody } from '../common/strict-body';
import { ListTransactionsQuery, TransactionDto, TransactionListDto } from './transaction.dto';
import {
  BulkUpdateResultDto,
  BulkUpdateTransactionsDto,
  CreateTransactionDto,
  SplitTransactionDto,
  TransactionSplitDto,
  UpdateTransactionDto,
} from './transaction-write.dto';
import { TransactionWritesService } from './transaction-writes.service';
import { TransactionsService } from './transactions.service';

const WRITE_422 =
  'validation_failed naming the field: a field the operation does not take, an amount that is no decimal or has more decimals than the currency, a date not YYYY-MM-DD, an account, category, merchant or tag that is not the household\'s, or a change that would break a split or a transfer';

/** The family's transactions: read back what imports published, and entered, corrected, split and deleted by hand. */
@ApiTags('transactions')
@Controller('transactions')
@RequireSession() // the admin app's session also works; X-Api-Key takes precedence when sent
export class TransactionsController {
  constructor(
    private readonly transactions: TransactionsService,
    private readonly writes: TransactionWritesService,
  ) {}

  @Get()
  @RequireScope('read')
  @LanguageHeader()
  @ApiOkResponse({
    type: TransactionListDto,
    description: 'Newest first (date, then created_at, then id); split parents and their parts alike. With cursor: the page after it, without a count',
  })
  @ApiResponse({ status: 422, description: 'validation_failed naming the parameter: an id that is no UUID, a date not YYYY-MM-DD, an amount that is no decimal, a type other than income/expense, a filter given twice, a cursor this list did not give, cursor with page, a bad locale, or a parameter the list does not take' })
  list(@CurrentPrincipal() principal: Principal, @ListQuery() query: ListTransactionsQuery, @Headers('accept-language') language?: string): Promise<TransactionListDto> {
    return this.transactions.list(principal, query, language);
  }

  @Post()
  @RequireScope('write')
  @LanguageHeader()
  @ApiCreatedResponse({ type: TransactionDto, description: 'Created: the transaction as GET shows it' })
  @ApiResponse({ status: 422, description: WRITE_422 })
  create(
    @CurrentPrincipal() principal: Principal,
    @StrictBody() body: CreateTransactionDto,
    @Query() query: LocaleQuery,
    @Headers('accept-language') language?: string,
  ): Promise<TransactionDto> {
    return this.writes.create(principal, body, requestLocale(query.locale, language));
  }

  // Before PATCH :id, which would otherwise take "bulk" for an id.
  @Patch('bulk')
  @RequireScope('write')
  @ApiOkResponse({ type: BulkUpdateResultDto, description: 'Every transaction named changed, or none' })
  @ApiResponse({ status: 422, description: `${WRITE_422}; or ids naming a transaction that is not the household's` })
  bulkUpdate(@CurrentPrincipal() principal: Principal, @StrictBody() body: BulkUpdateTransactionsDto): Promise<BulkUpdateResultDto> {
    return this.writes.bulkUpdate(principal, body);
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

  @Patch(':id')
  @RequireScope('write')
  @LanguageHeader()
  @ApiOkResponse({ type: TransactionDto, description: 'The fields given changed; the others as they were' })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, description: WRITE_422 })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @StrictBody() body: UpdateTransactionDto,
    @Query() query: LocaleQuery,
    @Headers('accept-language') language?: string,
  ): Promise<TransactionDto> {
    return this.writes.update(principal, id, body, requestLocale(query.locale, language));
  }

  @Delete(':id')
  @RequireScope('write')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted, with its split parts; the other side of its transfer becomes an ordinary transaction' })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, description: 'validation_failed: a split part, which goes only with its split' })
  async delete(@CurrentPrincipal() principal: Principal, @Param('id', recordIdPipe) id: string): Promise<void> {
    await this.writes.delete(principal, id);
  }

  @Post(':id/split')
  @RequireScope('write')
  @HttpCode(200)
  @LanguageHeader()
  @ApiOkResponse({ type: TransactionSplitDto, description: 'Split: the transaction is excluded and its parts count instead; a split transaction gets new parts' })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, description: `${WRITE_422}; parts that do not add up to the amount; a split part or a side of a transfer` })
  split(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @StrictBody() body: SplitTransactionDto,
    @Query() query: LocaleQuery,
    @Headers('accept-language') language?: string,
  ): Promise<TransactionSplitDto> {
    return this.writes.split(principal, id, body, requestLocale(query.locale, language));
  }

  @Delete(':id/split')
  @RequireScope('write')
  @LanguageHeader()
  @ApiOkResponse({ type: TransactionDto, description: 'Its parts deleted; the transaction counts whole again' })
  @ApiResponse(RECORD_NOT_FOUND)
  @ApiResponse({ status: 422, description: 'validation_failed: the transaction is not split' })
  unsplit(
    @CurrentPrincipal() principal: Principal,
    @Param('id', recordIdPipe) id: string,
    @Query() query: LocaleQuery,
    @Headers('accept-language') language?: string,
  ): Promise<TransactionDto> {
    return this.writes.unsplit(principal, id, requestLocale(query.locale, language));
  }
}
