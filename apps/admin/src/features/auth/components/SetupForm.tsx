import { useState, type FormEvent } from 'react';
import { Field } from '../../../components/Field';
import { PASSWORD_HINT } from '../../../components/NewPasswordFields';
import { useCurrencyOptions } from '../../../components/useCurrencyOptions';
import { useFocusAfter } from '../../../components/useFocusAfter';
import { problemsOf, type FormProblems } from '../../../lib/api/field-errors';
import { useSetup } from '../api/useAuth';

type Key = 'email' | 'password' | 'family_name' | 'currency';

/** Each field as the API names it, and the words a message about it starts with here. */
const FIELDS: Record<Key, { property: string; label: string }> = {
  email: { property: 'email', label: 'The e-mail address' },
  password: { property: 'password', label: 'The password' },
  family_name: { property: 'family_name', label: 'The household name' },
  currency: { property: 'currency', label: 'The currency' },
};

/** What can be told before asking the API, in words; the API's own refusals are sorted onto the fields too. */
function ownProblems(form: Record<Key, string>): Partial<Record<Key, string>> {
  const problems: Partial<Record<Key, string>> = {};
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) problems.email = 'Enter an e-mail address such as you@example.com.';
  if (form.password.length < 8) problems.password = 'Choose a password of at least 8 characters.';
  if (!form.family_name.trim()) problems.family_name = 'Enter a name for your household, such as The Smiths.';
  else if (form.family_name.trim().length > 200) problems.family_name = 'The household name can have at most 200 characters.';
  return problems;
}

/** First run: creates the first super admin and their family, then signs them in. */
export function SetupForm() {
  const setup = useSetup();
  const currencies = useCurrencyOptions();
  const [form, setForm] = useState<Record<Key, string>>({ email: '', password: '', family_name: '', currency: 'USD' });
  const [problems, setProblems] = useState<FormProblems<Key> | null>(null);
  const container = useFocusAfter<HTMLFormElement>(problems);
  const set = (key: Key) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const own = ownProblems(form);
    if (Object.keys(own).length) return setProblems({ fields: own, form: null });
    setProblems(null);
    setup.mutate(
      { email: form.email.trim(), password: form.password, family_name: form.family_name.trim(), currency: form.currency },
      { onError: (error) => setProblems(problemsOf<Key>(error, FIELDS)) },
    );
  };
  const error = (key: Key) => problems?.fields[key];
  return (
    <form onSubmit={submit} noValidate ref={container}>
      <p>No account exists yet. Create the first administrator.</p>
      <Field label="E-mail" error={error('email')}>
        <input type="email" autoComplete="username" required value={form.email} onChange={set('email')} />
      </Field>
      <Field label="Password" hint={PASSWORD_HINT} error={error('password')}>
        <input type="password" autoComplete="new-password" required minLength={8} maxLength={256} value={form.password} onChange={set('password')} />
      </Field>
      <Field label="Household name" error={error('family_name')}>
        <input required maxLength={200} value={form.family_name} onChange={set('family_name')} />
      </Field>
      <Field label="Currency" hint="Budgets and imports use it. Only an administrator can change it later." error={error('currency')}>
        <select value={form.currency} onChange={set('currency')}>
          {currencies.map(({ code, label }) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <div className="status-slot">
        {problems?.form && (
          <p className="error" role="alert">
            {problems.form}
          </p>
        )}
      </div>
      <button type="submit" disabled={setup.isPending}>
        {setup.isPending ? 'Creating…' : 'Create account'}
      </button>
    </form>
  );
}
