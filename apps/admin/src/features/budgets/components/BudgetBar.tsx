/** Actual against planned as a bar; the text says the same for screen readers. Over budget turns red. */
export function BudgetBar({ planned, actual }: { planned: number; actual: number }) {
  const ratio = planned > 0 ? actual / planned : actual > 0 ? Infinity : 0;
  const percent = Math.round(ratio * 100);
  const label = planned > 0 ? `${percent}% of the budget spent` : actual > 0 ? 'Spending without a budget' : 'No budget set';
  return (
    <div className="bar" role="img" aria-label={label}>
      <div className={`bar-fill${ratio > 1 ? ' over' : ''}`} style={{ width: `${Math.min(100, percent)}%` }} />
    </div>
  );
}
