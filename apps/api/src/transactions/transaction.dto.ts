import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { LocaleQuery } from '../budgets/budget.dto';
import { LenientPageParam, LenientPerPageParam, PaginationDto } from '../common/paging';

// Filters arrive as strings (or arrays, repeated) and are checked by the service, so that each bad one is named.

const uuid = (description: string) => ApiPropertyOptional({ type: String, format: 'uuid', description });
const uuids = (description: string) => ApiPropertyOptional({ type: [String], format: 'uuid', description: `${description}; repeat for several` });

export class ListTransactionsQuery extends LocaleQuery {
  @LenientPageParam() page?: string;
  @LenientPerPageParam() per_page?: string;
  @uuid('Transactions of this account') @IsOptional() account_id?: unknown;
  @uuids('Transactions of any of these accounts') @IsOptional() 'account_ids[]'?: unknown;
  @uuid('Transactions of this category (not its subcategories)') @IsOptional() category_id?: unknown;
  @uuids('Transactions of any of these categories') @IsOptional() 'category_ids[]'?: unknown;
  @uuid('Transactions of this merchant') @IsOptional() merchant_id?: unknown;
  @uuids('Transactions of any of these merchants') @IsOptional() 'merchant_ids[]'?: unknown;
  @uuids('Transactions carrying any of these tags') @IsOptional() 'tag_ids[]'?: unknown;
  @uuid('Transactions this import made (an Import id)') @IsOptional() import_id?: unknown;
  @ApiPropertyOptional({ type: String, format: 'date', description: 'On or after this date (YYYY-MM-DD)' }) @IsOptional() start_date?: unknown;
  @ApiPropertyOptional({ type: String, format: 'date', description: 'On or before this date (YYYY-MM-DD)' }) @IsOptional() end_date?: unknown;
  @ApiPropertyOptional({ type: String, example: '-100.00', description: 'Signed entry amount at least this (expenses positive, income negative), in the entry currency' })
  @IsOptional()
  min_amount?: unknown;
  @ApiPropertyOptional({ type: String, example: '250', description: 'Signed entry amount at most this' }) @IsOptional() max_amount?: unknown;
  @ApiPropertyOptional({ enum: ['income', 'expense'], description: 'income: entry amount below 0; expense: above 0' }) @IsOptional() type?: unknown;
  @ApiPropertyOptional({ type: String, description: 'Case-insensitive substring of the name, notes or merchant name; % and _ are literal' })
  @IsOptional()
  search?: unknown;
  @ApiPropertyOptional({
    type: String,
    description: "A page's next_cursor: the page after it, in the same order, with the same filters to be given again. Pages by position, not by count, so rows added meanwhile cause no gap or repeat and a deep page costs what the first does; empty: the first page so, without a count; not with page",
  })
  @IsOptional()
  cursor?: unknown;
}

const money = (description: string) =>
  ApiProperty({ type: String, description: `${description}, formatted in the transaction currency and request locale`, example: '$12.34' });

export class TransactionAccountDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'depository', description: 'As an Account\'s account_type' }) account_type: string;
}

export class TransactionCategoryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: '#6172F3' }) color: string;
  @ApiProperty({ example: 'shapes', description: 'Lucide icon name' }) icon: string;
}

export class TransactionMerchantDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

export class TransactionTagDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true, example: '#e99537' }) color: string | null;
}

export class TransactionTransferDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @money('The amount moved (the inflow side\'s, positive)') amount: string;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ type: TransactionAccountDto, description: 'The account of the transfer\'s other side' }) other_account: TransactionAccountDto;
}

/** The reference API's Transaction, plus parent_id to tell a split's parts from their total. */
export class TransactionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date' }) date: string;
  @money('The signed entry amount: expenses positive, income negative') amount: string;
  @ApiProperty({ type: 'integer', description: 'Absolute amount in minor units of the currency' }) amount_cents: number;
  @ApiProperty({ type: 'integer', description: 'Minor units, income positive, expenses negative (the opposite of amount)' }) signed_amount_cents: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) notes: string | null;
  @ApiProperty({ type: String, nullable: true }) external_id: string | null;
  @ApiProperty({ type: String, nullable: true }) source: string | null;
  @ApiProperty({ enum: ['income', 'expense'], description: 'income when the entry amount is below 0' }) classification: 'income' | 'expense';
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: "A split part's total (the split parent); null otherwise" })
  parent_id: string | null;
  @ApiProperty({ type: TransactionAccountDto }) account: TransactionAccountDto;
  @ApiProperty({ type: TransactionCategoryDto, nullable: true }) category: TransactionCategoryDto | null;
  @ApiProperty({ type: TransactionMerchantDto, nullable: true }) merchant: TransactionMerchantDto | null;
  @ApiProperty({ type: [TransactionTagDto] }) tags: TransactionTagDto[];
  @ApiProperty({ type: TransactionTransferDto, nullable: true }) transfer: TransactionTransferDto | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class TransactionListDto {
  @ApiProperty({ type: [TransactionDto] }) transactions: TransactionDto[];
  @ApiProperty({ type: PaginationDto, nullable: true, description: 'null when the page was asked for by cursor (no count is made)' }) pagination: PaginationDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'Give as cursor for the page after this one; null on the last page' }) next_cursor: string | null;
}
