import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsEmpty, IsIn, IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min, ValidateBy, ValidateNested } from 'class-validator';
import {
  AMOUNT_TYPE_STRATEGIES,
  COLUMN_SEPARATORS,
  IMPORT_STATUSES,
  DEFAULT_IMPORT_TYPE,
  IMPORT_TYPES,
  NUMBER_FORMATS,
  SIGNAGE_CONVENTIONS,
  unaliasImportType,
  VERIFICATION_STATUSES,
} from '@hearth/contracts';
import { PageParam, PerPageParam } from '../common/paging';
import { OptionalNotNull } from '../common/optional-not-null';
import { MAX_SKIP_ROWS } from './skip-rows';

const LABEL = { maxLength: 255 };
/** Title lines above a header are a handful; a larger header_row is a mistake, not a layout. */
const MAX_HEADER_ROW = 1000;

/** Column labels and parsing options; shared by create (multipart or JSON) and PATCH. */
export class ImportConfigurationInput {
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) date_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) amount_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) name_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) category_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) tags_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) notes_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) account_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) qty_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) ticker_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) price_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) entity_type_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) currency_col_label?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) exchange_operating_mic_col_label?: string;
  @ApiPropertyOptional({ ...LABEL, description: 'A money-out column, read as a magnitude (Withdrawal (-), Paid out); with inflow_col_label instead of amount_col_label' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  outflow_col_label?: string;
  @ApiPropertyOptional({ ...LABEL, description: 'A money-in column, read as a magnitude (Deposit (+), Paid in); with outflow_col_label instead of amount_col_label' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  inflow_col_label?: string;
  @ApiPropertyOptional({ example: '%Y-%m-%d', description: 'strftime-style date pattern, or one as people write it (dd/mm/yyyy, DD.MM.YYYY, M/D/YY)' })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  date_format?: string;
  @ApiPropertyOptional({ enum: NUMBER_FORMATS }) @OptionalNotNull() @IsIn(NUMBER_FORMATS) number_format?: string;
  @ApiPropertyOptional({ enum: SIGNAGE_CONVENTIONS }) @OptionalNotNull() @IsIn(SIGNAGE_CONVENTIONS) signage_convention?: string;
  @ApiPropertyOptional({ enum: Object.keys(COLUMN_SEPARATORS) })
  @OptionalNotNull()
  @IsIn(Object.keys(COLUMN_SEPARATORS), { message: 'col_sep must be one of: comma, semicolon' })
  col_sep?: string;
  @ApiPropertyOptional({ enum: AMOUNT_TYPE_STRATEGIES }) @OptionalNotNull() @IsIn(AMOUNT_TYPE_STRATEGIES) amount_type_strategy?: string;
  @ApiPropertyOptional(LABEL) @IsOptional() @IsString() @MaxLength(255) amount_type_inflow_value?: string;
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_HEADER_ROW,
    nullable: true,
    description:
      'CSV: the 1-based line of the file that holds the header (blank lines counted); the lines above it (titles, account name, balance) are not read. Absent or null: the first line, unless a later one of the first 21 lines has the required column names (docs/api/import-formats.md#header-line)',
  })
  @IsOptional()
  // Multipart form fields are strings: a whole number sent as text is taken as that number.
  @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value))
  @IsInt({ message: 'header_row must be a line number (a whole number from 1)' })
  @Min(1, { message: 'header_row must be a line number (a whole number from 1)' })
  @Max(MAX_HEADER_ROW, { message: `header_row must be at most ${MAX_HEADER_ROW}` })
  header_row?: number | null;
  @ApiPropertyOptional({
    description:
      'CSV: false when the file has no header line: every line is a row, and the *_col_label fields name columns by number ("1" for the first). Default true',
  })
  @OptionalNotNull()
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'has_header must be true or false' })
  has_header?: boolean;
}

export class CreateImportDto extends ImportConfigurationInput {
  @ApiPropertyOptional({ description: 'Raw CSV or NDJSON text (CSV limited to 10MB)' })
  @OptionalNotNull()
  @IsString()
  raw_file_content?: string;

  @ApiPropertyOptional({ type: 'string', format: 'binary', description: 'CSV, XLSX or NDJSON upload (multipart/form-data)' })
  file?: unknown;

