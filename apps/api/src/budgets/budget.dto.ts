import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { LenientPageParam, LenientPerPageParam, PaginationDto } from '../common/paging';

// Query values arrive as strings and are checked by the service, so that bad dates and ids get the exact
// validation messages of the budgets API rather than generic ones.

export class LocaleQuery {
  @ApiPropertyOptional({ description: 'Locale of money strings and names (else Accept-Language, else en)', example: 'de' })
  @IsOptional()
  @IsString()
  @MaxLength(35)
  locale?: string;
}

export class ListBudgetsQuery extends LocaleQuery {
  @LenientPageParam() page?: string;
  @LenientPerPageParam() per_page?: string;
  @ApiPropertyOptional({ format: 'date', description: 'Budgets starting on or after this ISO 8601 date' })
  @IsOptional()
  start_date?: string;
  @ApiPropertyOptional({ format: 'date', description: 'Budgets ending on or before this ISO 8601 date' })
  @IsOptional()
  end_date?: string;
}

export class ListBudgetCategoriesQuery extends ListBudgetsQuery {
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() budget_id?: string;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() category_id?: string;
}

const AMOUNT = {
  oneOf: [{ type: 'string' }, { type: 'number' }],
  example: '3000.00',
  description: 'Decimal amount in the budget currency, >= 0, without grouping (string recommended); more decimals than the currency has are refused (422)',
};

export class CreateBudgetDto {
  @ApiProperty({ type: String, format: 'date', example: '2025-01-01', description: 'Any date of the budget month to find or create' })
  @IsOptional()
  start_date?: string;
}

export class UpdateBudgetDto {
  @ApiPropertyOptional({ ...AMOUNT, nullable: true, description: `${AMOUNT.description}; null: not initialized` })
  @IsOptional()
  budgeted_spending?: unknown;
  @ApiPropertyOptional({ ...AMOUNT, nullable: true }) @IsOptional() expected_income?: unknown;
}

export class UpdateBudgetCategoryDto {
  @ApiProperty({ ...AMOUNT, description: `${AMOUNT.description}; 0 on a subcategory: share the parent's budget` })
  @IsOptional()
  budgeted_spending?: unknown;
}

const money = (description: string, nullable = false) =>
  ApiProperty({ type: String, nullable, description: `${description}, formatted in the budget currency and request locale`, example: '$1,234.56' });
const cents = (description: string, nullable = false) =>
  ApiProperty({ type: 'integer', nullable, description: `${description} in minor units of the currency` });

export class BudgetSummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date' }) start_date: string;
  @ApiProperty({ format: 'date' }) end_date: string;
  @ApiProperty({ example: 'January 2025' }) name: string;
  @ApiProperty({ example: 'USD', description: 'ISO 4217 code' }) currency: string;
  @ApiProperty({ description: 'budgeted_spending is set' }) initialized: boolean;
  @ApiProperty({ description: "The budget month of today in the family's time zone" }) current: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @money('Total spending budget; null until initialized', true) budgeted_spending: string | null;
  @money('Expected income', true) expected_income: string | null;
  @money('Sum of the top-level category budgets') allocated_spending: string;
  @cents('budgeted_spending', true) budgeted_spending_cents: number | null;
  @cents('expected_income', true) expected_income_cents: number | null;
  @cents('allocated_spending') allocated_spending_cents: number;
}

/** A budget, its fields in the documented order (docs/api/budgets.md#amounts). */
export class BudgetDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date' }) start_date: string;
  @ApiProperty({ format: 'date' }) end_date: string;
  @ApiProperty({ example: 'January 2025' }) name: string;
  @ApiProperty({ example: 'USD', description: 'ISO 4217 code' }) currency: string;
  @ApiProperty() initialized: boolean;
  @ApiProperty() current: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @money('Total spending budget; null until initialized', true) budgeted_spending: string | null;
  @money('Expected income', true) expected_income: string | null;
  @money('Sum of the top-level category budgets') allocated_spending: string;
  @money('Spending net of refunds, per top-level category, never below zero each') actual_spending: string;
  @money('Gross income, refunds included') actual_income: string;
  @money('budgeted_spending - actual_spending; may be negative') available_to_spend: string;
  @money('budgeted_spending - allocated_spending; may be negative') available_to_allocate: string;
  @cents('budgeted_spending', true) budgeted_spending_cents: number | null;
  @cents('expected_income', true) expected_income_cents: number | null;
  @cents('allocated_spending') allocated_spending_cents: number;
  @cents('actual_spending') actual_spending_cents: number;
  @cents('actual_income') actual_income_cents: number;
  @cents('available_to_spend') available_to_spend_cents: number;
  @cents('available_to_allocate') available_to_allocate_cents: number;
}

export class BudgetListDto {
  @ApiProperty({ type: [BudgetSummaryDto] }) budgets: BudgetSummaryDto[];
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}

export class BudgetCategoryCategoryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() color: string;
  @ApiProperty() lucide_icon: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) parent_id: string | null;
}

export class BudgetCategorySummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) budget_id: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty() subcategory: boolean;
  @ApiProperty({ description: 'A subcategory without its own limit: it shares its parent’s budget' }) inherits_parent_budget: boolean;
  @money('Stored limit') budgeted_spending: string;
  @cents('budgeted_spending') budgeted_spending_cents: number;
  @money("The parent's budget for an inheriting subcategory, else the row's own") display_budgeted_spending: string;
  @cents('display_budgeted_spending') display_budgeted_spending_cents: number;
  @ApiProperty({ type: BudgetCategoryCategoryDto }) category: BudgetCategoryCategoryDto;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class BudgetCategoryDto extends BudgetCategorySummaryDto {
  @money('Spending of the category and its subcategories net of refunds, never below zero') actual_spending: string;
  @cents('actual_spending') actual_spending_cents: number;
  @money('What is left; limited subcategories are ring-fenced inside their parent') available_to_spend: string;
  @cents('available_to_spend') available_to_spend_cents: number;
}

export class BudgetCategoryListDto {
  @ApiProperty({ type: [BudgetCategorySummaryDto] }) budget_categories: BudgetCategorySummaryDto[];
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}
