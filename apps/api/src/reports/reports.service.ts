import { Injectable } from '@nestjs/common';
import { budgetName, budgetPeriodFor, familyToday, topLevelSpending } from '@hearth/domain/budget-math';
import type { IsoDate } from '@hearth/domain/budget-math';
import { convertedSumToMinorUnits, currencyCodes, formatDecimal, formatMoney, minorUnitDigits } from '@hearth/domain/money';
import type { MinorUnits } from '@hearth/domain/money';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { assertUsableFamilyCurrency } from '../common/currency-field';
import { familyScopeOf } from '../common/family-scope';
import { exactCents } from '../common/money-fields';
import { singleParam, strictIsoDateParam, uuidParam } from '../common/query-params';
import { requestLocale } from '../common/request-locale';
import type { WithUnconverted } from '../common/unconverted-entries';
import type { Family } from '../finance/entities/family.entity';
import { FamiliesRepository } from '../finance/families.repository';
import { CurrencyDigits, ReportsRepository } from '../ledger/reports.repository';
import {
  AccountBalancesDto,
  AccountBalancesQuery,
  CashFlowDto,
  CashFlowMonthDto,
  Interval,
  INTERVALS,
  MoneyDto,
  NetWorthDto,
  NetWorthQuery,
  ReportRangeQuery,
  SpendingByCategoryDto,
} from './report.dto';
import { addDays, addMonths, defaultInterval, MAX_YEARS, seriesDates, stepsWithin } from './report-range';

/** Dates a report takes: far enough for any household's history, near enough for every engine's date type. */
const EARLIEST = '1900-01-01';
const LATEST = '2999-12-31';

/** Cash flow is by month: at most this many years of them. */
const MAX_CASH_FLOW_YEARS = 100;

let digitsTable: CurrencyDigits | undefined;
/** The currencies whose minor unit is not a hundredth, from Intl, for the SQL that scales converted amounts. */
function currencyDigits(): CurrencyDigits {
  if (!digitsTable) {
    const odd = currencyCodes().filter((code) => minorUnitDigits(code) !== 2);
    digitsTable = { codes: odd, digits: odd.map(minorUnitDigits) };
  }
  return digitsTable;
}

interface Range {
  start: IsoDate;
  end: IsoDate;
}

/** A report's family: its currency (every amount is in it), its today and its budget month. */
interface ReportFamily {
  family: Family;
  today: IsoDate;
}

