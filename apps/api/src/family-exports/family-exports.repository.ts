import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FamilyExport, FamilyExportStatus } from './family-export.entity';

// SQL for family exports: the export records and the family's data they read. Every query is scoped by family id.
// Orders use content (names, dates, amounts) before ids, so two families holding the same data export it in the
// same order whatever their ids.

export type Row = Record<string, unknown>;

@Injectable()
export class FamilyExportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  create(familyId: string, fileName: string): Promise<FamilyExport> {
    const repo = this.dataSource.getRepository(FamilyExport);
    return repo.save(repo.create({ familyId, fileName }));
  }

  findOne(familyId: string, id: string): Promise<FamilyExport | null> {
    return this.dataSource.getRepository(FamilyExport).findOneBy({ id, familyId });
  }

  list(familyId: string): Promise<FamilyExport[]> {
    return this.dataSource.getRepository(FamilyExport).find({ where: { familyId }, order: { createdAt: 'DESC', id: 'DESC' }, take: 25 });
  }

  async content(familyId: string, id: string): Promise<string | null> {
    const [row] = await this.dataSource.query(`SELECT content FROM family_exports WHERE id = $1 AND family_id = $2`, [id, familyId]);
    return row?.content ?? null;
  }

  /** Compare-and-set on the status, so a redelivered job does nothing. */
  async transition(familyId: string, id: string, from: FamilyExportStatus[], to: FamilyExportStatus, changes: { content?: string; recordCounts?: Record<string, number>; error?: string | null } = {}) {
    const result = await this.dataSource.query(
      `UPDATE family_exports SET status = $4::varchar, content = COALESCE($5::text, content), record_counts = COALESCE($6::jsonb, record_counts),
              error = $7::text, completed_at = CASE WHEN $4::varchar = 'completed' THEN now() ELSE completed_at END, updated_at = now()
        WHERE id = $1 AND family_id = $2 AND status = ANY($3::varchar[]) RETURNING id`,
      [id, familyId, from, to, changes.content ?? null, changes.recordCounts ? JSON.stringify(changes.recordCounts) : null, changes.error ?? null],
    );
    return (result[0]?.length ?? result.length) > 0;
  }

  // ---- the family's data, one statement per record type ----

  accounts(familyId: string): Promise<Row[]> {
    return this.dataSource.query(
      `SELECT id, name, accountable_type, subtype, balance_minor::text AS balance, cash_balance_minor::text AS cash_balance, currency, status,
              institution_name, notes
         FROM accounts WHERE family_id = $1 AND status <> 'pending_deletion' ORDER BY name, accountable_type, id`,
      [familyId],
    );
  }

  categories(familyId: string): Promise<Row[]> {
    return this.dataSource.query(`SELECT id, name, color, lucide_icon, parent_id FROM categories WHERE family_id = $1 ORDER BY name, id`, [familyId]);
  }

  tags(familyId: string): Promise<Row[]> {
    return this.dataSource.query(`SELECT id, name, color FROM tags WHERE family_id = $1 ORDER BY name, id`, [familyId]);
  }

  merchants(familyId: string): Promise<Row[]> {
    return this.dataSource.query(
      `SELECT id, name, color, logo_url, website_url FROM merchants WHERE family_id = $1 AND type = 'FamilyMerchant' ORDER BY name, id`,
      [familyId],
    );
  }

  /** Transactions, split children included (parent_entry_id set); tag ids ordered by tag name. */
  transactions(familyId: string): Promise<Row[]> {
    return this.dataSource.query(
      `SELECT e.id, e.account_id, e.date::text AS date, e.amount_minor::text AS amount, e.currency, e.name, e.notes, e.excluded, e.parent_entry_id,
              t.kind, t.category_id, t.merchant_id,
              COALESCE((SELECT array_agg(g.id ORDER BY g.name) FROM taggings tg JOIN tags g ON g.id = tg.tag_id WHERE tg.entry_id = e.id), '{}') AS tag_ids
         FROM entries e JOIN transactions t ON t.entry_id = e.id JOIN accounts a ON a.id = e.account_id
        WHERE e.family_id = $1 AND e.entryable_type = 'Transaction' AND a.status <> 'pending_deletion'
        ORDER BY e.date, e.name, e.amount_minor, a.name, e.id`,
      [familyId],
    );
  }

  /** Transfers whose two sides both belong to the family. */
  transfers(familyId: string): Promise<Row[]> {
    return this.dataSource.query(
      `SELECT x.inflow_entry_id, x.outflow_entry_id, x.status, x.notes
         FROM transfers x JOIN entries i ON i.id = x.inflow_entry_id JOIN entries o ON o.id = x.outflow_entry_id
        WHERE x.family_id = $1 AND i.family_id = $1 AND o.family_id = $1
        ORDER BY i.date, i.name, i.amount_minor, o.name, x.id`,
      [familyId],
    );
  }

  trades(familyId: string): Promise<Row[]> {
    return this.dataSource.query(
      `SELECT e.id, e.account_id, e.date::text AS date, e.amount_minor::text AS amount, e.currency, e.name, t.qty::text AS qty, t.price::text AS price,
              t.fee_minor::text AS fee, t.investment_activity_label AS label, s.ticker, s.exchange_operating_mic, s.name AS security_name
         FROM entries e JOIN trades t ON t.entry_id = e.id JOIN securities s ON s.id = t.security_id JOIN accounts a ON a.id = e.account_id
        WHERE e.family_id = $1 AND e.entryable_type = 'Trade' AND a.status <> 'pending_deletion'
        ORDER BY e.date, a.name, s.ticker, e.amount_minor, e.id`,
      [familyId],
    );
  }

  valuations(familyId: string): Promise<Row[]> {
    return this.dataSource.query(
      `SELECT e.id, e.account_id, e.date::text AS date, e.amount_minor::text AS amount, e.currency, e.name, v.kind
         FROM entries e JOIN valuations v ON v.entry_id = e.id JOIN accounts a ON a.id = e.account_id
        WHERE e.family_id = $1 AND e.entryable_type = 'Valuation' AND a.status <> 'pending_deletion'
        ORDER BY a.name, e.date, v.kind, e.amount_minor, e.id`,
      [familyId],
    );
  }

  /** Household budgets (a member's personal budget is not family data). */
  budgets(familyId: string): Promise<Row[]> {
    return this.dataSource.query(
      `SELECT id, start_date::text AS start_date, end_date::text AS end_date, budgeted_spending_minor::text AS budgeted_spending,
              expected_income_minor::text AS expected_income, currency
         FROM budgets WHERE family_id = $1 AND user_id IS NULL ORDER BY start_date, end_date`,
      [familyId],
    );
  }

  budgetCategories(familyId: string): Promise<Row[]> {
    return this.dataSource.query(
      `SELECT bc.budget_id, bc.category_id, bc.budgeted_spending_minor::text AS budgeted_spending, bc.currency
         FROM budget_categories bc JOIN budgets b ON b.id = bc.budget_id JOIN categories c ON c.id = bc.category_id
        WHERE b.family_id = $1 AND b.user_id IS NULL ORDER BY b.start_date, c.name, bc.id`,
      [familyId],
    );
  }

  rules(familyId: string): Promise<Row[]> {
    return this.dataSource.query(
      `SELECT id, name, resource_type, active, effective_date::text AS effective_date, conditions, actions
         FROM rules WHERE family_id = $1 ORDER BY name NULLS LAST, effective_date NULLS LAST, conditions::text, id`,
      [familyId],
    );
  }
}
