import { Injectable } from '@nestjs/common';
import { rollForward } from '@hearth/domain/account-balance';
import { familyToday } from '@hearth/domain/budget-math';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { pageWindow } from '../common/paging';
import { requestLocale } from '../common/request-locale';
import type { WithUnconverted } from '../common/unconverted-entries';
import type { AccountDto, AccountListDto, ListAccountsQuery, ShowAccountQuery } from './account.dto';
import { presentAccount } from './account.presenter';
import { FamiliesRepository } from '../finance/families.repository';
import { AccountScope, AccountsRepository } from './accounts.repository';

@Injectable()
export class AccountsService {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly families: FamiliesRepository,
  ) {}

  /** Every account of the caller's family (Hearth has no per-member account access: imports use any of them), as of the family's today. */
  private async scopeOf(principal: Principal, query: ShowAccountQuery): Promise<AccountScope> {
    const family = await this.families.findById(principal.familyId);
    if (!family) throw ApiError.notFound();
    return {
      familyId: principal.familyId,
      includeDisabled: query.include_disabled === 'true' || query.include_disabled === '1',
      today: familyToday(family.timezone),
    };
  }

  async list(principal: Principal, query: ListAccountsQuery, acceptLanguage: string | undefined): Promise<WithUnconverted<AccountListDto>> {
    const locale = requestLocale(query.locale, acceptLanguage);
    const scope = await this.scopeOf(principal, query);
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
    const account = await this.accounts.find(await this.scopeOf(principal, query), id);
    if (!account) throw ApiError.notFound();
    const balance = rollForward(account.start, account.flows);
    return { dto: presentAccount(account, balance, locale), unconvertedEntries: balance.unconvertedEntries };
  }
}
