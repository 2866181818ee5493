import { Field } from './Field';

export const PASSWORD_HINT = 'At least 8 characters. A few unrelated words make a strong one.';

/** New password and its confirmation; the match is checked by `passwordMismatch` before anything is sent. */
export function NewPasswordFields({
  password,
  confirm,
  onPassword,
  onConfirm,
  errors,
}: {
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  errors: { password?: string; confirm?: string };
}) {
  return (
    <>
      <Field label="New password" hint={PASSWORD_HINT} error={errors.password}>
        <input type="password" autoComplete="new-password" required maxLength={256} value={password} onChange={(e) => onPassword(e.target.value)} />
      </Field>
      <Field label="Confirm new password" error={errors.confirm}>
        <input type="password" autoComplete="new-password" required maxLength={256} value={confirm} onChange={(e) => onConfirm(e.target.value)} />
      </Field>
    </>
  );
}

/** The client-side checks of a new password: present, and typed the same twice (the length policy is the API's). */
export function newPasswordProblems(password: string, confirm: string): { password?: string; confirm?: string } {
  if (!password) return { password: 'Enter a new password.' };
  if (password !== confirm) return { confirm: 'The two passwords do not match. Type the same password twice.' };
  return {};
}
