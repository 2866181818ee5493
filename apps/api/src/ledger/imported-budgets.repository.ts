import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';

/** A budget a ServiceImport gives, with its id and its amounts in minor units. */
export interface ImportedBudget {
  id: string | null;
  startDate: unknown;
  endDate: unknown;
  spending: string | null;
  income: string | null;
  currency: string;
}

/** The statements that write the budgets a ServiceImport carries (budgets have no import_id: revert deletes them by id). */
@Injectable()
export class ImportedBudgetsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insertBudgets(familyId: string, rows: ImportedBudget[], tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO budgets (id, family_id, start_date, end_date, budgeted_spending_minor, expected_income_minor, currency)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::date[], $4::date[], $5::bigint[], $6::bigint[], $7::char(3)[])`,
      [rows.map((r) => r.id), rows.map(() => familyId), rows.map((r) => r.startDate), rows.map((r) => r.endDate),
        rows.map((r) => r.spending), rows.map((r) => r.income), rows.map((r) => r.currency)],
    );
  }

  async insertBudgetCategories(rows: Array<{ budgetId: string | null; categoryId: string | null; spending: string; currency: string }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO budget_categories (budget_id, category_id, budgeted_spending_minor, currency)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::char(3)[])`,
      [rows.map((r) => r.budgetId), rows.map((r) => r.categoryId), rows.map((r) => r.spending), rows.map((r) => r.currency)],
    );
  }

  /** Deletes the family's budgets of the given ids. */
  async deleteByIds(familyId: string, ids: string[], tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`DELETE FROM budgets WHERE family_id = $1 AND id = ANY($2::uuid[])`, [familyId, ids]);
  }
}