  @ApiPropertyOptional({
    maxLength: 255,
    description: 'XLSX upload: the name of the sheet to read. Absent: the first sheet that is not hidden (docs/api/import-formats.md#spreadsheets)',
  })
  @OptionalNotNull()
  @IsString()
  @MaxLength(255)
  sheet?: string;

  /** Validated by the service, so an unknown value gets `invalid_import_type` rather than a generic message. */
  @ApiPropertyOptional({ enum: IMPORT_TYPES, default: DEFAULT_IMPORT_TYPE })
  @OptionalNotNull()
  @IsString()
  type?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all', { message: 'account_id must be a UUID' })
  account_id?: string;

  @ApiPropertyOptional({
    description: 'The string "true" (or the JSON boolean true) queues publishing when the import is valid; "false" or false does not',
    type: String,
  })
  @OptionalNotNull()
  // JSON clients send booleans: both are taken, as the strings the form fields would carry.
  @Transform(({ value }) => (typeof value === 'boolean' ? String(value) : value))
  @IsIn(['true', 'false'], { message: 'publish must be "true" or "false"' })
  publish?: string;
}

export class ImportMappingInput {
  @ApiProperty({ enum: ['account', 'category', 'tag', 'account_type'] })
  @IsIn(['account', 'category', 'tag', 'account_type'])
  type: 'account' | 'category' | 'tag' | 'account_type';
  @ApiProperty() @IsString() @MaxLength(500) key: string;
  @ApiPropertyOptional({ description: 'Existing record id (account, category, tag), or the account type name', nullable: true, type: String })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  value?: string | null;
  @ApiPropertyOptional({ description: 'Create the record at publish when no existing one is chosen' })
  @OptionalNotNull()
  @IsBoolean()
  create_when_empty?: boolean;
}

const isRowNumber = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 1;

/** At most MAX_SKIP_ROWS elements, each a positive whole number; the message names the first elements that are not. */
const RowNumbers = (): PropertyDecorator =>
  ValidateBy({
    name: 'rowNumbers',
    validator: {
      // Not an array: IsArray says so.
      validate: (value: unknown) => !Array.isArray(value) || (value.length <= MAX_SKIP_ROWS && value.every(isRowNumber)),
      defaultMessage: (args) => {
        const value = (Array.isArray(args?.value) ? args.value : []) as unknown[];
        if (value.length > MAX_SKIP_ROWS) return `skip_rows can hold at most ${MAX_SKIP_ROWS} row numbers`;
        const bad = value.filter((n) => !isRowNumber(n));
        const shown = bad.slice(0, 10).map((n) => String(JSON.stringify(n) ?? n).slice(0, 30));
        return `skip_rows must hold row numbers (positive whole numbers, as row_number in GET /imports/{id}/rows); not: ${shown.join(', ')}${bad.length > 10 ? ', ...' : ''}`;
      },
    },
  });

export class UpdateImportDto extends ImportConfigurationInput {
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String })
  @IsOptional()
  @IsUUID('all', { message: 'account_id must be a UUID' })
  account_id?: string | null;
  @ApiPropertyOptional({ type: [ImportMappingInput] })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(10_000)
  @ValidateNested({ each: true })
  @Type(() => ImportMappingInput)
  mappings?: ImportMappingInput[];
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'integer', minimum: 1 },
    maxItems: MAX_SKIP_ROWS,
    description:
      "Row numbers (row_number in GET /imports/{id}/rows) to leave out of the import: replaces the stored list, [] clears it. The rows are parsed again without them, so they are neither counted, checked nor published. Each must be a row of the import's file (422 naming the others); an import with rows already published is 409.",
  })
  @OptionalNotNull()
  @IsArray({ message: 'skip_rows must be an array of row numbers' })
  @RowNumbers()
  skip_rows?: number[];
  // What an import is made of is fixed at upload: refused by name, rather than dropped as unknown fields are.
  @ApiHideProperty()
  @IsEmpty({ message: 'type cannot be changed: upload the file again as a new import of that type' })
  type?: unknown;
  @ApiHideProperty()
  @IsEmpty({ message: 'raw_file_content cannot be changed: upload the new file as a new import' })
  raw_file_content?: unknown;
  @ApiHideProperty()
  @IsEmpty({ message: 'sheet cannot be changed: upload the workbook again as a new import, naming the sheet' })
  sheet?: unknown;
}

