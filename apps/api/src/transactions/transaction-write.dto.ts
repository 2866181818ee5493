import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
  registerDecorator,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { parseIsoDate } from '@hearth/domain/budget-math';
import { parseDecimal } from '@hearth/domain/money';
import { IsCurrencyCode } from '../common/currency-field';
import { OptionalNotNull } from '../common/optional-not-null';
import { TransactionDto } from './transaction.dto';

/** The most transactions one bulk update changes, and the most parts of one split. */
export const BULK_LIMIT = 1000;
export const MAX_SPLIT_PARTS = 100;
const MAX_TAGS = 50;

const rule = (name: string, validate: (value: unknown) => boolean, message: (property: string) => string): PropertyDecorator => (target, propertyName) =>
  registerDecorator({
    name,
    target: target.constructor,
    propertyName: propertyName as string,
    validator: { validate, defaultMessage: (args?: ValidationArguments) => message(args!.property) },
  });

const isIsoDate = (value: unknown) => {
  if (typeof value !== 'string') return false;
  try {
    parseIsoDate(value);
    return true;
  } catch {
    return false;
  }
};
/** A calendar date written YYYY-MM-DD (not 2025-02-30). */
export const IsIsoDate = () => rule('isIsoDate', isIsoDate, (property) => `${property} must be a date in the form YYYY-MM-DD`);

/** A plain decimal as a JSON string or number: the currency's digits are checked once the currency is known. */
export const IsDecimalAmount = () =>
  rule(
    'isDecimalAmount',
    (value) => (typeof value === 'string' && parseDecimal(value.trim()) !== undefined) || (typeof value === 'number' && Number.isFinite(value) && parseDecimal(String(value)) !== undefined),
    (property) => `${property} must be a decimal amount written without grouping, such as -1000.50`,
  );

const uuidMessage = (property: string) => ({ message: `${property} must be a UUID` });
const documented = (required: boolean, options: Parameters<typeof ApiProperty>[0]) => (required ? ApiProperty(options) : ApiPropertyOptional(options));
/** Required on create; on a change optional but never null (a null would clear a field that must have a value). */
const presence = (required: boolean) => (required ? IsDefined() : OptionalNotNull());

const AMOUNT_DOC = {
  oneOf: [{ type: 'string' }, { type: 'number' }],
  example: '12.50',
  description:
    "Decimal in the transaction's currency, with no more decimals than it has. Sure's sign: expenses (money out) positive, income negative, as GET shows `amount`; with `nature` the sign is taken from the nature instead",
};

/** The fields of a transaction as POST (`required`) and PATCH take them. */
const field = {
  accountId: (required: boolean) =>
    applyDecorators(documented(required, { format: 'uuid', description: "An account of the household; the transaction's currency defaults to its" }), presence(required), IsUUID('all', uuidMessage('account_id'))),
  date: (required: boolean) => applyDecorators(documented(required, { type: String, format: 'date', example: '2026-11-02' }), presence(required), IsIsoDate()),
  amount: (required: boolean) => applyDecorators(documented(required, AMOUNT_DOC), presence(required), IsDecimalAmount()),
  name: (required: boolean) =>
    applyDecorators(documented(required, { maxLength: 500, example: 'Groceries' }), presence(required), IsString(), Length(1, 500, { message: 'name must be 1 to 500 characters' })),
};

const nature = () =>
  applyDecorators(
    ApiPropertyOptional({ enum: ['income', 'inflow', 'expense', 'outflow'], description: 'income/inflow stores the amount as money in (negative), expense/outflow as money out (positive), whatever its sign' }),
    IsOptional(),
    IsIn(['income', 'inflow', 'expense', 'outflow'], { message: 'nature must be income, inflow, expense or outflow' }),
  );
const nullableId = (name: string, description: string) =>
  applyDecorators(ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: `${description}; null for none` }), IsOptional(), IsUUID('all', uuidMessage(name)));
const tagIds = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_TAGS, description: "Tags of the household by id; with tag_names, the transaction's tags become these (given on PATCH, they replace its tags)" }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_TAGS),
    IsUUID('all', { each: true, message: 'tag_ids must be UUIDs' }),
  );
const tagNames = () =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: MAX_TAGS, description: 'Tags by name; a name the household has no tag of becomes a new tag' }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_TAGS),
    IsString({ each: true }),
    Length(1, 100, { each: true, message: 'tag_names must be 1 to 100 characters each' }),
  );
const notes = () => applyDecorators(ApiPropertyOptional({ type: String, nullable: true, maxLength: 10_000 }), IsOptional(), IsString(), MaxLength(10_000));

const currency = () =>
  applyDecorators(ApiPropertyOptional({ example: 'USD', description: "ISO 4217; the account's currency when left out on create" }), OptionalNotNull(), IsCurrencyCode());
const excluded = () =>
  applyDecorators(ApiPropertyOptional({ default: false, description: 'Left out of budgets and reports' }), OptionalNotNull(), IsBoolean({ message: 'excluded must be true or false' }));

export class NewTransactionFieldsDto {
  @field.accountId(true) account_id: string;
  @field.date(true) date: string;
  @field.amount(true) amount: string | number;
  @nature() nature?: 'income' | 'inflow' | 'expense' | 'outflow';
  @field.name(true) name: string;
  @currency() currency?: string;
  @nullableId('category_id', 'A category of the household') category_id?: string | null;
  @nullableId('merchant_id', 'A merchant of the household') merchant_id?: string | null;
  @tagIds() tag_ids?: string[];
  @tagNames() tag_names?: string[];
  @notes() notes?: string | null;
  @excluded() excluded?: boolean;
}

