import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { problemsOf } from '../../../lib/api/field-errors';
import { useAddValuation, type Account } from '../api/useAccounts';
import { today } from './AccountDialog';

const FIELDS = {
  balance: { property: 'balance', label: 'The balance' },
  date: { property: 'date', label: 'The date' },
} as const;

/** Sets the account's balance by hand (a valuation): from the end of that day on it rolls forward from this one. */
export function BalanceDialog({ account, onClose, onSaved }: { account: Account; onClose: () => void; onSaved: (formatted: string) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const add = useAddValuation();
  const [form, setForm] = useState({ balance: '', date: today() });
  const problems = add.isError ? problemsOf(add.error, FIELDS) : null;
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => [add.reset(), setForm({ ...form, [key]: event.target.value })];

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ id: account.id, date: form.date, balance: form.balance.trim() }, { onSuccess: (valuation) => [onSaved(valuation.balance), dialog.current?.close()] });
  };

  return (
    <dialog ref={dialog} aria-labelledby="balance-dialog-title" onClose={onClose}>
      <form onSubmit={submit}>
        <h2 id="balance-dialog-title">Update the balance of “{account.name}”</h2>
        <Field
          label={account.classification === 'liability' ? `Owed (${account.currency})` : `Balance (${account.currency})`}
          hint="A plain number such as 1250.50, as your bank shows it."
          error={problems?.fields.balance}
        >
          <input required inputMode="decimal" value={form.balance} onChange={set('balance')} />
        </Field>
        <Field label="As of the end of" hint="Later transactions move the balance on from here." error={problems?.fields.date}>
          <input type="date" required value={form.date} onChange={set('date')} />
        </Field>
        <div className="status-slot">{problems?.form && <ErrorState error={add.error} />}</div>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" disabled={add.isPending || !form.balance.trim()}>
            {add.isPending ? 'Saving…' : 'Update balance'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
