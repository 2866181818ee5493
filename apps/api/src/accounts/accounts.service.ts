import { Injectable } from '@nestjs/common';
import { rollForward } from '@hearth/domain/account-balance';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { pageWindow } from '../common/paging';
import { requestLocale } from '../common/request-locale';
import type { WithUnconverted } from '../common/unconverted-entries';
import type { AccountDto, AccountListDto, ListAccountsQuery, ShowAccountQuery } from './account.dto';
import { presentAccount } from './account.presenter';
import { AccountScope, AccountsRepository } from './accounts.repository';

/** Every account of the caller's family: Hearth has no per-member account access (imports use any of them). */
const scopeOf = (principal: Principal, query: ShowAccountQuery): AccountScope => ({
  familyId: principal.familyId,
  includeDisabled: query.include_disabled === 'true' || query.include_disabled === '1',
});

@Injectable()
export class AccountsService {
  constructor(private readonly accounts: AccountsRepository) {}

  async list(principal: Principal, query: ListAccountsQuery, acceptLanguage: string | undefined): Promise<WithUnconverted<AccountListDto>> {
    const locale = requestLocale(query.locale, acceptLanguage);
    const scope = scopeOf(principal, query);
    const { window, pagination } = pageWindow(query, await this.accounts.count(scope));
    const rows = await this.accounts.list(scope, window);
    const balances = rows.map((row) => rollForward(row.start, row.flows));
    return {
      dto: { accounts: rows.map((row, i) => presentAccount(row, balances[i], locale)), pagination },
      unconvertedEntries: balances.reduce((n, b) => n + b.unconvertedEntries, 0),
    };
  }

  async show(principal: Principal, id: string, query: ShowAccountQuery, acceptLanguage: string | undefined): Promise<WithUnconverted<AccountDto>> {
    const locale = requestLocale(query.locale, acceptLanguage);
    const account = await this.accounts.find(scopeOf(principal, query), id);
    if (!account) throw ApiError.notFound();
    const balance = rollForward(account.start, account.flows);
    return { dto: presentAccount(account, balance, locale), unconvertedEntries: balance.unconvertedEntries };
  }
}
