import { useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { useSetup } from '../api/useAuth';

/** First run: creates the first super admin and their family, then signs them in. */
export function SetupForm() {
  const setup = useSetup();
  const [form, setForm] = useState({ email: '', password: '', family_name: '', currency: 'USD' });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setup.mutate({ ...form, currency: form.currency.trim().toUpperCase() || undefined });
  };
  return (
    <form onSubmit={submit} noValidate>
      <p>No account exists yet. Create the first administrator.</p>
      <Field label="E-mail">
        <input type="email" autoComplete="username" required value={form.email} onChange={set('email')} />
      </Field>
      <Field label="Password" hint="At least 8 characters.">
        <input type="password" autoComplete="new-password" required minLength={8} value={form.password} onChange={set('password')} />
      </Field>
      <Field label="Household name">
        <input required value={form.family_name} onChange={set('family_name')} />
      </Field>
      <Field label="Currency" hint="ISO 4217 code, e.g. USD or EUR.">
        <input required maxLength={3} value={form.currency} onChange={set('currency')} />
      </Field>
      <div className="status-slot">{setup.isError && <ErrorState error={setup.error} />}</div>
      <button type="submit" disabled={setup.isPending}>
        {setup.isPending ? 'Creating…' : 'Create account'}
      </button>
    </form>
  );
}
