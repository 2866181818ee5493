import { useState, type FormEvent } from 'react';
import { useSession } from '../../../app/auth/useSession';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { Loading } from '../../../components/Loading';
import { newPasswordProblems, NewPasswordFields } from '../../../components/NewPasswordFields';
import { useFocusAfter } from '../../../components/useFocusAfter';
import { problemsOf, type FormProblems } from '../../../lib/api/field-errors';
import { useChangePassword } from '../api/usePassword';

type Key = 'current' | 'password' | 'confirm';
const EMPTY = { current: '', password: '', confirm: '' };

/**
 * Change password: the API needs the current one. Whether there is a password to change is the API's answer in /me
 * (an SSO-provisioned account has none and cannot set one; local sign-in may be closed to this role).
 */
export function ChangePasswordForm() {
  const session = useSession();
  const password = session.data?.password;
  const change = useChangePassword();
  const [form, setForm] = useState(EMPTY);
  const [problems, setProblems] = useState<FormProblems<Key> | null>(null);
  const [changed, setChanged] = useState(0);
  const section = useFocusAfter<HTMLElement>(problems ?? changed);
  const set = (key: keyof typeof EMPTY) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (changed) setChanged(0);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const mine = { ...(form.current ? {} : { current: 'Enter your current password.' }), ...newPasswordProblems(form.password, form.confirm) };
    if (Object.keys(mine).length) return setProblems({ fields: mine, form: null });
    setProblems(null);
    change.mutate(
      { current_password: form.current, new_password: form.password },
      {
        onSuccess: () => {
          setForm(EMPTY);
          setChanged((n) => n + 1);
        },
        onError: (error) =>
          setProblems(
            problemsOf<Key>(
              error,
              { current: { property: 'current_password', label: 'The current password' }, password: { property: 'new_password', label: 'The new password' } },
              { invalid_current_password: 'current' },
            ),
          ),
      },
    );
  };

  return (
    <section ref={section} className="card" aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      {!password && (session.isError ? <ErrorState error={session.error} onRetry={() => void session.refetch()} /> : <Loading />)}
      {password && !password.set && (
        <p>Your account signs in through your identity provider only and has no password, so there is none to change here.</p>
      )}
      {password?.set && !password.sign_in_allowed && (
        <p>Password sign-in is turned off for your role by the administrator of this Hearth: you sign in through single sign-on, so your password cannot be used or changed here.</p>
      )}
      {password?.usable && (
        <form className="stack narrow-form" onSubmit={submit} noValidate>
          {/* For password managers: which account this password belongs to. */}
          <input type="email" autoComplete="username" value={session.data?.email ?? ''} readOnly hidden />
          <Field label="Current password" error={problems?.fields.current}>
            <input type="password" autoComplete="current-password" required maxLength={256} value={form.current} onChange={(e) => set('current')(e.target.value)} />
          </Field>
          <NewPasswordFields
            password={form.password}
            confirm={form.confirm}
            onPassword={set('password')}
            onConfirm={set('confirm')}
            errors={problems?.fields ?? {}}
          />
          <div className="status-slot">
            {problems?.form && (
              <p className="error" role="alert">
                {problems.form}
              </p>
            )}
            {changed > 0 && <p role="status">Your password has been changed. Your other sessions have been signed out; this one stays signed in.</p>}
          </div>
          <div>
            <button type="submit" disabled={change.isPending}>
              {change.isPending ? 'Changing…' : 'Change password'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
