import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { LenientPageParam, LenientPerPageParam, PaginationDto } from '../common/paging';

export class ListLabelsQuery {
  @LenientPageParam() page?: string;
  @LenientPerPageParam() per_page?: string;
}

export class DeleteLabelQuery {
  @ApiPropertyOptional({ format: 'uuid', description: "Another of the household's that takes this one's transactions (a merge); left out, they simply lose it" })
  @IsOptional()
  @IsUUID('all', { message: 'replacement_id must be a valid UUID' })
  replacement_id?: string;
}

/** Only the name changes; surrounding spaces are not part of it. */
export class RenameLabelDto {
  @ApiProperty({ example: 'Holiday', maxLength: 200, description: 'Unique in the household' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1 to 200 characters' })
  name: string;
}

/** A tag, or a merchant of the household's own (Sure's FamilyMerchant), with how many transactions carry it. */
export class LabelDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true, example: '#e99537' }) color: string | null;
  @ApiProperty({ type: 'integer', maximum: 1000, description: 'Transactions carrying it, counted up to 1,000 so that a list costs the same at any ledger size' })
  transactions_count: number;
  @ApiProperty({ description: 'True when more than 1,000 transactions carry it (transactions_count then says 1000)' }) transactions_count_capped: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class TagDto extends LabelDto {}
export class MerchantDto extends LabelDto {}

export class TagListDto {
  @ApiProperty({ type: [TagDto], description: 'By name' }) tags: TagDto[];
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}

export class MerchantListDto {
  @ApiProperty({ type: [MerchantDto], description: 'By name' }) merchants: MerchantDto[];
  @ApiProperty({ type: PaginationDto }) pagination: PaginationDto;
}

export class LabelDeletionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) replacement_id: string | null;
  @ApiProperty({ type: 'integer', description: 'Transactions moved to the replacement, or that simply lost it' }) transactions_moved: number;
}
