import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { currencyCodes } from '@hearth/domain/money';
import { managerOf, Transaction } from '../database/transactions';
import { Family } from './entities/family.entity';

/** Family-owned tables whose currency is the household's when created; a code there that is not ISO 4217 came from it. */
const HOUSEHOLD_CURRENCY_COPIES = ['budgets', 'budget_categories', 'accounts', 'entries'] as const;

@Injectable()
export class FamiliesRepository {
  constructor(private readonly dataSource: DataSource) {}

  findById(familyId: string, tx?: Transaction): Promise<Family | null> {
    return managerOf(tx, this.dataSource).getRepository(Family).findOneBy({ id: familyId });
  }

  findByName(name: string, tx?: Transaction): Promise<Family | null> {
    return managerOf(tx, this.dataSource).getRepository(Family).findOneBy({ name });
  }

  insert(family: Pick<Family, 'name' | 'currency'>, tx: Transaction): Promise<Family> {
    const families = managerOf(tx, this.dataSource).getRepository(Family);
    return families.save(families.create(family));
  }

  async update(familyId: string, changes: Partial<Family>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).getRepository(Family).update({ id: familyId }, changes);
  }

  /**
   * Sets the family's rows holding a code that is not one of ISO 4217 (from a household currency accepted before
   * setup checked it) to `currency`: with no minor unit or rate they could never be shown, and the household
   * currency is what they were meant to be in. Valid currencies are kept.
   */
  async repairCurrencyCopies(familyId: string, currency: string, tx?: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    for (const table of HOUSEHOLD_CURRENCY_COPIES) {
      const owned = table === 'budget_categories' ? 'budget_id IN (SELECT id FROM budgets WHERE family_id = $1)' : 'family_id = $1';
      await manager.query(`UPDATE ${table} SET currency = $2 WHERE ${owned} AND currency <> ALL($3::text[])`, [familyId, currency, currencyCodes()]);
    }
  }
}
