import { Controller, Headers, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { LocaleQuery } from '../budgets/budget.dto';
import { LanguageHeader, requestLocale } from '../common/request-locale';
import { StrictBody } from '../common/strict-body';
import { CreateTransferDto, TransferResultDto } from './transaction-write.dto';
import { TransactionWritesService } from './transaction-writes.service';

/** Money moved between two of the household's accounts, made as one action. */
@ApiTags('transactions')
@Controller('transfers')
@RequireSession()
export class TransfersController {
  constructor(private readonly writes: TransactionWritesService) {}

  @Post()
  @RequireScope('write')
  @LanguageHeader()
  @ApiCreatedResponse({ type: TransferResultDto, description: 'Both sides, linked: each shows the other in its transfer field' })
  @ApiResponse({
    status: 422,
    description: 'validation_failed naming the field: an account that is not the household\'s or the same on both sides, an amount not above 0 or with more decimals than the currency, to_amount missing across currencies, a date not YYYY-MM-DD, or a field the operation does not take',
  })
  create(
    @CurrentPrincipal() principal: Principal,
    @StrictBody() body: CreateTransferDto,
    @Query() query: LocaleQuery,
    @Headers('accept-language') language?: string,
  ): Promise<TransferResultDto> {
    return this.writes.transfer(principal, body, requestLocale(query.locale, language));
  }
}
