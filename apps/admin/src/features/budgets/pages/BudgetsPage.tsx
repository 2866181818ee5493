import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatDecimal } from '@hearth/domain/money';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { Loading } from '../../../components/Loading';
import { problemsOf } from '../../../lib/api/field-errors';
import { runningMonth, useFamilySettings, useMonthBudget, useStartBudget, useUpdateBudget, type Budget } from '../api/useBudgets';
import { AmountEditor } from '../components/AmountEditor';
import { BudgetBar } from '../components/BudgetBar';
import { CategoryRows } from '../components/CategoryRows';

/** The totals as the API names them, and the words its messages about them start with here. */
const AMOUNT_FIELDS = {
  spending: { property: 'budgeted_spending', label: 'Planned spending' },
  income: { property: 'expected_income', label: 'Expected income' },
};
/** A `_cents` amount (minor units of the currency: JPY has none) as the plain decimal the API reads back. */
const decimal = (cents: number | null, currency: string) => (cents === null ? '' : formatDecimal(BigInt(cents), currency));

function Totals({ budget, month }: { budget: Budget; month: string }) {
  const update = useUpdateBudget(month);
  const [field, setField] = useState<'spending' | 'income'>(); // the editor saved last, whose "Saved" takes focus
  // A refusal naming a field shows at its editor; any other at the card.
  const problems = update.isError ? problemsOf(update.error, AMOUNT_FIELDS) : null;
  const save = (changes: { budgeted_spending?: string | null; expected_income?: string | null }) => {
    setField('budgeted_spending' in changes ? 'spending' : 'income');
    update.mutate({
      id: budget.id,
      budgeted_spending: decimal(budget.budgeted_spending_cents, budget.currency) || null,
      expected_income: decimal(budget.expected_income_cents, budget.currency) || null,
      ...changes,
    });
  };
  return (
    <section className="card" aria-labelledby="totals-title">
      <h2 id="totals-title">{budget.name}</h2>
      <dl className="facts">
        <div>
          <dt>Planned spending</dt>
          <dd>{budget.budgeted_spending ?? 'Not set'}</dd>
        </div>
        <div>
          <dt>Spent</dt>
          <dd data-testid="actual-spending">{budget.actual_spending}</dd>
        </div>
        <div>
          <dt>Left to spend</dt>
          <dd>{budget.available_to_spend}</dd>
        </div>
        <div>
          <dt>Expected income</dt>
          <dd>{budget.expected_income ?? 'Not set'}</dd>
        </div>
        <div>
          <dt>Income</dt>
          <dd>{budget.actual_income}</dd>
        </div>
      </dl>
      <BudgetBar planned={budget.budgeted_spending_cents ?? 0} actual={budget.actual_spending_cents} />
      <div className="inline-form">
        <div className="field">
          <span className="label">Planned spending ({budget.currency})</span>
          <AmountEditor
            label="Planned spending"
            currency={budget.currency}
            allowEmpty
            initial={decimal(budget.budgeted_spending_cents, budget.currency)}
            pending={update.isPending}
            saved={field === 'spending' ? update.data : undefined}
            error={field === 'spending' ? problems?.fields.spending : undefined}
            onSave={(v) => save({ budgeted_spending: v || null })}
          />
        </div>
        <div className="field">
          <span className="label">Expected income ({budget.currency})</span>
          <AmountEditor
            label="Expected income"
            currency={budget.currency}
            allowEmpty
            initial={decimal(budget.expected_income_cents, budget.currency)}
            pending={update.isPending}
            saved={field === 'income' ? update.data : undefined}
            error={field === 'income' ? problems?.fields.income : undefined}
            onSave={(v) => save({ expected_income: v || null })}
          />
        </div>
      </div>
      <div className="status-slot">{problems?.form && <ErrorState error={update.error} />}</div>
    </section>
  );
}

/** A month's budget: totals, planned vs actual per category, editable amounts. */
function MonthBudget({ month, onMonth }: { month: string; onMonth: (month: string) => void }) {
  const budget = useMonthBudget(month);
  const start = useStartBudget();
  return (
    <>
      <Field label="Month">
        <input type="month" value={month} onChange={(e) => e.target.value && onMonth(e.target.value)} />
      </Field>
      {budget.isPending && <Loading label="Loading the budget…" />}
      {budget.isError && <ErrorState error={budget.error} onRetry={() => void budget.refetch()} />}
      {budget.data === null && (
        <div className="card">
          <p>There is no budget for this month yet.</p>
          <button type="button" disabled={start.isPending} onClick={() => start.mutate(month)}>
            {start.isPending ? 'Starting…' : 'Start this month’s budget'}
          </button>
          <div className="status-slot">{start.isError && <ErrorState error={start.error} />}</div>
        </div>
      )}
      {budget.data && (
        <>
          <Totals budget={budget.data} month={month} />
          <section className="card" aria-labelledby="categories-title">
            <h2 id="categories-title">Categories</h2>
            <CategoryRows budget={budget.data} month={month} />
          </section>
        </>
      )}
    </>
  );
}

/** The month in the address, else the budget month running today, which needs the family's settings. */
export function BudgetsPage() {
  const [params, setParams] = useSearchParams();
  const chosen = /^\d{4}-\d{2}$/.test(params.get('month') ?? '') ? params.get('month') : null;
  const settings = useFamilySettings();
  const month = chosen ?? (settings.data ? runningMonth(settings.data) : null);
  return (
    <section className="page">
      <h1 tabIndex={-1}>Budgets</h1>
      {month ? (
        <MonthBudget month={month} onMonth={(chosenMonth) => setParams({ month: chosenMonth })} />
      ) : settings.isError ? (
        <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <Loading label="Loading the budget…" />
      )}
    </section>
  );
}
