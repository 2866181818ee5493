import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, IsUUID, Length, Matches, ValidateIf } from 'class-validator';
import { LenientPageParam, LenientPerPageParam, PaginationDto } from '../common/paging';
import { OptionalNotNull } from '../common/optional-not-null';

export const CLASSIFICATIONS = ['expense', 'income'] as const;
const BOOLEAN_VALUES = ['true', 'false', '1', '0'];

/** Surrounding spaces are not part of a name: "Food " and "Food" are one category. */
const trimmed = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

const COLOR = { pattern: /^#[0-9A-Fa-f]{6}$/, message: 'color must be a hex colour such as #4da568' };
const ICON = { pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/, message: 'icon must be a Lucide icon name such as shopping-cart' };

export class ListCategoriesQuery {
  @LenientPageParam() page?: string;
  @LenientPerPageParam() per_page?: string;
  @ApiPropertyOptional({ enum: BOOLEAN_VALUES, default: 'false', description: 'Only top-level categories' })
  @IsOptional()
  @IsIn(BOOLEAN_VALUES, { message: 'roots_only must be true or false' })
  roots_only?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the subcategories of this category' })
  @IsOptional()
  @IsUUID('all', { message: 'parent_id must be a valid UUID' })
  parent_id?: string;
}

export class DeleteCategoryQuery {
  @ApiPropertyOptional({
    format: 'uuid',
    description: "Another category of the household that takes this one's transactions, budget limits and subcategories (a merge); left out, the transactions become uncategorised",
  })
  @IsOptional()
  @IsUUID('all', { message: 'replacement_id must be a valid UUID' })
  replacement_id?: string;
}

export class CreateCategoryDto {
  @ApiProperty({ example: 'Groceries', maxLength: 200, description: 'Unique in the household' })
  @trimmed()
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  name: string;

  @ApiPropertyOptional({ example: '#4da568', description: "#RRGGBB; a subcategory takes its parent's colour and may not be given one" })
  @OptionalNotNull()
  @IsString({ message: COLOR.message })
  @Matches(COLOR.pattern, { message: COLOR.message })
  color?: string;

  @ApiPropertyOptional({ example: 'shopping-cart', default: 'shapes', description: 'Lucide icon name' })
  @OptionalNotNull()
  @IsString({ message: ICON.message })
  @Length(1, 50, { message: 'icon must be 1 to 50 characters' })
  @Matches(ICON.pattern, { message: ICON.message })
  icon?: string;

  @ApiPropertyOptional({
    enum: CLASSIFICATIONS,
    default: 'expense',
    description: "Kept as the household's label; budgets tell income from spending by each amount's sign",
  })
  @OptionalNotNull()
  @IsIn(CLASSIFICATIONS, { message: 'classification must be expense or income' })
  classification?: (typeof CLASSIFICATIONS)[number];

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'A top-level category of the household to nest under (one level deep)' })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsUUID('all', { message: 'parent_id must be a valid UUID' })
  parent_id?: string | null;
}

/** Every field may be left out (unchanged); parent_id null makes the category top-level. */
export class UpdateCategoryDto {
  @ApiPropertyOptional({ example: 'Food & Drink', maxLength: 200 })
  @OptionalNotNull()
  @trimmed()
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  name?: string;

  @ApiPropertyOptional({ example: '#4da568', description: '#RRGGBB; given to a top-level category, its subcategories take it too' })
  @OptionalNotNull()
  @IsString({ message: COLOR.message })
  @Matches(COLOR.pattern, { message: COLOR.message })
  color?: string;

  @ApiPropertyOptional({ example: 'shopping-cart', description: 'Lucide icon name' })
  @OptionalNotNull()
  @IsString({ message: ICON.message })
  @Length(1, 50, { message: 'icon must be 1 to 50 characters' })
  @Matches(ICON.pattern, { message: ICON.message })
  icon?: string;

  @ApiPropertyOptional({ enum: CLASSIFICATIONS })
  @OptionalNotNull()
  @IsIn(CLASSIFICATIONS, { message: 'classification must be expense or income' })
  classification?: (typeof CLASSIFICATIONS)[number];

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'Move under this top-level category; null: make top-level' })
  @ValidateIf((_object, value) => value !== undefined && value !== null)
  @IsUUID('all', { message: 'parent_id must be a valid UUID' })
  parent_id?: string | null;
}

export class CategoryParentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

/** The reference API's Category, plus classification and how many transactions carry it. */
export class CategoryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: '#6172F3' }) color: string;
  @ApiProperty({ example: 'shapes', description: 'Lucide icon name' }) icon: string;
  @ApiProperty({ enum: CLASSIFICATIONS }) classification: (typeof CLASSIFICATIONS)[number];
  @ApiProperty({ type: CategoryParentDto, nullable: true }) parent: CategoryParentDto | null;
  @ApiProperty({ type: 'integer' }) subcategories_count: number;
  @ApiProperty({ type: 'integer', description: 'Transactions (split parts included) in this category itself, not its subcategories' })
  transactions_count: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class CategoryListDto {
  @ApiProperty({ type: [CategoryDto] }) categories: CategoryDto[];
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}

export class CategoryTreeNodeDto extends CategoryDto {
  @ApiProperty({ type: [CategoryDto], description: 'By name' }) subcategories: CategoryDto[];
}

export class CategoryTreeDto {
  @ApiProperty({ type: [CategoryTreeNodeDto], description: 'Top-level categories by name, each with its subcategories' })
  categories: CategoryTreeNodeDto[];
}

export class CategoryDeletionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) replacement_id: string | null;
  @ApiProperty({ type: 'integer', description: 'Transactions moved to the replacement (or left uncategorised)' }) transactions_moved: number;
  @ApiProperty({ type: 'integer', description: "Budgets whose limit for this category was merged into the replacement's" }) budget_limits_merged: number;
  @ApiProperty({ type: 'integer', description: 'Budget rows of this category removed' }) budget_rows_removed: number;
  @ApiProperty({ type: 'integer', description: 'Subcategories moved under the replacement, or made top-level' }) subcategories_moved: number;
}