export class PageQuery {
  @PageParam() page?: number;
  @PerPageParam(25) per_page?: number;
}

/** GET /imports/{id}/rows; `errors` is checked by the service, which names it when it is malformed. */
export class ImportRowsQuery extends PageQuery {
  @ApiPropertyOptional({
    enum: ['only'],
    description: 'only: just the rows with errors (valid false), in row order and paged among themselves. Absent or empty: every row',
  })
  @IsOptional()
  errors?: unknown;
}

/** An empty filter (`?status=`, what a form's blank choice sends) means no filter. */
const blankAsAbsent = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

export class ListImportsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: IMPORT_STATUSES, description: 'Empty: every status' })
  @IsOptional()
  @Transform(blankAsAbsent)
  @IsIn(IMPORT_STATUSES)
  status?: string;
  @ApiPropertyOptional({ enum: IMPORT_TYPES, description: 'Empty: every type. SureImport, which create takes for ServiceImport, filters as ServiceImport' })
  @IsOptional()
  // Create stores an alias under its own type (ServiceImport); the filter has to find it by the name it was sent as.
  @Transform(({ value }) => (typeof value === 'string' && value ? unaliasImportType(value) : blankAsAbsent({ value })))
  @IsIn(IMPORT_TYPES)
  type?: string;
}

export class StatusDetailDto {
  @ApiProperty() uploaded: boolean;
  @ApiProperty() configured: boolean;
  @ApiProperty() terminal: boolean;
  @ApiProperty() cleaned: boolean;
  @ApiProperty() publishable: boolean;
  @ApiProperty() revertable: boolean;
}

/** The ten settings every CSV client knows first, in their order (docs/api/importing.md#the-import-resource); then the rest of what create and PATCH accept, so it can be read back. */
export class ConfigurationDto {
  @ApiProperty({ nullable: true, type: String }) date_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) amount_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) name_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) category_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) tags_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) notes_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) account_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) date_format: string | null;
  @ApiProperty({ nullable: true, type: String }) number_format: string | null;
  @ApiProperty({ nullable: true, type: String }) signage_convention: string | null;
  @ApiProperty({ nullable: true, type: String }) entity_type_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) currency_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) qty_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) ticker_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) price_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) exchange_operating_mic_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) outflow_col_label: string | null;
  @ApiProperty({ nullable: true, type: String }) inflow_col_label: string | null;
  @ApiProperty({ enum: Object.keys(COLUMN_SEPARATORS) }) col_sep: string;
  @ApiProperty({ enum: AMOUNT_TYPE_STRATEGIES }) amount_type_strategy: string;
  @ApiProperty({ nullable: true, type: String }) amount_type_inflow_value: string | null;
  @ApiProperty({ nullable: true, type: 'integer', description: 'The line the header is read from; null: detected' }) header_row: number | null;
  @ApiProperty() has_header: boolean;
}

export class StatsDto {
  @ApiProperty({ type: 'integer', minimum: 0 }) rows_count: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) valid_rows_count: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) invalid_rows_count: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) mappings_count: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) unassigned_mappings_count: number;
}

export class ReadbackDto {
  @ApiPropertyOptional({ enum: VERIFICATION_STATUSES }) status?: string;
  @ApiPropertyOptional({ format: 'date-time', nullable: true, type: String }) checked_at?: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'integer' } }) expected_record_counts?: Record<string, number>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'integer' } }) before_counts?: Record<string, number>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'integer' } }) after_counts?: Record<string, number>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'integer' } }) actual_delta_counts?: Record<string, number>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'integer' } }) checked_counts?: Record<string, number>;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'object', properties: { expected: { type: 'integer' }, actual: { type: 'integer' } }, required: ['expected', 'actual'] } }) mismatches?: Record<string, { expected: number; actual: number }>;
  @ApiPropertyOptional({ nullable: true, type: String }) error?: string | null;
}

export class VerificationDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' } }) expected_record_counts: Record<string, number>;
  @ApiProperty({ type: ReadbackDto }) readback: ReadbackDto;
}

