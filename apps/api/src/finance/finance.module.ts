import { Module } from '@nestjs/common';
import { FamiliesRepository } from './families.repository';
import { FamilySettingsController } from './family-settings.controller';
import { FamilySettingsService } from './family-settings.service';

@Module({ controllers: [FamilySettingsController], providers: [FamiliesRepository, FamilySettingsService], exports: [FamiliesRepository] })
export class FinanceModule {}
