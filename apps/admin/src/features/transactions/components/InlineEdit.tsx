import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';

/**
 * A value shown in a cell with an Edit button; editing shows `editor` (given the value being typed) with Save and
 * Cancel. Enter saves, Escape cancels; either way focus goes back to the Edit button, so a keyboard user stays in the
 * row. `error` (the API's refusal of the last save, in words) keeps the editor open and shows at it.
 */
export function InlineEdit({
  label,
  initial,
  shown,
  pending,
  error,
  editor,
  onSave,
}: {
  /** What is edited, for the buttons' accessible names: "category of Market". */
  label: string;
  initial: string;
  shown: ReactNode;
  pending: boolean;
  error?: string | null;
  editor: (value: string, setValue: (value: string) => void, props: { 'aria-label': string; autoFocus: true }) => ReactNode;
  /** Resolves when saved; rejects when refused (the editor stays open). */
  onSave: (value: string) => Promise<unknown>;
}) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(initial);
  const editButton = useRef<HTMLButtonElement>(null);
  const [returnFocus, setReturnFocus] = useState(false);

  useEffect(() => {
    if (!editing && returnFocus) {
      editButton.current?.focus();
      setReturnFocus(false);
    }
  }, [editing, returnFocus]);

  const close = () => [setEditing(false), setReturnFocus(true)];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value === initial) return close();
    onSave(value).then(close, () => undefined);
  };

  if (!editing) {
    return (
      <div className="inline-value">
        <span>{shown}</span>
        <button
          ref={editButton}
          type="button"
          className="secondary edit-button"
          aria-label={`Edit ${label}`}
          onClick={() => [setValue(initial), setEditing(true)]}
        >
          Edit
        </button>
      </div>
    );
  }
  return (
    <form className="inline-editor" onSubmit={submit} onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), close())}>
      {editor(value, setValue, { 'aria-label': label[0].toUpperCase() + label.slice(1), autoFocus: true })}
      <div className="inline-editor-buttons">
        <button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="secondary" onClick={close}>
          Cancel
        </button>
      </div>
      {error && (
        <small className="error field-error" role="alert">
          {error}
        </small>
      )}
    </form>
  );
}