/** Sure's body: the fields inside `transaction`. */
export class CreateTransactionDto {
  @ApiProperty({ type: NewTransactionFieldsDto }) @IsDefined() @IsObject() @ValidateNested() @Type(() => NewTransactionFieldsDto) transaction: NewTransactionFieldsDto;
}

/** What PATCH changes: the fields given; a split's parts and parent, and a transfer's sides, keep what holds them together. */
export class TransactionChangesDto {
  @field.accountId(false) account_id?: string;
  @field.date(false) date?: string;
  @field.amount(false) amount?: string | number;
  @nature() nature?: 'income' | 'inflow' | 'expense' | 'outflow';
  @field.name(false) name?: string;
  @currency() currency?: string;
  @nullableId('category_id', 'A category of the household') category_id?: string | null;
  @nullableId('merchant_id', 'A merchant of the household') merchant_id?: string | null;
  @tagIds() tag_ids?: string[];
  @tagNames() tag_names?: string[];
  @notes() notes?: string | null;
  @excluded() excluded?: boolean;
}

export class UpdateTransactionDto {
  @ApiProperty({ type: TransactionChangesDto }) @IsDefined() @IsObject() @ValidateNested() @Type(() => TransactionChangesDto) transaction: TransactionChangesDto;
}

export class SplitPartDto {
  @ApiProperty({ ...AMOUNT_DOC, description: "Decimal in the parent's currency, signed as the parent's amount is (expenses positive); the parts add up to the parent's amount" })
  @IsDefined()
  @IsDecimalAmount()
  amount: string | number;
  @field.name(true) name: string;
  @nullableId('category_id', "A category of the household; the parent's when left out") category_id?: string | null;
  @nullableId('merchant_id', "A merchant of the household; the parent's when left out") merchant_id?: string | null;
  @ApiPropertyOptional({ type: [String], format: 'uuid', description: "Tags by id; the parent's when left out" })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  @IsUUID('all', { each: true, message: 'tag_ids must be UUIDs' })
  tag_ids?: string[];
  @notes() notes?: string | null;
}

export class SplitTransactionDto {
  @ApiProperty({ type: [SplitPartDto], minItems: 2, maxItems: MAX_SPLIT_PARTS, description: 'The parts, replacing any the transaction has' })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(2, { message: 'parts must have at least 2 parts' })
  @ArrayMaxSize(MAX_SPLIT_PARTS, { message: `parts must have at most ${MAX_SPLIT_PARTS} parts` })
  @ValidateNested({ each: true })
  @Type(() => SplitPartDto)
  parts: SplitPartDto[];
}

export class TransactionSplitDto {
  @ApiProperty({ type: TransactionDto, description: 'The split transaction (the parent, now excluded: its parts count instead)' }) transaction: TransactionDto;
  @ApiProperty({ type: [TransactionDto], description: 'Its parts, in the order given' }) parts: TransactionDto[];
}

export class BulkUpdateTransactionsDto {
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: BULK_LIMIT, description: 'Transactions of the household' })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1, { message: 'ids must name at least one transaction' })
  @ArrayMaxSize(BULK_LIMIT, { message: `ids must name at most ${BULK_LIMIT} transactions` })
  @IsUUID('all', { each: true, message: 'ids must be UUIDs' })
  ids: string[];
  @nullableId('category_id', 'A category of the household for every one') category_id?: string | null;
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_TAGS, description: "Tags by id; with tag_names, every transaction's tags become these" })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  @IsUUID('all', { each: true, message: 'tag_ids must be UUIDs' })
  tag_ids?: string[];
  @tagNames() tag_names?: string[];
  @excluded() excluded?: boolean;
}

export class BulkUpdateResultDto {
  @ApiProperty({ type: 'integer', description: 'How many transactions the change applied to' }) updated: number;
}

export class CreateTransferDto {
  @ApiProperty({ format: 'uuid', description: 'The account the money leaves' }) @IsDefined() @IsUUID('all', uuidMessage('from_account_id')) from_account_id: string;
  @ApiProperty({ format: 'uuid', description: 'The account the money reaches' }) @IsDefined() @IsUUID('all', uuidMessage('to_account_id')) to_account_id: string;
  @ApiProperty({ ...AMOUNT_DOC, example: '500.00', description: "The amount moved, above 0, in the from account's currency" }) @IsDefined() @IsDecimalAmount() amount: string | number;
  @ApiPropertyOptional({ ...AMOUNT_DOC, example: '460.00', description: "The amount that arrives, in the to account's currency: required when the two currencies differ, else the same as amount" })
  @IsOptional()
  @IsDecimalAmount()
  to_amount?: string | number;
  @field.date(true) date: string;
  @ApiPropertyOptional({ maxLength: 500, description: 'Both sides\' name; "Transfer to <account>" and "Transfer from <account>" when left out' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 500, { message: 'name must be 1 to 500 characters' })
  name?: string;
  @notes() notes?: string | null;
}

export class TransferResultDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: TransactionDto, description: 'The side that leaves the from account (positive amount)' }) outflow: TransactionDto;
  @ApiProperty({ type: TransactionDto, description: 'The side that reaches the to account (negative amount)' }) inflow: TransactionDto;
}
