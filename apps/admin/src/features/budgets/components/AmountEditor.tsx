import { useId, useState, type FormEvent } from 'react';
import { localeDecimal, readLocaleAmount } from '@hearth/domain/money';
import { useFocusAfter } from '../../../components/useFocusAfter';
import { amountProblem } from '../../../lib/amount-input';

/**
 * A small inline form: an amount input with a labelled save button. The amount is read as the user's locale writes it
 * ("1,000.50" in en-US, "1.000,50" in de) and sent as the plain decimal the API takes; one it cannot be (letters,
 * more decimals than the currency has) is refused at the field before anything is sent, and `error` (the API's
 * refusal of the last save, in words) shows there too. `saved` is the answer to this editor's last save: focus goes
 * to its "Saved" rather than to the page body. The editor stays mounted when the saved amount comes back as `initial`
 * (a plain decimal; the field takes it unless the user typed since), so focus is not dropped by a redraw.
 */
export function AmountEditor({
  label,
  currency,
  initial,
  pending,
  saved,
  error,
  allowEmpty = false,
  onSave,
}: {
  label: string;
  currency: string;
  initial: string;
  pending: boolean;
  saved?: unknown;
  error?: string | null;
  /** An empty field saves as "no amount" (the totals); else it asks for one. */
  allowEmpty?: boolean;
  onSave: (decimal: string) => void;
}) {
  const shownInitial = localeDecimal(initial);
  const [value, setValue] = useState(shownInitial);
  const [typed, setTyped] = useState(false); // since the last save: then "Saved" no longer says what the field holds
  const [lastInitial, setLastInitial] = useState(shownInitial);
  const [problem, setProblem] = useState<string | null>(null);
  const [refusals, setRefusals] = useState(0); // each refusal here moves focus to the field again
  if (shownInitial !== lastInitial) {
    setLastInitial(shownInitial);
    if (!typed) setValue(shownInitial);
  }
  const shownError = problem ?? (typed ? null : (error ?? null));
  const form = useFocusAfter<HTMLFormElement>(problem ? `refused ${refusals}` : (shownError ?? saved));
  const errorId = `${useId()}-error`;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = value.trim();
    if (!text && allowEmpty) return [setProblem(null), setTyped(false), onSave('')];
    const read = readLocaleAmount(text, currency);
    if (!read.ok) return [setProblem(text ? amountProblem(read, currency) : 'Enter an amount (0 for none).'), setRefusals((n) => n + 1)];
    setProblem(null);
    setTyped(false);
    onSave(read.decimal);
  };
  return (
    <form className="amount-editor" onSubmit={submit} ref={form} noValidate>
      <div className="amount-editor-row">
        <input
          aria-label={label}
          inputMode="decimal"
          value={value}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={shownError ? errorId : undefined}
          onChange={(e) => [setValue(e.target.value), setTyped(true), setProblem(null)]}
        />
        {/* Nothing to save until the field changes: since the last save (saved, not yet typed) or from what is stored. */}
        <button type="submit" className="secondary" disabled={pending || value.trim() === shownInitial || (Boolean(saved) && !typed && !shownError)}>
          Save
        </button>
        {Boolean(saved) && !typed && !shownError && (
          <span role="status" className="muted">
            Saved
          </span>
        )}
      </div>
      {shownError && (
        <small id={errorId} className="error field-error" role="alert">
          {shownError}
        </small>
      )}
    </form>
  );
}
