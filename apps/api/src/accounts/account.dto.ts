import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
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
}

export class AccountListDto {
  @ApiProperty({ type: [AccountDto] }) accounts: AccountDto[];
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}
