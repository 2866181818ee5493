import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDate, IsIn, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { AUDIT_ACTORS, AUDIT_EVENTS } from '@hearth/contracts';
import type { AuditActor, AuditEvent } from '@hearth/contracts';
import { PageParam, PerPageParam } from '../common/paging';
import { parseUtcDateTime } from '../common/utc-date-time';

/** Only an ISO 8601 date or date-time of a real calendar day becomes a Date (UTC without an offset); `1` or `2024-02-30` fail @IsDate. */
const isoDateTime = ({ value }: { value: unknown }) => (typeof value === 'string' && parseUtcDateTime(value)) || new Date(NaN);
const UTC_NOTE = 'ISO 8601 date (`2024-03-01`) or date-time (`2024-03-01T10:00:00`, `...Z`, `...+01:00`); without an offset it is UTC, on every server';

export class AuditLogQuery {
  @ApiPropertyOptional({ enum: AUDIT_EVENTS }) @IsOptional() @IsIn(AUDIT_EVENTS) event?: AuditEvent;
  @ApiPropertyOptional({ format: 'date-time', description: `Events at or after this moment. ${UTC_NOTE}` })
  @IsOptional()
  @Transform(isoDateTime)
  @IsDate({ message: 'from must be an ISO 8601 date-time' })
  from?: Date;
  @ApiPropertyOptional({ format: 'date-time', description: `Events before this moment. ${UTC_NOTE}` })
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
  @ApiProperty({
    enum: AUDIT_ACTORS,
    description: 'Who acted: user (through the API or the admin app), cli (an operator command on the server), system (a background job)',
  })
  actor: AuditActor;
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
