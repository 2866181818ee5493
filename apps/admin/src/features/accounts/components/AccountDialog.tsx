import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { useCurrencyOptions } from '../../../components/useCurrencyOptions';
import { problemsOf } from '../../../lib/api/field-errors';
import { useCreateAccount, useUpdateAccount, type Account, type UpdateAccount } from '../api/useAccounts';
import { ACCOUNT_TYPE_GROUPS } from './accountTypes';

const LIABILITIES = ['credit_card', 'loan', 'other_liability'];
const isLiability = (type: string) => LIABILITIES.includes(type);

/** The API properties of the form's fields, and the words a refusal's message starts with here. */
const FIELDS = {
  name: { property: 'name', label: 'The name' },
  type: { property: 'account_type', label: 'The type' },
  subtype: { property: 'subtype', label: 'The subtype' },
  institution: { property: 'institution_name', label: 'The institution' },
  currency: { property: 'currency', label: 'The currency' },
  balance: { property: 'balance', label: 'The balance' },
  date: { property: 'balance_date', label: 'The date' },
} as const;

/** The browser's today as YYYY-MM-DD. */
export const today = () => new Date().toLocaleDateString('en-CA');

/**
 * A modal that adds an account (with its opening balance) or, given `account`, edits it: only what changed is sent.
 * An account's type changes only within assets or within liabilities, and its currency only while it is empty, as
 * the API allows; the form offers no more than that.
 */
export function AccountDialog({ account, familyCurrency, onClose, onSaved }: { account?: Account; familyCurrency: string; onClose: () => void; onSaved: (saved: Account) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const create = useCreateAccount();
  const update = useUpdateAccount();
  const mutation = account ? update : create;
  const currencies = useCurrencyOptions();
  const initial = {
    name: account?.name ?? '',
    type: account?.account_type ?? 'depository',
    subtype: account?.subtype ?? '',
    institution: account?.institution_name ?? '',
    currency: account?.currency ?? familyCurrency,
    balance: '',
    date: today(),
  };
  const [form, setForm] = useState(initial);
  const problems = mutation.isError ? problemsOf(mutation.error, FIELDS) : null;
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => [mutation.reset(), setForm({ ...form, [key]: event.target.value })];
  const types = account ? ACCOUNT_TYPE_GROUPS.filter((group) => isLiability(group.type) === isLiability(account.account_type)) : ACCOUNT_TYPE_GROUPS;

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  const done = { onSuccess: (saved: Account) => [onSaved(saved), dialog.current?.close()] };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!account) {
      create.mutate(
        {
          name: form.name.trim(),
          account_type: form.type,
          currency: form.currency,
          ...(form.subtype.trim() ? { subtype: form.subtype.trim() } : {}),
          ...(form.institution.trim() ? { institution_name: form.institution.trim() } : {}),
          ...(form.balance.trim() ? { balance: form.balance.trim(), balance_date: form.date } : {}),
        },
        done,
      );
      return;
    }
    const changes: UpdateAccount = {};
    if (form.name.trim() !== initial.name) changes.name = form.name.trim();
    if (form.type !== initial.type) changes.account_type = form.type;
    if (form.subtype.trim() !== initial.subtype) changes.subtype = form.subtype.trim() || null;
    if (form.institution.trim() !== initial.institution) changes.institution_name = form.institution.trim() || null;
    update.mutate({ id: account.id, ...changes }, done);
  };

  return (
    <dialog ref={dialog} aria-labelledby="account-dialog-title" onClose={onClose}>
      <form onSubmit={submit}>
        <h2 id="account-dialog-title">{account ? `Edit “${account.name}”` : 'Add an account'}</h2>
        <Field label="Name" error={problems?.fields.name}>
          <input required maxLength={200} value={form.name} onChange={set('name')} />
        </Field>
        <Field label="Type" hint={account ? 'Assets stay assets and liabilities stay liabilities.' : undefined} error={problems?.fields.type}>
          <select value={form.type} onChange={set('type')}>
            {types.map((group) => (
              <option key={group.type} value={group.type}>
                {group.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Subtype (optional)" hint="Such as checking, savings or mortgage." error={problems?.fields.subtype}>
          <input maxLength={50} value={form.subtype} onChange={set('subtype')} />
        </Field>
        <Field label="Institution (optional)" error={problems?.fields.institution}>
          <input maxLength={200} value={form.institution} onChange={set('institution')} />
        </Field>
        {!account && (
          <>
            <Field label="Currency" error={problems?.fields.currency}>
              <select value={form.currency} onChange={set('currency')}>
                {currencies.map(({ code, label }) => (
                  <option key={code} value={code}>
                    {label}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={isLiability(form.type) ? 'Owed now (optional)' : 'Balance (optional)'} hint="A plain number such as 1250.50; 0 when left empty." error={problems?.fields.balance}>
              <input inputMode="decimal" value={form.balance} onChange={set('balance')} />
            </Field>
            <Field label="Balance as of" hint="The balance at the start of this day." error={problems?.fields.date}>
              <input type="date" required value={form.date} onChange={set('date')} />
            </Field>
          </>
        )}
        <div className="status-slot">{problems?.form && <ErrorState error={mutation.error} />}</div>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" disabled={mutation.isPending || !form.name.trim()}>
            {mutation.isPending ? 'Saving…' : account ? 'Save' : 'Add account'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
