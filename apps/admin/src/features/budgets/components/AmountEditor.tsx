import { useState, type FormEvent } from 'react';

/** A small inline form: an amount input with a labelled save button. */
export function AmountEditor({ label, initial, pending, onSave }: { label: string; initial: string; pending: boolean; onSave: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(value.trim());
  };
  return (
    <form className="amount-editor" onSubmit={submit}>
      <input aria-label={label} inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="submit" className="secondary" disabled={pending || value.trim() === initial}>
        Save
      </button>
    </form>
  );
}
