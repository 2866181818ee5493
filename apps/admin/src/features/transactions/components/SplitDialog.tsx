import { useEffect, useRef, useState, type FormEvent } from 'react';
import { formatDecimal, localeDecimal, parseAmount } from '@hearth/domain/money';
import { ErrorState } from '../../../components/ErrorState';
import { readAmountInput } from '../../../lib/amount-input';
import { useSplitTransaction, useUnsplitTransaction, type Category, type Transaction } from '../api/useTransactions';
import { negateDecimal } from '../filters';
import { shownAmount, shownMinorUnits } from '../money';
import { splitUndo, unsplitUndo, type LastChange } from '../undo';
import { CategoryOptions } from './CategoryOptions';

interface PartDraft {
  key: number;
  amount: string;
  name: string;
  category: string;
}

const MAX_PARTS = 100;

/**
 * Splits a transaction into parts (2 to 100) whose amounts, typed without a sign, add up to its own: what is left to
 * assign is shown as the amounts are typed, and Save waits until nothing is. A split transaction shows its parts
 * (from the list) to change, and can be joined again.
 */
export function SplitDialog({
  transaction,
  parts,
  categories,
  onDone,
  onClose,
}: {
  transaction: Transaction;
  /** Its parts now, when it is split already. */
  parts: Transaction[];
  categories: Category[];
  onDone: (change: LastChange) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const split = useSplitTransaction();
  const unsplit = useUnsplitTransaction();
  const { currency } = transaction;
  const total = BigInt(Math.abs(transaction.signed_amount_cents));
  const [nextKey, setNextKey] = useState(2);
  const [drafts, setDrafts] = useState<PartDraft[]>(() =>
    parts.length
      ? parts.map((part, key) => ({ key, amount: localeDecimal(formatDecimal(BigInt(part.amount_cents), currency)), name: part.name, category: part.category?.id ?? '' }))
      : [0, 1].map((key) => ({ key, amount: '', name: transaction.name, category: transaction.category?.id ?? '' })),
  );
  const [tried, setTried] = useState(false);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const read = drafts.map((draft) => (draft.amount.trim() ? readAmountInput(draft.amount, currency) : null));
  const assigned = read.reduce((sum, r) => (r && 'decimal' in r ? sum + parseAmount(r.decimal, currency) : sum), 0n);
  const left = total - assigned;
  const complete = left === 0n && read.every((r) => r && 'decimal' in r) && drafts.every((d) => d.name.trim());
  const change = (key: number, changes: Partial<PartDraft>) => setDrafts(drafts.map((d) => (d.key === key ? { ...d, ...changes } : d)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!complete || drafts.length < 2) return;
    // Parts are signed as the transaction is, with Sure's sign: money out positive.
    const moneyIn = transaction.signed_amount_cents > 0;
    const body = drafts.map((draft, i) => {
      const decimal = (read[i] as { decimal: string }).decimal;
      return { amount: moneyIn ? negateDecimal(decimal) : decimal, name: draft.name.trim(), category_id: draft.category || null };
    });
    split.mutate({ id: transaction.id, parts: body }, { onSuccess: () => [onDone(splitUndo(transaction, parts, body.length)), dialog.current?.close()] });
  };

  const remainder =
    left === 0n ? 'Everything is assigned.' : left > 0n ? `Left to assign: ${shownMinorUnits(left, currency)}` : `Over the total by ${shownMinorUnits(-left, currency)}`;
  return (
    <dialog ref={dialog} className="split-dialog" aria-labelledby="split-title" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <h2 id="split-title">Split “{transaction.name}”</h2>
        <p className="muted">
          {shownAmount(transaction)} on {transaction.account.name}. Each part gets its own category; together they count instead of the whole.
        </p>
        {drafts.map((draft, i) => {
          const r = read[i];
          const problem = r && 'problem' in r ? r.problem : tried && !r ? 'Enter the amount of this part.' : tried && !draft.name.trim() ? 'Enter a name for this part.' : null;
          return (
            <fieldset key={draft.key} className="split-part-fields">
              <legend>Part {i + 1}</legend>
              <div className="split-part-row">
                <label>
                  Amount ({currency})
                  <input inputMode="decimal" value={draft.amount} aria-invalid={problem ? true : undefined} onChange={(e) => change(draft.key, { amount: e.target.value })} />
                </label>
                <label>
                  Name
                  <input value={draft.name} maxLength={500} onChange={(e) => change(draft.key, { name: e.target.value })} />
                </label>
                <label>
                  Category
                  <select value={draft.category} onChange={(e) => change(draft.key, { category: e.target.value })}>
                    <option value="">None</option>
                    <CategoryOptions categories={categories} />
                  </select>
                </label>
                {drafts.length > 2 && (
                  <button type="button" className="secondary" aria-label={`Remove part ${i + 1}`} onClick={() => setDrafts(drafts.filter((d) => d.key !== draft.key))}>
                    Remove
                  </button>
                )}
              </div>
              {problem && (
                <small className="error field-error" role="alert">
                  {problem}
                </small>
              )}
            </fieldset>
          );
        })}
        <div className="actions">
          <button
            type="button"
            className="secondary"
            disabled={drafts.length >= MAX_PARTS}
            onClick={() => [setDrafts([...drafts, { key: nextKey, amount: left > 0n ? localeDecimal(formatDecimal(left, currency)) : '', name: transaction.name, category: transaction.category?.id ?? '' }]), setNextKey(nextKey + 1)]}
          >
            Add a part
          </button>
        </div>
        <p className={left === 0n ? 'remainder' : 'remainder error'} role="status" aria-live="polite" data-testid="split-remainder">
          {remainder}
        </p>
        <div className="status-slot">
          {split.isError && <ErrorState error={split.error} />}
          {unsplit.isError && <ErrorState error={unsplit.error} />}
        </div>
        <div className="actions">
          <button type="submit" disabled={split.isPending || (tried && !complete)}>
            {split.isPending ? 'Splitting…' : 'Save the split'}
          </button>
          {parts.length > 0 && (
            <button
              type="button"
              className="secondary"
              disabled={unsplit.isPending}
              onClick={() => unsplit.mutate(transaction.id, { onSuccess: () => [onDone(unsplitUndo(transaction, parts)), dialog.current?.close()] })}
            >
              Join the parts again
            </button>
          )}
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
