import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDate, IsIn, isISO8601, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { AUDIT_EVENTS } from '@hearth/contracts';
import type { AuditEvent } from '@hearth/contracts';
import { PageParam, PerPageParam } from '../common/paging';

/** Only an ISO 8601 date or date-time of a real calendar day becomes a Date; `1` or `2024-02-30` fail @IsDate. */
const isoDateTime = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) && isISO8601(value, { strict: true, strictSeparator: true }) ? new Date(value) : new Date(NaN);

export class AuditLogQuery {
  @ApiPropertyOptional({ enum: AUDIT_EVENTS }) @IsOptional() @IsIn(AUDIT_EVENTS) event?: AuditEvent;
  @ApiPropertyOptional({ format: 'date-time', description: 'Events at or after this moment' })
  @IsOptional()
  @Transform(isoDateTime)
  @IsDate({ message: 'from must be an ISO 8601 date-time' })
  from?: Date;
  @ApiPropertyOptional({ format: 'date-time', description: 'Events before this moment' })
  @IsOptional()
  @Transform(isoDateTime)
  @IsDate({ message: 'to must be an ISO 8601 date-time' })
  to?: Date;
  @ApiPropertyOptional({ format: 'uuid' }) @IsOptional() @IsUUID() user_id?: string;
  @ApiPropertyOptional({ description: '`local` or a provider name' }) @IsOptional() @IsString() @Length(1, 100) provider?: string;
  @PageParam() page?: number;
  @PerPageParam(50) per_page?: number;
}

export class AuditLogDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: AUDIT_EVENTS }) event: AuditEvent;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) user_id: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The user's e-mail; null without a user or once the user is removed" }) user_email: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) family_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) provider_id: string | null;
  @ApiProperty({ nullable: true, type: String }) provider_name: string | null;
  @ApiProperty({ nullable: true, type: String }) ip_address: string | null;
  @ApiProperty({ nullable: true, type: String }) user_agent: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) details: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class AuditLogListDto {
  @ApiProperty({ type: [AuditLogDto] }) audit_logs: AuditLogDto[];
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty() per_page: number;
}
