import { ApiProperty } from '@nestjs/swagger';
import { ROLES } from '@hearth/contracts';
import type { Role } from '@hearth/contracts';

export class TestLoginStartedDto {
  @ApiProperty({ description: "Open this in the same browser: the provider's sign-in, then back to the callback and the providers page" })
  authorization_url: string;
  @ApiProperty({ format: 'date-time', description: 'The login must be completed before this' })
  expires_at: string;
}

export class TestLoginRoleDto {
  @ApiProperty({ description: 'Whether the provider has group mappings or conditions; without them sign-in leaves roles unchanged, except that a role a since-removed mapping gave becomes the default role' })
  configured: boolean;
  @ApiProperty({ enum: ROLES, description: 'The role the mapping gives (the default role when no rule matches)' })
  role: Role;
  @ApiProperty({ enum: ROLES, isArray: true, description: 'The role and the roles it implies through the role hierarchy' })
  effective_roles: Role[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The rule that decided the role' })
  decided_by: Record<string, unknown>;
  @ApiProperty({ type: 'object', isArray: true, additionalProperties: true, description: 'Every rule that matched, highest role first' })
  matched_rules: Record<string, unknown>[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'Application fields from the attribute mappings' })
  mapped_fields: Record<string, string>;
  @ApiProperty() explanation: string;
}

export class TestLoginAccountDto {
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The user already linked to this provider subject, if any' })
  identity_user_id: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: "The user with the provider's e-mail address, if any" })
  email_user_id: string | null;
}

export class TestLoginResultDto {
  @ApiProperty({ enum: ['pending', 'expired', 'succeeded', 'failed'] }) status: 'pending' | 'expired' | 'succeeded' | 'failed';
  @ApiProperty({ format: 'uuid' }) provider_id: string;
  @ApiProperty({ format: 'date-time' }) started_at: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) completed_at: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why the login failed (failed only), e.g. token_exchange_failed' }) error: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'What the provider or the checks said (failed only)' }) error_detail: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The provider subject (OIDC sub)' }) subject: string | null;
  @ApiProperty({ nullable: true, type: String }) issuer: string | null;
  @ApiProperty({ nullable: true, type: String }) email: string | null;
  @ApiProperty({ nullable: true, type: Boolean, description: 'Sign-in requires exactly true' }) email_verified: boolean | null;
  @ApiProperty({ type: [String], description: "Groups read from the provider's group attribute" }) groups: string[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Verified ID-token claims merged with user info (tokens are never kept)' })
  claims: Record<string, unknown>;
  @ApiProperty({ nullable: true, type: TestLoginRoleDto }) role_mapping: TestLoginRoleDto | null;
  @ApiProperty({ nullable: true, type: TestLoginAccountDto }) account: TestLoginAccountDto | null;
}