export const NOT_PUBLISHABLE_REASONS = [
  'import_publishing',
  'import_reverting',
  'import_published',
  'no_rows',
  'max_row_count_exceeded',
  'account_required',
  'rows_with_errors',
  'unassigned_mappings',
] as const;

export class NotPublishableReasonDto {
  @ApiProperty({ enum: NOT_PUBLISHABLE_REASONS }) code: (typeof NOT_PUBLISHABLE_REASONS)[number];
  @ApiProperty({ description: 'What stops it, and what to do, in a sentence for the user' }) message: string;
}

export class ImportDetailDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: IMPORT_TYPES }) type: string;
  @ApiProperty({ enum: IMPORT_STATUSES }) status: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) account_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ type: StatusDetailDto }) status_detail: StatusDetailDto;
  @ApiProperty({ type: ConfigurationDto }) configuration: ConfigurationDto;
  @ApiProperty({ type: StatsDto }) stats: StatsDto;
  @ApiProperty({
    type: 'array',
    items: { type: 'integer', minimum: 1 },
    description: 'Row numbers left out of the import (PATCH skip_rows), ascending; [] when none is',
  })
  skip_rows: number[];
  @ApiProperty({
    type: [String],
    description:
      "What the last publish found that did not stop it, each a sentence: a bank statement's closing balance the account's balance disagrees with (both figures, the day, the difference), or balances stated in a currency other than the account's. [] when nothing; cleared by revert",
  })
  warnings: string[];
  @ApiPropertyOptional({ type: VerificationDto }) verification?: VerificationDto;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'The uploaded file\'s name (no directory part); null for text sent as raw_file_content' })
  file_name?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, description: 'The name of account_id\'s account; null without one (or once it is deleted)' })
  account_name?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date', description: 'The earliest date of the rows; null when no row has one' })
  first_row_date?: string | null;
  @ApiPropertyOptional({ nullable: true, type: String, format: 'date', description: 'The latest date of the rows; null when no row has one' })
  last_row_date?: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: NotPublishableReasonDto,
    description:
      'Why status_detail.publishable is false: the first of the status (publishing, reverting, published), no rows, more rows than the type may publish (IMPORT_MAX_ROWS; AccountImport 50), no account, rows with errors, unmapped values. Null when publishable. A ServiceImport\'s preflight runs at publish',
  })
  not_publishable_reason?: NotPublishableReasonDto | null;
}

export class ImportResponseDto {
  @ApiProperty({ type: ImportDetailDto }) data: ImportDetailDto;
}

export class PaginationMetaDto {
  @ApiProperty({ type: 'integer', minimum: 1 }) current_page: number;
  @ApiProperty({ nullable: true, type: 'integer' }) next_page: number | null;
  @ApiProperty({ nullable: true, type: 'integer' }) prev_page: number | null;
  @ApiProperty({ type: 'integer', minimum: 1 }) total_pages: number;
  @ApiProperty({ type: 'integer', minimum: 0 }) total_count: number;
  @ApiProperty({ type: 'integer', minimum: 1 }) per_page: number;
}

export class ImportListDto {
  @ApiProperty({ type: [ImportDetailDto] }) data: ImportDetailDto[];
  @ApiProperty({ type: PaginationMetaDto }) meta: PaginationMetaDto;
}

export class ImportRowDto {
  @ApiProperty({ type: 'integer', minimum: 1 }) row_number: number;
  @ApiProperty() valid: boolean;
  @ApiProperty({ type: [String] }) errors: string[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'Parsed values: ISO dates, decimal strings (positive = money leaving the account), lists for tags, null when empty. A row whose date did not read has date null and raw_date, the cell as the file wrote it',
  })
  fields: Record<string, unknown>;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'Once published: the existing record (transaction, trade, category, merchant, rule, ...) the row matched and added to instead of ' +
      'creating another, or, for a part of a split whose transaction was already split otherwise, that transaction. Null otherwise',
  })
  duplicate_of: string | null;
}

export class ImportRowListDto {
  @ApiProperty({ type: [ImportRowDto] }) data: ImportRowDto[];
  @ApiProperty({ type: PaginationMetaDto }) meta: PaginationMetaDto;
}
