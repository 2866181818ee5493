import { Injectable } from '@nestjs/common';
import { parseDecimal } from '@hearth/domain/money';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { pageWindow } from '../common/paging';
import { singleParam, strictIsoDateParam, uuidListParam, uuidParam } from '../common/query-params';
import { requestLocale } from '../common/request-locale';
import type { ListTransactionsQuery, TransactionDto, TransactionListDto } from './transaction.dto';
import { presentTransaction } from './transaction.presenter';
import { TransactionFilter, TransactionsRepository } from './transactions.repository';

/** `x_id` and `x_ids[]` together: both apply, so only ids in both. */
function idsParam(query: ListTransactionsQuery, single: 'account_id' | 'category_id' | 'merchant_id'): string[] | undefined {
  const list = `${single}s[]` as const;
  const one = uuidParam(single, query[single]);
  const many = uuidListParam(list, query[list]);
  if (one === undefined) return many;
  return many === undefined || many.some((id) => id.toLowerCase() === one.toLowerCase()) ? [one] : [];
}

/** A plain decimal such as "-12.5": no exponent or grouping, which SQL numeric would read differently or not at all. */
function decimalParam(name: string, value: unknown): string | undefined {
  const text = singleParam(name, value);
  if (text !== undefined && !parseDecimal(text)) throw ApiError.validation([`${name} must be a decimal number such as -12.50`]);
  return text;
}

function typeParam(value: unknown): TransactionFilter['type'] {
  const text = singleParam('type', value);
  if (text === undefined || text === 'income' || text === 'expense') return text;
  throw ApiError.validation(['type must be income or expense']);
}

/** Every filter checked by name; another family's ids pass and simply match nothing. */
const filterOf = (principal: Principal, query: ListTransactionsQuery): TransactionFilter => ({
  familyId: principal.familyId,
  accountIds: idsParam(query, 'account_id'),
  categoryIds: idsParam(query, 'category_id'),
  merchantIds: idsParam(query, 'merchant_id'),
  tagIds: uuidListParam('tag_ids[]', query['tag_ids[]']),
  startDate: strictIsoDateParam('start_date', query.start_date),
  endDate: strictIsoDateParam('end_date', query.end_date),
  minAmount: decimalParam('min_amount', query.min_amount),
  maxAmount: decimalParam('max_amount', query.max_amount),
  type: typeParam(query.type),
  search: singleParam('search', query.search),
});

@Injectable()
export class TransactionsService {
  constructor(private readonly transactions: TransactionsRepository) {}

  async list(principal: Principal, query: ListTransactionsQuery, acceptLanguage: string | undefined): Promise<TransactionListDto> {
    const locale = requestLocale(query.locale, acceptLanguage);
    const filter = filterOf(principal, query);
    const { window, pagination } = pageWindow(query, await this.transactions.count(filter));
    const rows = await this.transactions.list(filter, window);
    return { transactions: rows.map((row) => presentTransaction(row, locale)), pagination };
  }

  async show(principal: Principal, id: string, locale: string | undefined, acceptLanguage: string | undefined): Promise<TransactionDto> {
    const found = await this.transactions.find(principal.familyId, id);
    if (!found) throw ApiError.notFound();
    return presentTransaction(found, requestLocale(locale, acceptLanguage));
  }
}
