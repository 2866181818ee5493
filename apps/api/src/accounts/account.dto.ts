import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { IsCurrencyCode } from '../common/currency-field';
import { OptionalNotNull } from '../common/optional-not-null';
import { IsDecimalAmount, IsIsoDate } from '../transactions/transaction-write.dto';
import { LocaleQuery } from '../budgets/budget.dto';
import { LenientPageParam, LenientPerPageParam, PaginationDto } from '../common/paging';

const BOOLEAN_VALUES = ['true', 'false', '1', '0'];

export class ShowAccountQuery extends LocaleQuery {
  @ApiPropertyOptional({ enum: BOOLEAN_VALUES, default: 'false', description: 'Also disabled accounts and accounts pending deletion' })
  @IsOptional()
  @IsIn(BOOLEAN_VALUES, { message: 'include_disabled must be true or false' })
  include_disabled?: string;
}

export class ListAccountsQuery extends ShowAccountQuery {
  @LenientPageParam() page?: string;
  @LenientPerPageParam() per_page?: string;
}

const money = (description: string) =>
  ApiProperty({ type: String, description: `${description}, formatted in the account currency and request locale`, example: '$1,234.56' });
const cents = (description: string) => ApiProperty({ type: 'integer', description: `${description} in minor units of the account currency` });

/** The reference API's Account, less institution_domain (Hearth keeps no institution domain). */
export class AccountDto {
  @ApiProperty({ format: 'uuid', description: 'What POST /imports and PATCH /imports/{id} take as account_id' }) id: string;
  @ApiProperty({ example: 'Checking' }) name: string;
  @money("Balance: the account's latest valuation (else the balance it was created with), moved by the transactions and trade fees after it, up to today in the family's time zone")
  balance: string;
  @cents('balance') balance_cents: number;
  @money('Cash part of the balance: all of it for bank and card accounts, none for property, vehicles and loans; for investment and crypto accounts the cash the account was created with, moved by every transaction and trade')
  cash_balance: string;
  @cents('cash_balance') cash_balance_cents: number;
  @ApiProperty({ example: 'USD', description: 'ISO 4217 code' }) currency: string;
  @ApiProperty({ enum: ['asset', 'liability'] }) classification: 'asset' | 'liability';
  @ApiProperty({
    enum: ['depository', 'investment', 'crypto', 'property', 'vehicle', 'other_asset', 'credit_card', 'loan', 'other_liability'],
  })
  account_type: string;
  @ApiProperty({ type: String, nullable: true, example: 'checking' }) subtype: string | null;
  @ApiProperty({ enum: ['active', 'draft', 'disabled', 'pending_deletion'] }) status: string;
  @ApiProperty({ type: String, nullable: true }) institution_name: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it was closed (PATCH closed: true); null while open. A closed account keeps its history and counts in balances and reports, but takes no new transactions',
  })
  closed_at: string | null;
}

export class AccountListDto {
  @ApiProperty({ type: [AccountDto] }) accounts: AccountDto[];
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}

/** The account types the ledger knows, as the API names them (account_type). */
export const ACCOUNT_TYPE_NAMES = ['depository', 'investment', 'crypto', 'property', 'vehicle', 'other_asset', 'credit_card', 'loan', 'other_liability'] as const;
const TYPE_MESSAGE = { message: `account_type must be one of ${ACCOUNT_TYPE_NAMES.join(', ')}` };
const BALANCE_DOC = {
  oneOf: [{ type: 'string' }, { type: 'number' }],
  example: '1250.00',
  description: "Decimal in the account's currency, with no more decimals than it has; for a card or loan what is owed (positive)",
};

export class CreateAccountDto {
  @ApiProperty({ maxLength: 200, example: 'Joint checking', description: 'Unique among the household\'s accounts: imports find accounts by name' })
  @IsDefined()
  @IsString()
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  name: string;

  @ApiProperty({ enum: ACCOUNT_TYPE_NAMES })
  @IsDefined()
  @IsIn(ACCOUNT_TYPE_NAMES, TYPE_MESSAGE)
  account_type: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50, example: 'checking' })
  @IsOptional()
  @IsString()
  @MaxLength(50, { message: 'subtype must be at most 50 characters' })
  subtype?: string | null;

  @ApiPropertyOptional({ example: 'EUR', description: "ISO 4217 code; the household's currency when left out" })
  @OptionalNotNull()
  @IsCurrencyCode()
  currency?: string;

  @ApiPropertyOptional({ ...BALANCE_DOC, description: `Opening balance: ${BALANCE_DOC.description}. 0 when left out` })
  @OptionalNotNull()
  @IsDecimalAmount()
  balance?: string | number;

  @ApiPropertyOptional({ type: String, format: 'date', example: '2026-01-01', description: "Day the opening balance stands at the start of; the household's today when left out" })
  @OptionalNotNull()
  @IsIsoDate()
  balance_date?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, example: 'First Bank' })
  @IsOptional()
  @IsString()
  @MaxLength(200, { message: 'institution_name must be at most 200 characters' })
  institution_name?: string | null;
}

export class UpdateAccountDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalNotNull()
  @IsString()
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  name?: string;

  @ApiPropertyOptional({ enum: ACCOUNT_TYPE_NAMES, description: 'Only to a type of the same classification (an asset stays an asset): the balance keeps its meaning' })
  @OptionalNotNull()
  @IsIn(ACCOUNT_TYPE_NAMES, TYPE_MESSAGE)
  account_type?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50, { message: 'subtype must be at most 50 characters' })
  subtype?: string | null;

  @ApiPropertyOptional({ example: 'EUR', description: 'ISO 4217 code; only while the account holds no entries (no transactions, valuations or trades)' })
  @OptionalNotNull()
  @IsCurrencyCode()
  currency?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200, { message: 'institution_name must be at most 200 characters' })
  institution_name?: string | null;

  @ApiPropertyOptional({ description: 'true closes the account (kept, with its history; no new transactions), false reopens it' })
  @OptionalNotNull()
  @IsBoolean({ message: 'closed must be true or false' })
  closed?: boolean;
}

/** What deleting an account takes with it. */
export class AccountDeletionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Joint checking' }) name: string;
  @ApiProperty({ type: 'integer', description: 'Its transactions, split parts included' }) transactions: number;
  @ApiProperty({ type: 'integer', description: 'Its valuations, the opening balance included' }) valuations: number;
  @ApiProperty({ type: 'integer' }) trades: number;
  @ApiProperty({ type: 'integer', description: "Transfers with another account: that account's side stays, as an ordinary transaction" }) transfers: number;
  @ApiProperty({ type: 'integer', description: 'Imports that wrote into it or were made for it: they stay in the imports list, without what they wrote here' }) imports: number;
}

export class ValuationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'date', example: '2026-11-01' }) date: string;
  @ApiProperty({ enum: ['opening_anchor', 'reconciliation'], description: 'opening_anchor: the balance at the start of its day (the opening balance); reconciliation: at the end of its day' })
  kind: string;
  @money('Balance on that day') balance: string;
  @cents('balance') balance_cents: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The import that wrote it; null for one set by hand' }) import_id: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class ValuationListDto {
  @ApiProperty({ type: [ValuationDto], description: 'Newest first' }) valuations: ValuationDto[];
}

export class CreateValuationDto {
  @ApiProperty({ type: String, format: 'date', example: '2026-11-01', description: 'The balance stands at the end of this day; one set earlier for the same day is replaced' })
  @IsDefined()
  @IsIsoDate()
  date: string;

  @ApiProperty(BALANCE_DOC)
  @IsDefined()
  @IsDecimalAmount()
  balance: string | number;
}
