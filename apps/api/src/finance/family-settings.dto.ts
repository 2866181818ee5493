import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Length, Matches, Max, Min, Validate, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { IsCurrencyCode } from '../common/currency-field';
import { OptionalNotNull } from '../common/optional-not-null';

@ValidatorConstraint({ name: 'timeZone' })
class IsIanaTimeZone implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    if (typeof value !== 'string') return false;
    try {
      new Intl.DateTimeFormat('en', { timeZone: value });
      return true;
    } catch {
      return false;
    }
  }
  defaultMessage(): string {
    return 'timezone must be an IANA time zone such as Europe/Berlin';
  }
}

const DATE_FORMATS = ['%m-%d-%Y', '%d.%m.%Y', '%d-%m-%Y', '%Y-%m-%d', '%d/%m/%Y', '%Y/%m/%d', '%m/%d/%Y', '%e/%m/%Y', '%Y.%m.%d', '%Y%m%d', '%d %b %Y'];

/** Every setting may be left out (unchanged) but none can be cleared. */
export class UpdateFamilySettingsDto {
  @ApiPropertyOptional() @OptionalNotNull() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional({ example: 'EUR', description: 'ISO 4217 code' }) @OptionalNotNull() @IsCurrencyCode() currency?: string;
  @ApiPropertyOptional({ example: 'en' }) @OptionalNotNull() @Matches(/^[a-z]{2}(-[A-Z]{2})?$/, { message: 'locale must look like en or en-GB' }) locale?: string;
  @ApiPropertyOptional({ enum: DATE_FORMATS }) @OptionalNotNull() @IsIn(DATE_FORMATS) date_format?: string;
  @ApiPropertyOptional({ example: 'Europe/Berlin' }) @OptionalNotNull() @Validate(IsIanaTimeZone) timezone?: string;
  @ApiPropertyOptional({ minimum: 1, maximum: 28 }) @OptionalNotNull() @IsInt() @Min(1) @Max(28) month_start_day?: number;
}

export class FamilySettingsDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() currency: string;
  @ApiProperty() locale: string;
  @ApiProperty() date_format: string;
  @ApiProperty({ nullable: true, type: String }) timezone: string | null;
  @ApiProperty() month_start_day: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
