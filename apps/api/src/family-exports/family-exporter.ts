import { Injectable } from '@nestjs/common';
import { emptyRecordCounts, ENTITY_KEYS, ruleOperandTable, ServiceRecordType } from '@hearth/domain/import-formats';
import { formatDecimal } from '@hearth/domain/money';
import { FamilyExportsRepository, Row } from './family-exports.repository';

// A family's data as the service's NDJSON (docs/api/service-ndjson.md#family-exports): the format ServiceImport reads, types in
// dependency order, real ids as source ids (they remap on import), split lines nested in their transaction, rule
// operands named (with value_ref) so they resolve in another family. Timestamps are left out: they are not data
// the import restores.

const amount = (minor: unknown, currency: unknown) => (minor === null || minor === undefined ? null : formatDecimal(BigInt(String(minor)), String(currency)));
const REF_TYPE = { categories: 'Category', merchants: 'Merchant', tags: 'Tag' } as const;

type Operand = Record<string, unknown> & { sub_conditions?: Operand[] };

@Injectable()
export class FamilyExporter {
  constructor(private readonly data: FamilyExportsRepository) {}

  /** The NDJSON text (no trailing newline, like Sure's) and its line counts per entity key. */
  async export(familyId: string): Promise<{ content: string; recordCounts: Record<string, number> }> {
    const lines: string[] = [];
    const recordCounts = emptyRecordCounts();
    const emit = (type: ServiceRecordType, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      lines.push(JSON.stringify({ type, data, ...extra }));
      recordCounts[ENTITY_KEYS[type]]++;
    };

    const [accounts, categories, tags, merchants, transactions, transfers, trades, valuations, budgets, budgetCategories, rules] = await Promise.all([
      this.data.accounts(familyId), this.data.categories(familyId), this.data.tags(familyId), this.data.merchants(familyId),
      this.data.transactions(familyId), this.data.transfers(familyId), this.data.trades(familyId), this.data.valuations(familyId),
      this.data.budgets(familyId), this.data.budgetCategories(familyId), this.data.rules(familyId),
    ]);

    // Every valuation the account has is in the file, so importing it must not synthesize an opening balance for
    // an account that has none (one created by a CSV import's account column, say): skip_opening_balance_import.
    for (const a of accounts) {
      emit('Account', {
        id: a.id, name: a.name, balance: amount(a.balance, a.currency), cash_balance: amount(a.cash_balance, a.currency), currency: a.currency,
        accountable_type: a.accountable_type, subtype: a.subtype, status: a.status, institution_name: a.institution_name, notes: a.notes,
        accountable: { subtype: a.subtype }, skip_opening_balance_import: true,
      });
    }
    for (const c of categories) emit('Category', { id: c.id, name: c.name, color: c.color, lucide_icon: c.lucide_icon, parent_id: c.parent_id });
    for (const t of tags) emit('Tag', { id: t.id, name: t.name, color: t.color });
    for (const m of merchants) emit('Merchant', { id: m.id, name: m.name, color: m.color, logo_url: m.logo_url, website_url: m.website_url });

    const children = new Map<unknown, Row[]>();
    for (const t of transactions.filter((x) => x.parent_entry_id)) children.set(t.parent_entry_id, [...(children.get(t.parent_entry_id) ?? []), t]);
    for (const t of transactions.filter((x) => !x.parent_entry_id)) {
      const splits = children.get(t.id) ?? [];
      emit('Transaction', {
        id: t.id, account_id: t.account_id, date: t.date, amount: amount(t.amount, t.currency), currency: t.currency, name: t.name, notes: t.notes,
        excluded: t.excluded, kind: t.kind, category_id: t.category_id, merchant_id: t.merchant_id, tag_ids: t.tag_ids,
        ...(splits.length
          ? {
              split_lines: splits.map((s) => ({
                id: s.id, amount: amount(s.amount, s.currency), name: s.name, category_id: s.category_id, merchant_id: s.merchant_id, tag_ids: s.tag_ids,
                notes: s.notes, excluded: s.excluded, kind: s.kind,
              })),
            }
          : {}),
      });
    }
    for (const x of transfers) emit('Transfer', { inflow_transaction_id: x.inflow_entry_id, outflow_transaction_id: x.outflow_entry_id, status: x.status, notes: x.notes });
    // The fee is written even when it is 0, like every amount here: only files of older exports (or Sure's) lack it,
    // as they lack the label, which importing them derives from qty.
    for (const t of trades) {
      emit('Trade', {
        id: t.id, account_id: t.account_id, date: t.date, amount: amount(t.amount, t.currency), currency: t.currency, name: t.name, qty: t.qty,
        price: t.price, fee: amount(t.fee, t.currency), investment_activity_label: t.label, ticker: t.ticker,
        exchange_operating_mic: t.exchange_operating_mic || null, security_name: t.security_name,
      });
    }
    for (const v of valuations) emit('Valuation', { id: v.id, account_id: v.account_id, date: v.date, amount: amount(v.amount, v.currency), currency: v.currency, name: v.name, kind: v.kind });
    for (const b of budgets) {
      emit('Budget', {
        id: b.id, start_date: b.start_date, end_date: b.end_date, budgeted_spending: amount(b.budgeted_spending, b.currency),
        expected_income: amount(b.expected_income, b.currency), currency: b.currency,
      });
    }
    for (const bc of budgetCategories) {
      emit('BudgetCategory', { budget_id: bc.budget_id, category_id: bc.category_id, budgeted_spending: amount(bc.budgeted_spending, bc.currency), currency: bc.currency });
    }
    const names = {
      categories: new Map(categories.map((c) => [c.id, c.name])),
      merchants: new Map(merchants.map((m) => [m.id, m.name])),
      tags: new Map(tags.map((t) => [t.id, t.name])),
    };
    const portable = (operands: unknown): Operand[] =>
      (Array.isArray(operands) ? (operands as Operand[]) : []).map((op) => {
        const table = ruleOperandTable(op);
        const name = table ? names[table].get(op.value) : undefined;
        return {
          ...op,
          ...(table && name !== undefined ? { value: name, value_ref: { type: REF_TYPE[table], id: op.value, name } } : {}),
          ...(Array.isArray(op.sub_conditions) ? { sub_conditions: portable(op.sub_conditions) } : {}),
        };
      });
    for (const r of rules) {
      emit(
        'Rule',
        { id: r.id, name: r.name, resource_type: r.resource_type, active: r.active, effective_date: r.effective_date, conditions: portable(r.conditions), actions: portable(r.actions) },
        { version: 1 },
      );
    }
    return { content: lines.join('\n'), recordCounts };
  }
}
