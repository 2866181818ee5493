import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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

// The lenient paging of the reference API (budgets, accounts): values are read, never refused.

const DEFAULT_PAGE_SIZE = 25;
const MAX_PAGE_SIZE = 100;

/** A lenient list's `page` query parameter: below 1, absent or not a number reads as 1; past the last page, the last. */
export const LenientPageParam = () =>
  applyDecorators(ApiPropertyOptional({ description: 'Page number; below 1 or absent: 1; past the last: the last', default: 1 }), IsOptional());
/** A lenient list's `per_page` query parameter: 1 to 100, larger reads as 100, below 1 or absent as 25. */
export const LenientPerPageParam = () =>
  applyDecorators(ApiPropertyOptional({ description: '1 to 100 (larger: 100; below 1 or absent: 25)', default: DEFAULT_PAGE_SIZE }), IsOptional());

export class PaginationDto {
  @ApiProperty() page: number;
  @ApiProperty() per_page: number;
  @ApiProperty() total_count: number;
  @ApiProperty({ description: 'At least 1' }) total_pages: number;
}

/** Rows to fetch; integers computed from the request by pageWindow. */
export interface PageWindow {
  limit: number;
  offset: number;
}

/** Lenient like the reference API: a missing or non-positive page is 1; per_page is capped at 100, else 25. */
export function requestedPage(query: { page?: string; per_page?: string }): { page: number; perPage: number } {
  const page = Number.parseInt(query.page ?? '', 10);
  const perPage = Number.parseInt(query.per_page ?? '', 10);
  return {
    page: page > 0 ? page : 1,
    perPage: perPage > 0 ? Math.min(perPage, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE,
  };
}

/** The rows of the requested page of `totalCount`, and its pagination object. A page past the last shows the last page, and says so. */
export function pageWindow(query: { page?: string; per_page?: string }, totalCount: number): { window: PageWindow; pagination: PaginationDto } {
  const { page: requested, perPage } = requestedPage(query);
  const totalPages = Math.max(1, Math.ceil(totalCount / perPage));
  const page = Math.min(requested, totalPages);
  return {
    window: { limit: perPage, offset: (page - 1) * perPage },
    pagination: { page, per_page: perPage, total_count: totalCount, total_pages: totalPages },
  };
}
