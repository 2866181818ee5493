import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, Length, MaxLength, MinLength } from 'class-validator';
import { API_KEY_SCOPES, ROLES, SSO_STRATEGIES, USER_STATUSES } from '@hearth/contracts';
import type { ApiKeyScope, Role, SsoStrategy, UserStatus } from '@hearth/contracts';
import { IsCurrencyCode } from '../common/currency-field';
import { OptionalNotNull } from '../common/optional-not-null';
import { PASSWORD_MAX, PASSWORD_MIN } from './password-length';

/** POST /sessions, as JSON or as an HTML form. */
export class SignInDto {
  @ApiProperty({ example: 'you@example.com' }) @IsString() @Length(1, 320) email: string;
  /** Any length up to the cap: the policy applies when a password is set, not when one is tried. */
  @ApiProperty({ format: 'password' }) @IsString() @Length(1, PASSWORD_MAX) password: string;
}

export class SetupDto {
  @ApiProperty({ example: 'you@example.com' }) @IsString() @Length(3, 320) email: string;
  @ApiProperty({ format: 'password', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }) @IsString() @MinLength(PASSWORD_MIN) @MaxLength(PASSWORD_MAX) password: string;
  @ApiProperty({ example: 'The Smiths' }) @IsString() @Length(1, 200) family_name: string;
  @ApiPropertyOptional({ example: 'USD', description: 'ISO 4217 code of the household currency; left out: USD. Never null.' })
  @OptionalNotNull()
  @IsCurrencyCode()
  currency?: string;
}

export class PasswordResetRequestDto {
  @ApiProperty({ example: 'you@example.com' }) @IsString() @Length(1, 320) email: string;
}

export class PasswordResetCompleteDto {
  @ApiProperty({ description: 'The token from the e-mailed link' }) @IsString() @Length(1, 100) token: string;
  @ApiProperty({ format: 'password', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }) @IsString() @MinLength(PASSWORD_MIN) @MaxLength(PASSWORD_MAX) password: string;
}

export class ChangePasswordDto {
  @ApiProperty({ format: 'password' }) @IsString() @Length(1, PASSWORD_MAX) current_password: string;
  @ApiProperty({ format: 'password', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX }) @IsString() @MinLength(PASSWORD_MIN) @MaxLength(PASSWORD_MAX) new_password: string;
}

/** Who a user is, as the signed-in user's own view and the admin user list both show it. */
export class UserSummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ nullable: true, type: String }) first_name: string | null;
  @ApiProperty({ nullable: true, type: String }) last_name: string | null;
  @ApiProperty({ enum: ROLES }) role: Role;
  @ApiProperty({ enum: USER_STATUSES }) status: UserStatus;
  @ApiProperty({ format: 'uuid' }) family_id: string;
  @ApiProperty() family_name: string;
}

/** What the signed-in user can do with a password, decided by the API so the admin app never re-derives it. */
export class MePasswordDto {
  @ApiProperty({ description: 'The account has a password. One provisioned through single sign-on has none and cannot set one.' })
  set: boolean;
  @ApiProperty({ description: "Password sign-in is open to this user's role (AUTH_LOCAL_LOGIN_ENABLED, or the super-admin override)" })
  sign_in_allowed: boolean;
  @ApiProperty({ description: 'set and sign_in_allowed: the password signs in, and PUT /api/v1/me/password may change it' })
  usable: boolean;
}

export class MeDto extends UserSummaryDto {
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_login_at: string | null;
  @ApiProperty({ description: 'Send as X-CSRF-Token on unsafe requests (also in the hearth_csrf cookie)' }) csrf_token: string;
  @ApiProperty({ type: MePasswordDto }) password: MePasswordDto;
}

export class SignedInDto {
  @ApiProperty({ type: MeDto }) user: MeDto;
  @ApiProperty({ format: 'date-time' }) expires_at: string;
}

export class SignInProviderDto {
  @ApiProperty({ example: 'corp' }) name: string;
  @ApiProperty({ example: 'Corp SSO' }) label: string;
  @ApiProperty({ enum: SSO_STRATEGIES }) strategy: SsoStrategy;
}

export class AuthConfigDto {
  @ApiProperty() local_login_enabled: boolean;
  @ApiProperty() local_admin_override_enabled: boolean;
  @ApiProperty({ description: 'Show the e-mail/password form' }) local_login_form_visible: boolean;
  @ApiProperty({ nullable: true, type: String, example: 'Local login is restricted to administrators.' })
  local_login_notice: string | null;
  @ApiProperty() password_reset_enabled: boolean;
  @ApiProperty({ description: 'No user exists yet: POST /api/v1/auth/setup creates the first super admin' })
  setup_required: boolean;
  @ApiProperty({ type: [SignInProviderDto], description: 'Enabled identity providers, by label: sign-in starts at GET /auth/{name}' })
  providers: SignInProviderDto[];
}


export class MessageDto {
  @ApiProperty() message: string;
}

export class CreateApiKeyDto {
  @ApiProperty({ example: 'bank sync' }) @IsString() @Length(1, 100) name: string;
  @ApiProperty({ enum: API_KEY_SCOPES }) @IsIn(API_KEY_SCOPES) scope: ApiKeyScope;
  @ApiPropertyOptional({ format: 'date-time' }) @IsOptional() @IsISO8601({ strict: true }) expires_at?: string;
}

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'hth_ab12cd34' }) prefix: string;
  @ApiProperty({ enum: API_KEY_SCOPES }) scope: ApiKeyScope;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_used_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) expires_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) revoked_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The key itself: shown only in this response, never again' }) key: string;
}

export class ApiKeyListDto {
  @ApiProperty({ type: [ApiKeyDto] }) api_keys: ApiKeyDto[];
}