@Injectable()
export class ReportsService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly families: FamiliesRepository,
  ) {}

  async netWorth(principal: Principal, query: NetWorthQuery, acceptLanguage: string | undefined): Promise<WithUnconverted<NetWorthDto>> {
    const locale = requestLocale(query.locale, acceptLanguage);
    const { family, today } = await this.familyOf(principal);
    const { start, end } = this.range(query, today, addDays(addMonths(today, -12), 1));
    const interval = this.interval(query.interval, start, end);
    const currency = family.currency;
    const { groups, unconvertedEntries } = await this.reports.netWorth(
      familyScopeOf(principal),
      { start, end, interval, steps: stepsWithin(start, end, interval) },
      currency,
      currencyDigits(),
    );
    const totals = new Map(seriesDates(start, end, interval).map((date) => [date, { assets: 0n, liabilities: 0n }]));
    let missingRates = 0;
    for (const group of groups) {
      const point = totals.get(group.date);
      if (!point) continue;
      missingRates += group.missingRates;
      const amount = group.product === null ? 0n : convertedSumToMinorUnits(group.product, group.currency, currency);
      if (group.classification === 'liability') point.liabilities += amount;
      else point.assets += amount;
    }
    const money = (field: string, amount: MinorUnits) => moneyDto(field, amount, currency, locale);
    return {
      dto: {
        currency,
        start_date: start,
        end_date: end,
        interval,
        points: [...totals].map(([date, { assets, liabilities }]) => ({
          date,
          assets: money('assets', assets),
          liabilities: money('liabilities', liabilities),
          net_worth: money('net_worth', assets - liabilities),
        })),
      },
      unconvertedEntries: unconvertedEntries + missingRates,
    };
  }

  async accountBalances(principal: Principal, query: AccountBalancesQuery, acceptLanguage: string | undefined): Promise<WithUnconverted<AccountBalancesDto>> {
    const locale = requestLocale(query.locale, acceptLanguage);
    const accountId = uuidParam('account_id', query.account_id);
    const { today } = await this.familyOf(principal);
    const { start, end } = this.range(query, today, addDays(today, -89));
    const interval = this.interval(query.interval, start, end);
    const { accounts, unconverted } = await this.reports.accountBalances(
      familyScopeOf(principal),
      { start, end, interval, steps: stepsWithin(start, end, interval) },
      accountId ? [accountId] : null,
      currencyDigits(),
    );
    if (accountId && !accounts.length) throw ApiError.notFound();
    return {
      dto: {
        start_date: start,
        end_date: end,
        interval,
        accounts: accounts.map((account) => ({
          account_id: account.id,
          currency: account.currency,
          classification: account.classification,
          points: account.points.map((point) => ({ date: point.date, balance: moneyDto('balance', BigInt(point.balance), account.currency, locale) })),
        })),
      },
      unconvertedEntries: unconverted,
    };
  }

  async cashFlow(principal: Principal, query: ReportRangeQuery, acceptLanguage: string | undefined): Promise<WithUnconverted<CashFlowDto>> {
    const locale = requestLocale(query.locale, acceptLanguage);
    const { family, today } = await this.familyOf(principal);
    const { startDate: thisMonth } = budgetPeriodFor(today, family.monthStartDay);
    const { start, end } = this.range(query, today, addMonths(thisMonth, -11));
    if (end > addMonths(start, 12 * MAX_CASH_FLOW_YEARS)) {
      throw ApiError.validation([`end_date is more than ${MAX_CASH_FLOW_YEARS} years after start_date: ask for a shorter range`]);
    }
    const currency = family.currency;
    const groups = await this.reports.cashFlow(familyScopeOf(principal), start, end, currency, family.monthStartDay);
    const months = new Map<IsoDate, { income: MinorUnits; spending: MinorUnits }>();
    for (let month = budgetPeriodFor(start, family.monthStartDay); month.startDate <= end; month = budgetPeriodFor(addDays(month.endDate, 1), family.monthStartDay)) {
      months.set(month.startDate, { income: 0n, spending: 0n });
    }
    for (const group of groups) {
      const month = months.get(group.month);
      if (!month) continue;
      const amount = convertedSumToMinorUnits(group.product, group.currency, currency);
      if (group.isExpense) month.spending += amount;
      else month.income += amount;
    }
    const money = (field: string, amount: MinorUnits) => moneyDto(field, amount, currency, locale);
    const figures = (income: MinorUnits, spending: MinorUnits) => ({ income: money('income', income), spending: money('spending', spending), net: money('net', income - spending) });
    const list: CashFlowMonthDto[] = [...months].map(([monthStart, { income, spending }]) => {
      const period = budgetPeriodFor(monthStart, family.monthStartDay);
      return {
        start_date: period.startDate < start ? start : period.startDate,
        end_date: period.endDate > end ? end : period.endDate,
        name: budgetName(period, locale),
        ...figures(income, spending),
      };
    });
    const sum = (pick: (m: { income: MinorUnits; spending: MinorUnits }) => MinorUnits) => [...months.values()].reduce((total, m) => total + pick(m), 0n);
    return {
      dto: { currency, start_date: start, end_date: end, months: list, ...figures(sum((m) => m.income), sum((m) => m.spending)) },
      unconvertedEntries: groups.reduce((n, group) => n + group.missingRates, 0),
    };
  }

  async spendingByCategory(principal: Principal, query: ReportRangeQuery, acceptLanguage: string | undefined): Promise<WithUnconverted<SpendingByCategoryDto>> {
    const locale = requestLocale(query.locale, acceptLanguage);
    const { family, today } = await this.familyOf(principal);
    const thisMonth = budgetPeriodFor(today, family.monthStartDay);
    const { start, end } = this.range(query, thisMonth.endDate < today ? today : thisMonth.endDate, thisMonth.startDate);
    const currency = family.currency;
    const groups = await this.reports.spendingByCategory(familyScopeOf(principal), start, end, currency);
    const activity = groups.map((group) => {
      const amount = convertedSumToMinorUnits(group.product, group.currency, currency);
      return { categoryId: group.categoryId, expense: group.isExpense ? amount : 0n, income: group.isExpense ? 0n : amount };
    });
    // Each group already names its top-level category: an empty tree makes every id its own top level.
    const spending = topLevelSpending([], activity);
    const details = new Map(groups.filter((group) => group.categoryId !== null).map((group) => [group.categoryId!, group]));
    const total = [...spending.byCategory.values()].reduce((sum, amount) => sum + amount, spending.uncategorized);
    const share = (amount: MinorUnits) => (total === 0n ? 0 : Math.round((Number(amount) / Number(total)) * 10_000) / 10_000);
    const money = (field: string, amount: MinorUnits) => moneyDto(field, amount, currency, locale);
    const categories = [...spending.byCategory]
      .filter(([, amount]) => amount > 0n)
      .map(([id, amount]) => ({ detail: details.get(id)!, amount }))
      .sort((a, b) => (a.amount === b.amount ? a.detail.name!.localeCompare(b.detail.name!) : a.amount > b.amount ? -1 : 1))
      .map(({ detail, amount }) => ({
        category: { id: detail.categoryId!, name: detail.name!, color: detail.color!, icon: detail.icon! },
        spending: money('spending', amount),
        share: share(amount),
      }));
    return {
      dto: { currency, start_date: start, end_date: end, categories, uncategorized: money('uncategorized', spending.uncategorized), total: money('total', total) },
      unconvertedEntries: groups.reduce((n, group) => n + group.missingRates, 0),
    };
  }

  private async familyOf(principal: Principal): Promise<ReportFamily> {
    const family = await this.families.findById(principal.familyId);
    if (!family) throw ApiError.notFound();
    assertUsableFamilyCurrency(family.currency); // every amount is converted to it
    return { family, today: familyToday(family.timezone) };
  }

  /** start_date and end_date, each checked by name, defaulting to `defaultEnd` and `defaultStart` (moved back when after the end). */
  private range(query: ReportRangeQuery, defaultEnd: IsoDate, defaultStart: IsoDate): Range {
    const date = (name: string, value: unknown) => {
      const text = strictIsoDateParam(name, value);
      if (text !== undefined && (text < EARLIEST || text > LATEST)) throw ApiError.validation([`${name} must be between ${EARLIEST} and ${LATEST}`]);
      return text;
    };
    const asked = { start: date('start_date', query.start_date), end: date('end_date', query.end_date) };
    const end = asked.end ?? defaultEnd;
    const start = asked.start ?? (defaultStart <= end ? defaultStart : end);
    if (start > end) throw ApiError.validation([`start_date (${start}) must be on or before end_date (${end})`]);
    return { start, end };
  }

  private interval(value: unknown, start: IsoDate, end: IsoDate): Interval {
    const text = singleParam('interval', value);
    if (text !== undefined && !(INTERVALS as readonly string[]).includes(text)) throw ApiError.validation([`interval must be one of ${INTERVALS.join(', ')}`]);
    const interval = (text as Interval | undefined) ?? defaultInterval(start, end);
    const years = MAX_YEARS[interval];
    if (end > addMonths(start, 12 * years)) {
      throw ApiError.validation([`end_date is more than ${years} years after start_date: at most ${years} years of ${interval}s; ask for a longer interval or a shorter range`]);
    }
    return interval;
  }
}

/** An amount as a decimal string, minor units and a formatted string; one beyond an exact JSON integer is a 422 naming the field. */
function moneyDto(field: string, amount: MinorUnits, currency: string, locale: string): MoneyDto {
  return { amount: formatDecimal(amount, currency), cents: exactCents(field, amount, currency, locale), formatted: formatMoney(amount, currency, locale) };
}
