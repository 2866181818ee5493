import { useState, type FormEvent } from 'react';
import { useFocusAfter } from '../../../components/useFocusAfter';

/**
 * A small inline form: an amount input with a labelled save button. `saved` is the answer to this editor's last save:
 * focus goes to its "Saved" rather than to the page body. The editor stays mounted when the saved amount comes back
 * as `initial` (the field takes it unless the user typed since), so focus is not dropped by a redraw.
 */
export function AmountEditor({ label, initial, pending, saved, onSave }: { label: string; initial: string; pending: boolean; saved?: unknown; onSave: (value: string) => void }) {
  const [value, setValue] = useState(initial);
  const [typed, setTyped] = useState(false); // since the last save: then "Saved" no longer says what the field holds
  const [shownInitial, setShownInitial] = useState(initial);
  if (initial !== shownInitial) {
    setShownInitial(initial);
    if (!typed) setValue(initial);
  }
  const form = useFocusAfter<HTMLFormElement>(saved);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTyped(false);
    onSave(value.trim());
  };
  return (
    <form className="amount-editor" onSubmit={submit} ref={form}>
      <input aria-label={label} inputMode="decimal" value={value} onChange={(e) => [setValue(e.target.value), setTyped(true)]} />
      {/* Nothing to save until the field changes: since the last save (saved, not yet typed) or from what is stored. */}
      <button type="submit" className="secondary" disabled={pending || value.trim() === initial || (Boolean(saved) && !typed)}>
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
