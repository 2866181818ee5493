import { useState, type FormEvent } from 'react';
import { useFocusAfter } from '../../../components/useFocusAfter';

/**
 * A small inline form: an amount input with a labelled save button. `saved` is the answer to this editor's last save:
 * the editor is drawn again with the saved amount, so focus goes to its "Saved" rather than to the page body.
 */
export function AmountEditor({ label, initial, pending, saved, onSave }: { label: string; initial: string; pending: boolean; saved?: unknown; onSave: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  const [typed, setTyped] = useState(false); // since the last save: then "Saved" no longer says what the field holds
  const form = useFocusAfter<HTMLFormElement>(saved);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTyped(false);
    onSave(value.trim());
  };
  return (
    <form className="amount-editor" onSubmit={submit} ref={form}>
      <input aria-label={label} inputMode="decimal" value={value} onChange={(e) => [setValue(e.target.value), setTyped(true)]} />
      <button type="submit" className="secondary" disabled={pending || value.trim() === initial}>
        Save
      </button>
      {Boolean(saved) && !typed && (
        <span role="status" className="muted">
          Saved
        </span>
      )}
    </form>
  );
}
