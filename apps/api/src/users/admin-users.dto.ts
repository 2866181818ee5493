import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { AUDIT_EVENTS, ROLES, USER_STATUSES } from '@hearth/contracts';
import type { AuditEvent, Role, UserStatus } from '@hearth/contracts';
import { UserSummaryDto } from '../auth/auth.dto';
import { PageParam, PerPageParam } from '../common/paging';

export class ListUsersQuery {
  @ApiPropertyOptional({ description: 'Matches e-mail, first or last name (case-insensitive)' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  q?: string;
  @ApiPropertyOptional({ enum: ROLES }) @IsOptional() @IsIn(ROLES) role?: Role;
  @ApiPropertyOptional({ enum: USER_STATUSES }) @IsOptional() @IsIn(USER_STATUSES) status?: UserStatus;
  @ApiPropertyOptional({ description: '`local` (has a password) or an SSO provider name' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  provider?: string;
  @PageParam() page?: number;
  @PerPageParam(25) per_page?: number;
}

export class AdminUserDto extends UserSummaryDto {
  @ApiProperty({
    enum: ROLES,
    nullable: true,
    description:
      'While suspended, the role of who suspended the user (null when active, or for a suspension recorded before this field). ' +
      "A super admin's suspension is lifted only by a super admin (else 403 suspended_by_super_admin).",
  })
  suspended_by_role: Role | null;
  @ApiProperty({ type: [String], example: ['password', 'keycloak'], description: '`password` and/or SSO provider names' })
  auth_methods: string[];
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_login_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class AdminUserListDto {
  @ApiProperty({ type: [AdminUserDto] }) users: AdminUserDto[];
  @ApiProperty() total: number;
  @ApiProperty() page: number;
  @ApiProperty() per_page: number;
}

/** Only the role can be changed here; any other field in the body is dropped by the whitelisting pipe. */
export class ChangeRoleDto {
  @ApiProperty({ enum: ROLES }) @IsIn(ROLES) role: Role;
}

/** The outcome of "sync roles": the provider's current mapping applied to the groups of the user's last sign-in. */
export class SyncRolesDto {
  @ApiProperty({ type: AdminUserDto }) user: AdminUserDto;
  @ApiProperty({ enum: ROLES }) role_before: Role;
  @ApiProperty({ enum: ROLES }) role_after: Role;
  @ApiProperty({ description: 'The provider whose mapping was applied (the identity that signed in last)' }) provider: string;
  @ApiProperty({ type: [String], description: 'The groups the provider sent at that sign-in' }) groups: string[];
  @ApiProperty({ format: 'date-time' }) groups_received_at: string;
  @ApiProperty({ description: 'Why the role is what it is, in one sentence' }) rule: string;
}

export class DeleteUserDto {
  @ApiProperty({ description: "The user's e-mail address, typed again to confirm the permanent removal" })
  @IsString()
  @Length(1, 320)
  confirmation_email: string;
}

export class AuthHistoryEntryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: AUDIT_EVENTS }) event: AuditEvent;
  @ApiProperty({ nullable: true, type: String }) provider: string | null;
  @ApiProperty({ nullable: true, type: String }) ip_address: string | null;
  @ApiProperty({ nullable: true, type: String }) user_agent: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) details: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class AuthHistoryDto {
  @ApiProperty({ type: [AuthHistoryEntryDto] }) events: AuthHistoryEntryDto[];
}

export class IdentityBlockDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) provider_id: string;
  @ApiProperty() provider_name: string;
  @ApiProperty() provider_label: string;
  @ApiProperty({ description: "The removed user's e-mail address (stored encrypted; the provider's subject is kept only as a keyed digest)" })
  identity_label: string;
  @ApiProperty({ format: 'date-time', description: 'When the user was removed' }) created_at: string;
}

export class IdentityBlockListDto {
  @ApiProperty({ type: [IdentityBlockDto] }) sso_identity_blocks: IdentityBlockDto[];
}
