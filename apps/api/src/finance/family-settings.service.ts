import { Injectable } from '@nestjs/common';
import type { FamilyScope } from '../common/family-scope';
import { Transactions } from '../database/transactions';
import type { Family } from './entities/family.entity';
import { FamiliesRepository } from './families.repository';

/** The household settings of the caller's family. */
@Injectable()
export class FamilySettingsService {
  constructor(
    private readonly families: FamiliesRepository,
    private readonly transactions: Transactions,
  ) {}

  find(scope: FamilyScope): Promise<Family | null> {
    return this.families.findById(scope.familyId);
  }

  /** Changes the given settings; a new currency also repairs the family's rows holding a code that is not ISO 4217. */
  async update(scope: FamilyScope, changes: Partial<Family>): Promise<Family | null> {
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    if (!Object.keys(defined).length) return this.families.findById(scope.familyId);
    await this.transactions.run(async (tx) => {
      await this.families.update(scope.familyId, defined, tx);
      if (changes.currency !== undefined) await this.families.repairCurrencyCopies(scope.familyId, changes.currency, tx);
    });
    return this.families.findById(scope.familyId);
  }
}
