import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { ROLES, SSO_STRATEGIES } from '@hearth/contracts';
import type { Role, SsoStrategy } from '@hearth/contracts';
import { OptionalNotNull } from '../common/optional-not-null';

export const TOKEN_AUTH_METHODS = ['client_secret_post', 'client_secret_basic'] as const;
export type TokenAuthMethod = (typeof TOKEN_AUTH_METHODS)[number];

/** Fields shared by create and update; every one optional here, requirements per strategy are checked by the service. */
export class ProviderFieldsDto {
  @ApiPropertyOptional({ example: 'Company SSO' }) @IsOptional() @IsString() @Length(1, 200) label?: string;
  @ApiPropertyOptional({ description: 'Turns sign-in through this provider on or off (default off until tested)' })
  @OptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
  @ApiPropertyOptional({ example: 'https://idp.example.com/realms/main', description: 'OIDC issuer (discovery is checked on save)' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  issuer?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @Length(1, 500) client_id?: string;
  @ApiPropertyOptional({ description: 'Write-only; stored encrypted. Omit or send empty to keep the current secret.' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  client_secret?: string;
  @ApiPropertyOptional({ example: 'openid profile email groups' }) @OptionalNotNull() @IsString() @Length(1, 500) scopes?: string;
  @ApiPropertyOptional({ description: 'OAuth2 authorization URL' }) @IsOptional() @IsString() @MaxLength(500) authorization_url?: string;
  @ApiPropertyOptional({ description: 'OAuth2 token URL' }) @IsOptional() @IsString() @MaxLength(500) token_url?: string;
  @ApiPropertyOptional({ description: 'OAuth2 user info URL' }) @IsOptional() @IsString() @MaxLength(500) userinfo_url?: string;
  @ApiPropertyOptional({ enum: TOKEN_AUTH_METHODS, default: 'client_secret_post' })
  @OptionalNotNull()
  @IsIn(TOKEN_AUTH_METHODS)
  token_auth_method?: TokenAuthMethod;
  @ApiPropertyOptional({ description: 'SAML SSO URL' }) @IsOptional() @IsString() @MaxLength(500) sso_url?: string;
  @ApiPropertyOptional({ description: "SAML IdP single logout URL (HTTP-Redirect): signing out of Hearth signs out there too; empty for local sign-out only" })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  slo_url?: string;
  @ApiPropertyOptional({ description: 'SAML IdP entity ID' }) @IsOptional() @IsString() @MaxLength(500) idp_entity_id?: string;
  @ApiPropertyOptional({ description: 'SAML IdP X.509 certificate (PEM)' }) @IsOptional() @IsString() @MaxLength(20000) idp_certificate?: string;
  @ApiPropertyOptional() @OptionalNotNull() @IsBoolean() sign_requests?: boolean;
  @ApiPropertyOptional({ description: 'Write-only; stored encrypted' }) @IsOptional() @IsString() @MaxLength(20000) sp_private_key?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(20000) sp_certificate?: string;
  @ApiPropertyOptional({ enum: ROLES, default: 'member', description: 'Role of JIT-created users when no mapping matches' })
  @OptionalNotNull()
  @IsIn(ROLES)
  default_role?: Role;
  @ApiPropertyOptional({ default: 'groups', description: 'Claim or attribute holding the groups' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 100)
  group_attribute?: string;
  @ApiPropertyOptional({
    description:
      'groupMappings [{group, role}], attributeMappings {attr: field}, conditions [{attribute, value, groups, role}], roleHierarchy. ' +
      'Replaces the stored mapping as a whole (send every rule to keep; {} for none). Applied on each sign-in when it has groupMappings or conditions.',
    type: 'object',
    additionalProperties: true,
  })
  @OptionalNotNull()
  @IsObject()
  role_mapping?: Record<string, unknown>;
}

export class CreateProviderDto extends ProviderFieldsDto {
  @ApiProperty({ example: 'keycloak', description: 'Unique; decides the callback path /auth/<name>/callback' })
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,99}$/, { message: 'name must be 1 to 100 lower-case letters, digits, _ or -, starting with a letter or digit' })
  name: string;
  @ApiProperty({ enum: SSO_STRATEGIES }) @IsIn(SSO_STRATEGIES) strategy: SsoStrategy;
}

export class UpdateProviderDto extends ProviderFieldsDto {
  @ApiPropertyOptional({ description: 'Renaming changes the callback URL' })
  @OptionalNotNull()
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,99}$/, { message: 'name must be 1 to 100 lower-case letters, digits, _ or -, starting with a letter or digit' })
  name?: string;
}

export class ProviderDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() label: string;
  @ApiProperty({ enum: SSO_STRATEGIES }) strategy: SsoStrategy;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ nullable: true, type: String }) issuer: string | null;
  @ApiProperty({ nullable: true, type: String }) client_id: string | null;
  @ApiProperty({ description: 'Whether a client secret is stored (the secret itself is never returned)' }) has_client_secret: boolean;
  @ApiProperty() scopes: string;
  @ApiProperty({ nullable: true, type: String }) authorization_url: string | null;
  @ApiProperty({ nullable: true, type: String }) token_url: string | null;
  @ApiProperty({ nullable: true, type: String }) userinfo_url: string | null;
  @ApiProperty({ enum: TOKEN_AUTH_METHODS }) token_auth_method: string;
  @ApiProperty({ nullable: true, type: String }) sso_url: string | null;
  @ApiProperty({ nullable: true, type: String }) slo_url: string | null;
  @ApiProperty({ nullable: true, type: String }) idp_entity_id: string | null;
  @ApiProperty({ nullable: true, type: String }) idp_certificate: string | null;
  @ApiProperty() sign_requests: boolean;
  @ApiProperty() has_sp_private_key: boolean;
  @ApiProperty({ nullable: true, type: String }) sp_certificate: string | null;
  @ApiProperty({ enum: ROLES }) default_role: Role;
  @ApiProperty() group_attribute: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) role_mapping: Record<string, unknown>;
  @ApiProperty({ description: 'Register this exact address at the identity provider' }) callback_url: string;
  @ApiProperty({ description: 'Where the login button sends the browser' }) login_url: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class ProviderListDto {
  @ApiProperty({ type: [ProviderDto] }) sso_providers: ProviderDto[];
  @ApiProperty({ enum: ['db', 'yaml'] }) source: string;
}
