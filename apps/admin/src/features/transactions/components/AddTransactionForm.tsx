import { useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { useFocusAfter } from '../../../components/useFocusAfter';
import { readAmountInput } from '../../../lib/amount-input';
import { problemsOf, type FormProblems } from '../../../lib/api/field-errors';
import { useCreateTransaction, useCreateTransfer, type Account, type Category } from '../api/useTransactions';
import { createUndo, transferUndo, type LastChange } from '../undo';
import { CategoryOptions } from './CategoryOptions';

type Mode = 'expense' | 'income' | 'transfer';
type FieldName = 'account' | 'to' | 'date' | 'amount' | 'toAmount' | 'name' | 'category' | 'notes';

/** Today where the user is, as YYYY-MM-DD (toISOString would give UTC's date, a day off around midnight). */
const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
};

/** The API's names of the form's fields, and the words its messages about them start with here. */
const TRANSACTION_FIELDS: Partial<Record<FieldName, { property: string; label: string }>> = {
  account: { property: 'transaction.account_id', label: 'Account' },
  date: { property: 'transaction.date', label: 'Date' },
  amount: { property: 'transaction.amount', label: 'Amount' },
  name: { property: 'transaction.name', label: 'Name' },
  category: { property: 'transaction.category_id', label: 'Category' },
  notes: { property: 'transaction.notes', label: 'Notes' },
};
const TRANSFER_FIELDS: Partial<Record<FieldName, { property: string; label: string }>> = {
  account: { property: 'from_account_id', label: 'From account' },
  to: { property: 'to_account_id', label: 'To account' },
  date: { property: 'date', label: 'Date' },
  amount: { property: 'amount', label: 'Amount' },
  toAmount: { property: 'to_amount', label: 'Amount received' },
  name: { property: 'name', label: 'Name' },
  notes: { property: 'notes', label: 'Notes' },
};

/**
 * Adds a transaction by hand (money out or in: the amount is typed without a sign) or a transfer between two of the
 * household's accounts, both sides at once. Checked here first (an amount in the account's currency, a name, two
 * different accounts), then by the API, whose refusals show at the field they name.
 */
