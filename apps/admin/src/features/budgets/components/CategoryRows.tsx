import { formatDecimal } from '@hearth/domain/money';
import { DataTable } from '../../../components/DataTable';
import { ErrorState } from '../../../components/ErrorState';
import { Loading } from '../../../components/Loading';
import { problemsOf } from '../../../lib/api/field-errors';
import { useBudgetCategories, useUpdateBudgetCategory } from '../api/useBudgets';
import { AmountEditor } from './AmountEditor';
import { BudgetBar } from './BudgetBar';

/** Planned vs actual per category, with bars and an editable planned amount. */
export function CategoryRows({ budgetId, month }: { budgetId: string; month: string }) {
  const { list, details } = useBudgetCategories(budgetId);
  const update = useUpdateBudgetCategory(month);
  // A refusal of the amount shows at the row's field; any other above the table.
  const problems = update.isError ? problemsOf(update.error, { amount: { property: 'budgeted_spending', label: 'The planned amount' } }) : null;
  if (list.isPending) return <Loading label="Loading categories…" />;
  if (list.isError) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  if (list.data.length === 0) return <p className="empty">No categories yet: categories appear here once transactions or imports create them.</p>;
  return (
    <>
      <div className="status-slot">{problems?.form && <ErrorState error={update.error} />}</div>
      <DataTable caption="Planned and actual spending per category" columns={['Category', 'Planned', 'Actual', 'Left', 'Progress']}>
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
              <td>{detail ? detail.actual_spending : '…'}</td>
              <td>{detail ? detail.available_to_spend : '…'}</td>
              <td>{detail ? <BudgetBar planned={detail.display_budgeted_spending_cents} actual={detail.actual_spending_cents} /> : <div className="bar" />}</td>
            </tr>
          );
        })}
      </DataTable>
    </>
  );
}
