import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScope, RequireSession } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { ErrorResponseDto } from '../common/error-response.dto';
import { familyScopeOf } from '../common/family-scope';
import type { Family } from './entities/family.entity';
import { FamilySettingsDto, UpdateFamilySettingsDto } from './family-settings.dto';
import { FamilySettingsService } from './family-settings.service';

const toDto = (family: Family): FamilySettingsDto => ({
  id: family.id,
  name: family.name,
  currency: family.currency,
  locale: family.locale,
  date_format: family.dateFormat,
  timezone: family.timezone,
  month_start_day: family.monthStartDay,
  created_at: family.createdAt.toISOString(),
  updated_at: family.updatedAt.toISOString(),
});

/** The caller's household settings: currency, locale, time zone and budget month start. */
@ApiTags('family_settings')
@Controller('family_settings')
export class FamilySettingsController {
  constructor(private readonly settings: FamilySettingsService) {}

  @Get()
  @RequireScope('read')
  @RequireSession() // the admin app reads them too (which budget month is running)
  @ApiOkResponse({ type: FamilySettingsDto })
  async show(@CurrentPrincipal() principal: Principal): Promise<FamilySettingsDto> {
    const family = await this.settings.find(familyScopeOf(principal));
    if (!family) throw ApiError.notFound();
    return toDto(family);
  }

  /**
   * Admins only (a member's session or read_write key gets 403): the currency, month start and time zone decide every
   * budget of the household. A new currency also repairs rows holding a code that is not ISO 4217.
   */
  @Patch()
  @RequireScope('write')
  @RequireSession({ minRole: 'admin' })
  @ApiOkResponse({ type: FamilySettingsDto })
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'validation_failed: a setting out of range, null, or a currency that is not ISO 4217; nothing is changed' })
  async update(@CurrentPrincipal() principal: Principal, @Body() body: UpdateFamilySettingsDto): Promise<FamilySettingsDto> {
    const family = await this.settings.update(familyScopeOf(principal), {
      name: body.name,
      currency: body.currency,
      locale: body.locale,
      dateFormat: body.date_format,
      timezone: body.timezone,
      monthStartDay: body.month_start_day,
    });
    if (!family) throw ApiError.notFound();
    return toDto(family);
  }
}