export function AddTransactionForm({ accounts, categories, onAdded, onCancel }: { accounts: Account[]; categories: Category[]; onAdded: (change: LastChange) => void; onCancel: () => void }) {
  const create = useCreateTransaction();
  const transfer = useCreateTransfer();
  const [mode, setMode] = useState<Mode>('expense');
  const [values, setValues] = useState({ account: accounts[0]?.id ?? '', to: '', date: today(), amount: '', toAmount: '', name: '', category: '', notes: '' });
  const [problems, setProblems] = useState<FormProblems<FieldName> | null>(null);
  const form = useFocusAfter<HTMLFormElement>(problems);
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => setValues({ ...values, [field]: event.target.value });
  const currencyOf = (id: string) => accounts.find((account) => account.id === id)?.currency;
  const [fromCurrency, toCurrency] = [currencyOf(values.account), currencyOf(values.to)];
  const crossCurrency = mode === 'transfer' && !!fromCurrency && !!toCurrency && fromCurrency !== toCurrency;
  const pending = create.isPending || transfer.isPending;

  /** The form's own checks: what is missing or is no amount, in words. */
  const check = (): { problems: Partial<Record<FieldName, string>>; amount?: string; toAmount?: string } => {
    const found: Partial<Record<FieldName, string>> = {};
    if (!values.account) found.account = 'Choose an account.';
    if (mode === 'transfer' && !values.to) found.to = 'Choose the account the money goes to.';
    if (mode === 'transfer' && values.to && values.to === values.account) found.to = 'Choose another account than the one the money leaves.';
    if (!values.date) found.date = 'Enter the date.';
    if (mode !== 'transfer' && !values.name.trim()) found.name = 'Enter a name, such as the shop or the payer.';
    const read = (text: string, currency: string | undefined, field: FieldName) => {
      if (!text.trim()) return void (found[field] = 'Enter the amount.');
      const result = readAmountInput(text, currency ?? 'USD');
      if ('problem' in result) return void (found[field] = result.problem);
      return result.decimal;
    };
    const amount = read(values.amount, fromCurrency, 'amount');
    const toAmount = crossCurrency ? read(values.toAmount, toCurrency, 'toAmount') : undefined;
    return { problems: found, amount, toAmount };
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = check();
    if (Object.keys(checked.problems).length || !checked.amount) return setProblems({ fields: checked.problems, form: null });
    setProblems(null);
    const refused = (fields: typeof TRANSACTION_FIELDS) => (error: unknown) => setProblems(problemsOf(error, fields));
    if (mode === 'transfer') {
      const body = {
        from_account_id: values.account,
        to_account_id: values.to,
        amount: checked.amount,
        date: values.date,
        ...(checked.toAmount && { to_amount: checked.toAmount }),
        ...(values.name.trim() && { name: values.name.trim() }),
        ...(values.notes.trim() && { notes: values.notes.trim() }),
      };
      transfer.mutate(body, { onSuccess: (made) => onAdded(transferUndo(made.outflow, made.inflow)), onError: refused(TRANSFER_FIELDS) });
      return;
    }
    const transaction = {
      account_id: values.account,
      date: values.date,
      amount: checked.amount,
      nature: mode,
      name: values.name.trim(),
      ...(values.category && { category_id: values.category }),
      ...(values.notes.trim() && { notes: values.notes.trim() }),
    };
    create.mutate(transaction, { onSuccess: (made) => onAdded(createUndo(made)), onError: refused(TRANSACTION_FIELDS) });
  };

  const fields = problems?.fields ?? {};
  return (
    <form ref={form} className="card add-form" aria-labelledby="add-title" onSubmit={submit} noValidate>
      <h2 id="add-title">Add a transaction</h2>
      <fieldset className="source-choice">
        <legend>Kind</legend>
        {(
          [
            ['expense', 'Money out'],
            ['income', 'Money in'],
            ['transfer', 'Transfer'],
          ] as const
        ).map(([value, label]) => (
          <label key={value}>
            <input type="radio" name="kind" value={value} checked={mode === value} onChange={() => [setMode(value), setProblems(null)]} />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="filter-grid">
        <Field label={mode === 'transfer' ? 'From account' : 'Account'} error={fields.account}>
          <select value={values.account} onChange={set('account')}>
            <option value="">Choose…</option>
            {accounts.map((account) => (
              <option key={account.id} value={account.id}>
                {account.name}
              </option>
            ))}
          </select>
        </Field>
        {mode === 'transfer' && (
          <Field label="To account" error={fields.to}>
            <select value={values.to} onChange={set('to')}>
              <option value="">Choose…</option>
              {accounts.map((account) => (
                <option key={account.id} value={account.id}>
                  {account.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field label="Date" error={fields.date}>
          <input type="date" value={values.date} onChange={set('date')} />
        </Field>
        <Field label={fromCurrency ? `Amount (${fromCurrency})` : 'Amount'} error={fields.amount}>
          <input inputMode="decimal" value={values.amount} onChange={set('amount')} />
        </Field>
        {crossCurrency && (
          <Field label={`Amount received (${toCurrency})`} error={fields.toAmount}>
            <input inputMode="decimal" value={values.toAmount} onChange={set('toAmount')} />
          </Field>
        )}
        <Field label={mode === 'transfer' ? 'Name (optional)' : 'Name'} error={fields.name}>
          <input value={values.name} maxLength={500} onChange={set('name')} />
        </Field>
        {mode !== 'transfer' && (
          <Field label="Category" error={fields.category}>
            <select value={values.category} onChange={set('category')}>
              <option value="">None</option>
              <CategoryOptions categories={categories} />
            </select>
          </Field>
        )}
        <Field label="Notes" error={fields.notes}>
          <input value={values.notes} maxLength={10_000} onChange={set('notes')} />
        </Field>
      </div>
      <div className="status-slot">{problems?.form && <ErrorState error={problems.error} />}</div>
      <div className="actions">
        <button type="submit" disabled={pending}>
          {pending ? 'Adding…' : mode === 'transfer' ? 'Add transfer' : 'Add transaction'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
