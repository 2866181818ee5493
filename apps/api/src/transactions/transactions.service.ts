import { Injectable } from '@nestjs/common';
import { parseIsoDate } from '@hearth/domain/budget-math';
import { parseDecimal } from '@hearth/domain/money';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { pageWindow, requestedPage } from '../common/paging';
import { singleParam, strictIsoDateParam, uuidListParam, uuidParam } from '../common/query-params';
import { requestLocale } from '../common/request-locale';
import type { ListTransactionsQuery, TransactionDto, TransactionListDto } from './transaction.dto';
import { presentTransaction } from './transaction.presenter';
import { ListPosition, TransactionFilter, TransactionRecord, TransactionsRepository } from './transactions.repository';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EXACT_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?$/;

/** A next_cursor: the last row's position in the list's order, opaque to clients (base64url of JSON). */
const cursorOf = (row: TransactionRecord): string => Buffer.from(JSON.stringify([row.date, row.createdAtExact, row.id])).toString('base64url');

/**
 * The position a cursor gives, or 'first' for an empty cursor: the first page by position, without a count, for a
 * client that pages by cursor from the start (a count reads every matching row). Anything this list did not give is
 * refused by name.
 */
function cursorParam(value: unknown): ListPosition | 'first' | undefined {
  const text = singleParam('cursor', value);
  if (text === undefined) return undefined;
  if (text === '') return 'first';
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    position = undefined;
  }
  const valid = (p: unknown): p is [string, string, string] => {
    if (!Array.isArray(p) || p.length !== 3 || !p.every((part) => typeof part === 'string')) return false;
    try {
      parseIsoDate(p[0]);
    } catch {
      return false;
    }
    return EXACT_TIMESTAMP.test(p[1]) && UUID.test(p[2]);
  };
  if (!valid(position)) throw ApiError.validation(["cursor must be a next_cursor this list gave"]);
  return { date: position[0], createdAt: position[1], id: position[2] };
}

/** Every filter checked by name; another family's ids pass and simply match nothing. */
const filterOf = (principal: Principal, query: ListTransactionsQuery): TransactionFilter => ({
  familyId: principal.familyId,
  accountIds: idsParam(query, 'account_id'),
  categoryIds: idsParam(query, 'category_id'),
  merchantIds: idsParam(query, 'merchant_id'),
  tagIds: uuidListParam('tag_ids[]', query['tag_ids[]']),
  importId: uuidParam('import_id', query.import_id),
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

  /**
   * A page by number (with its count, as Sure pages) or, given a cursor, the page after it (keyset, no count; an empty
   * cursor is the first page so). Either
   * way one row more than the page is read, to tell whether a next_cursor follows.
   */
  async list(principal: Principal, query: ListTransactionsQuery, acceptLanguage: string | undefined): Promise<TransactionListDto> {
    const locale = requestLocale(query.locale, acceptLanguage);
    const filter = filterOf(principal, query);
    const after = cursorParam(query.cursor);
    if (after && query.page !== undefined) throw ApiError.validation(['cursor and page cannot be given together: a cursor says where its page starts']);
    const { window, pagination } = after
      ? { window: { limit: requestedPage(query).perPage, offset: 0 }, pagination: null }
      : pageWindow(query, await this.transactions.count(filter));
    const rows = await this.transactions.list(filter, { ...window, limit: window.limit + 1 }, after === 'first' ? undefined : after);
    const page = rows.slice(0, window.limit);
    return {
      transactions: page.map((row) => presentTransaction(row, locale)),
      pagination,
      next_cursor: rows.length > window.limit ? cursorOf(page[page.length - 1]) : null,
    };
  }

  async show(principal: Principal, id: string, locale: string | undefined, acceptLanguage: string | undefined): Promise<TransactionDto> {
    const found = await this.transactions.find(principal.familyId, id);
    if (!found) throw ApiError.notFound();
    return presentTransaction(found, requestLocale(locale, acceptLanguage));
  }
}
