import { Module } from '@nestjs/common';
import { FamiliesRepository } from './families.repository';
import { FamilySettingsController } from './family-settings.controller';

@Module({ controllers: [FamilySettingsController], providers: [FamiliesRepository], exports: [FamiliesRepository] })
export class FinanceModule {}
