import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Digits only: Number() would also read '0x10', '1e1' and ' 2'; anything else stays as sent and fails @IsInt. */
const decimalInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^[0-9]{1,16}$/.test(value) ? Number(value) : value);

/** An optional integer query parameter in decimal digits, from 1 to `max`, refused by name otherwise. */
const boundedInteger = (name: string, max: number, defaultValue: number) => {
  const message = `${name} must be an integer from 1 to ${max}`;
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: max, default: defaultValue }),
    IsOptional(),
    Transform(decimalInteger),
    IsInt({ message }),
    Min(1, { message }),
    Max(max, { message }),
  );
};

/** A list's `page`: up to a million, so a huge one is refused here rather than overflowing the query's offset. */
export const PageParam = () => boundedInteger('page', 1_000_000, 1);
/** A list's `per_page`, at most 100. */
export const PerPageParam = (defaultSize: number) => boundedInteger('per_page', 100, defaultSize);
