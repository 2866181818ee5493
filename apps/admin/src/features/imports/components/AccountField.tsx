import { Field } from '../../../components/Field';
import { errorMessage } from '../../../lib/api/client';
import { useAccounts } from '../api/useImports';
import { formatFacts } from './importFormats';

/** The file names no account: publishing needs one picked. */
export const needsAccount = (type: string) => formatFacts(type).account === 'required';
/** Types whose rows can be put into one picked account. */
export const takesAccount = (type: string) => formatFacts(type).account !== 'none';

/** Picks the account every row goes into (`''`: none, so each row's account column says it). */
export function AccountField({ type, value, onChange }: { type: string; value: string; onChange: (accountId: string) => void }) {
  const accounts = useAccounts();
  const required = needsAccount(type);
  return (
    <Field
      label="Account"
      hint={required ? 'This file names no account: its rows go into the one chosen here.' : "Every row goes into this account; leave it empty to use the file's account column."}
      error={accounts.isError ? errorMessage(accounts.error) : null}
    >
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{required ? '(choose an account)' : '(named in the file)'}</option>
        {/* A closed account takes no imports; one an import already names stays shown, marked. */}
        {accounts.data
          ?.filter((a) => !a.closed_at || a.id === value)
          .map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
              {a.closed_at ? ' (closed)' : ''}
            </option>
          ))}
      </select>
    </Field>
  );
}
