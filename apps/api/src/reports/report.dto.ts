import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { LocaleQuery } from '../budgets/budget.dto';

// Query values arrive as strings and are checked by the service, so that each bad one is named in the 422.

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

export class ReportRangeQuery extends LocaleQuery {
  @ApiPropertyOptional({ type: String, format: 'date', description: 'First day of the report (YYYY-MM-DD); defaults per report' })
  @IsOptional()
  start_date?: unknown;
  @ApiPropertyOptional({ type: String, format: 'date', description: "Last day of the report (YYYY-MM-DD); defaults to the family's today" })
  @IsOptional()
  end_date?: unknown;
}

export class NetWorthQuery extends ReportRangeQuery {
  @ApiPropertyOptional({
    enum: INTERVALS,
    description: 'Distance between points; defaults to day up to 92 days, week up to 3 years, month beyond. At most 10 years of days, 50 of weeks, 100 of months',
  })
  @IsOptional()
  interval?: unknown;
}

export class AccountBalancesQuery extends NetWorthQuery {
  @ApiPropertyOptional({ type: String, format: 'uuid', description: 'Only this account (404 when the family has no such draft or active account)' })
  @IsOptional()
  account_id?: unknown;
}

/** An amount three ways. */
export class MoneyDto {
  @ApiProperty({ example: '-1234.50', description: 'Decimal string in the currency, exactly its digits, no grouping' }) amount: string;
  @ApiProperty({ type: 'integer', example: -123450, description: 'Minor units of the currency' }) cents: number;
  @ApiProperty({ example: '-$1,234.50', description: 'Formatted in the currency and the request locale' }) formatted: string;
}

class ReportRangeDto {
  @ApiProperty({ example: 'USD', description: "The family's currency: every amount is in it" }) currency: string;
  @ApiProperty({ format: 'date' }) start_date: string;
  @ApiProperty({ format: 'date' }) end_date: string;
}

export class NetWorthPointDto {
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ type: MoneyDto }) assets: MoneyDto;
  @ApiProperty({ type: MoneyDto, description: 'What is owed, positive' }) liabilities: MoneyDto;
  @ApiProperty({ type: MoneyDto, description: 'assets - liabilities' }) net_worth: MoneyDto;
}

export class NetWorthDto extends ReportRangeDto {
  @ApiProperty({ enum: INTERVALS }) interval: Interval;
  @ApiProperty({
    type: [NetWorthPointDto],
    description: 'start_date, then one point per interval after it, and end_date: the balances at the end of each day, in the family currency at that day\'s rate',
  })
  points: NetWorthPointDto[];
}

export class BalancePointDto {
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ type: MoneyDto }) balance: MoneyDto;
}

export class AccountBalanceSeriesDto {
  @ApiProperty({ format: 'uuid' }) account_id: string;
  @ApiProperty({ example: 'USD', description: "The account's own currency: its balances are in it" }) currency: string;
  @ApiProperty({ enum: ['asset', 'liability'] }) classification: string;
  @ApiProperty({ type: [BalancePointDto] }) points: BalancePointDto[];
}

export class AccountBalancesDto {
  @ApiProperty({ format: 'date' }) start_date: string;
  @ApiProperty({ format: 'date' }) end_date: string;
  @ApiProperty({ enum: INTERVALS }) interval: Interval;
  @ApiProperty({ type: [AccountBalanceSeriesDto], description: 'Draft and active accounts, by name' }) accounts: AccountBalanceSeriesDto[];
}

export class CashFlowMonthDto {
  @ApiProperty({ format: 'date', description: "First day of the budget month (the family's month_start_day), or start_date when later" }) start_date: string;
  @ApiProperty({ format: 'date', description: 'Last day of the budget month, or end_date when earlier' }) end_date: string;
  @ApiProperty({ example: 'January 2025', description: 'The budget month\'s name' }) name: string;
  @ApiProperty({ type: MoneyDto, description: 'Money in, refunds included' }) income: MoneyDto;
  @ApiProperty({ type: MoneyDto, description: 'Money out' }) spending: MoneyDto;
  @ApiProperty({ type: MoneyDto, description: 'income - spending' }) net: MoneyDto;
}

export class CashFlowDto extends ReportRangeDto {
  @ApiProperty({ type: [CashFlowMonthDto], description: 'Every budget month the range touches, oldest first, empty ones included' }) months: CashFlowMonthDto[];
  @ApiProperty({ type: MoneyDto }) income: MoneyDto;
  @ApiProperty({ type: MoneyDto }) spending: MoneyDto;
  @ApiProperty({ type: MoneyDto }) net: MoneyDto;
}

export class ReportCategoryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: '#6172F3' }) color: string;
  @ApiProperty({ example: 'shapes', description: 'Lucide icon name' }) icon: string;
}

export class CategorySpendingDto {
  @ApiProperty({ type: ReportCategoryDto }) category: ReportCategoryDto;
  @ApiProperty({ type: MoneyDto, description: 'Spending of the category and its subcategories, net of refunds' }) spending: MoneyDto;
  @ApiProperty({ example: 0.25, description: 'Share of total spending, 0..1' }) share: number;
}

export class SpendingByCategoryDto extends ReportRangeDto {
  @ApiProperty({ type: [CategorySpendingDto], description: 'Top-level categories that had spending, the largest first' }) categories: CategorySpendingDto[];
  @ApiProperty({ type: MoneyDto, description: 'Spending of transactions without a category, net of refunds' }) uncategorized: MoneyDto;
  @ApiProperty({ type: MoneyDto, description: 'The categories and uncategorized together' }) total: MoneyDto;
}
