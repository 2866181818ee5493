import { formatDecimal, formatMoney } from '@hearth/domain/money';
import { Link } from 'react-router';
import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { Loading } from '../../../components/Loading';
import { problemsOf } from '../../../lib/api/field-errors';
import { paramsOf } from '../../transactions/filters';
import { useBudgetCategories, useUpdateBudgetCategory, type Budget } from '../api/useBudgets';
import { AmountEditor } from './AmountEditor';
import { BudgetBar } from './BudgetBar';

/**
 * Spending with no category: what the budget's total has beyond its top-level rows. Every category the family spends
 * in has a row (the API adds the rows of categories made after the budget, and leaves out only categories that never
 * count as spending), and a top-level row's actual includes its subcategories', so the rest is exactly the
 * uncategorized spending. Undefined until every row's figures are in.
 */
function uncategorizedCents(budget: Budget, rows: { subcategory: boolean }[], actuals: (number | undefined)[]): number | undefined {
  let categorized = 0;
  for (const [i, row] of rows.entries()) {
    if (actuals[i] === undefined) return undefined;
    if (!row.subcategory) categorized += actuals[i];
  }
  return budget.actual_spending_cents - categorized;
}

/** The register narrowed to a category's transactions in the budget's period. */
const transactionsOf = (budget: Budget, categoryId: string) => `/transactions?${paramsOf({ category: categoryId, from: budget.start_date, to: budget.end_date })}`;

/** Subcategory rows follow their top-level row. */
const hasSubcategories = (rows: { subcategory: boolean }[], i: number) => !rows[i].subcategory && Boolean(rows[i + 1]?.subcategory);

/**
 * The register filters by one category, not its subcategories, while a top-level row's actual includes theirs: the
 * link says so where that differs.
 */
const viewTitle = (name: string, withSubcategories: boolean) =>
  withSubcategories ? `View the transactions of ${name} itself; its subcategories' are linked from their own rows` : `View the transactions of ${name}`;

/** Planned vs actual per category, with bars and an editable planned amount; then spending without a category. */
export function CategoryRows({ budget, month }: { budget: Budget; month: string }) {
  const { list, details } = useBudgetCategories(budget.id);
  const update = useUpdateBudgetCategory(month);
  // A refusal of the amount shows at the row's field; any other above the table.
  const problems = update.isError ? problemsOf(update.error, { amount: { property: 'budgeted_spending', label: 'The planned amount' } }) : null;
  if (list.isPending) return <Loading label="Loading categories…" />;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  const uncategorized = uncategorizedCents(budget, list.data, details.map((detail) => detail.data?.actual_spending_cents));
  if (list.data.length === 0 && !budget.actual_spending_cents) {
    return <p className="empty">No categories yet: categories appear here once transactions or imports create them.</p>;
  }
  return (
    <>
      <div className="status-slot">{problems?.form && <ErrorState error={update.error} />}</div>
      <DataTable caption="Planned and actual spending per category" columns={['Category', 'Planned', 'Actual', 'Left', 'Progress']} cardsOnPhone>
        {list.data.map((row, i) => {
          const detail = details[i]?.data;
          return (
            <tr key={row.id}>
              <th scope="row" className={row.subcategory ? 'subcategory' : undefined}>
                {row.category.name}
              </th>
              <td>
                <AmountEditor
                  label={`Planned for ${row.category.name}`}
                  currency={row.currency}
                  initial={formatDecimal(BigInt(row.budgeted_spending_cents), row.currency)}
                  pending={update.isPending && update.variables?.id === row.id}
                  saved={update.variables?.id === row.id ? update.data : undefined}
                  error={update.variables?.id === row.id ? problems?.fields.amount : undefined}
                  onSave={(value) => update.mutate({ id: row.id, budgeted_spending: value })}
                />
                {row.inherits_parent_budget && <small className="muted">Shares its parent's budget</small>}
              </td>
              <td>
                {detail ? (
                  <Link to={transactionsOf(budget, row.category.id)} title={viewTitle(row.category.name, hasSubcategories(list.data, i))}>
                    {detail.actual_spending}
                  </Link>
                ) : (
                  '…'
                )}
              </td>
              <td>{detail ? detail.available_to_spend : '…'}</td>
              <td>{detail ? <BudgetBar planned={detail.display_budgeted_spending_cents} actual={detail.actual_spending_cents} /> : <div className="bar" />}</td>
            </tr>
          );
        })}
        {uncategorized !== undefined && uncategorized > 0 && (
          <tr>
            <th scope="row">Uncategorized</th>
            <td>
              <small className="muted">Spending without a category</small>
            </td>
            <td>{formatMoney(BigInt(uncategorized), budget.currency, navigator.language)}</td>
            <td />
            <td />
          </tr>
        )}
      </DataTable>
    </>
  );
}
