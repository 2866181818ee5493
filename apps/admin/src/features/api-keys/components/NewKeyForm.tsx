import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { useCreateApiKey, type CreateApiKey } from '../api/useApiKeys';

/** Creates a key and shows it once, with a copy button. */
/** Tomorrow's date in the browser's time zone, as a date input writes it: the first day a key may expire on. */
function tomorrow(): string {
  const day = new Date();
  day.setDate(day.getDate() + 1);
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
}

export function NewKeyForm() {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<CreateApiKey['scope']>('read');
  const [expiresOn, setExpiresOn] = useState('');
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const keyField = useRef<HTMLInputElement>(null);
  const createdId = create.data?.id;

  // The submit button is disabled under the user once the name clears: take focus to the key (selected) instead of the page body.
  useEffect(() => {
    if (createdId) keyField.current?.focus();
  }, [createdId]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCopy('idle');
    // The start of the chosen day where the user is; the API takes the instant with its offset.
    const expires_at = expiresOn ? new Date(`${expiresOn}T00:00`).toISOString() : undefined;
    create.mutate({ name: name.trim(), scope, expires_at }, { onSuccess: () => [setName(''), setExpiresOn('')] });
  };
  const copyKey = async (key: string) => {
    try {
      // navigator.clipboard is missing over plain http (other than localhost), and writeText can be refused.
      await navigator.clipboard.writeText(key);
      setCopy('copied');
    } catch {
      setCopy('failed');
      keyField.current?.focus();
      keyField.current?.select();
    }
  };

  return (
    <section className="card" aria-labelledby="new-key-title">
      <h2 id="new-key-title">Create a key</h2>
      <form className="inline-form" onSubmit={submit}>
        <Field label="Name">
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Scope">
          <select value={scope} onChange={(e) => setScope(e.target.value as CreateApiKey['scope'])}>
            <option value="read">Read</option>
            <option value="read_write">Read and write</option>
          </select>
        </Field>
        <Field label="Expires on (optional)" hint="The key stops working when this day starts, in your time zone.">
          <input type="date" min={tomorrow()} value={expiresOn} onChange={(e) => setExpiresOn(e.target.value)} />
        </Field>
        <button type="submit" disabled={create.isPending || !name.trim()}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </form>
      <div className="status-slot" aria-live="polite">
        {create.isError && <ErrorState error={create.error} />}
        {create.data && (
          <div className="new-key" role="status">
            <p>
              <strong>Copy this key now.</strong> It is shown only once: Hearth stores only its fingerprint.
            </p>
            <p>
              <label htmlFor="new-key-value">Key “{create.data.name}”</label>
              <input ref={keyField} id="new-key-value" readOnly value={create.data.key} onFocus={(e) => e.target.select()} />
              <button type="button" className="secondary" onClick={() => void copyKey(create.data.key)}>
                {copy === 'copied' ? 'Copied' : 'Copy'}
              </button>
            </p>
            {copy === 'failed' && <p className="error">This browser could not copy the key. It is selected: press Ctrl+C (⌘C on a Mac) to copy it.</p>}
          </div>
        )}
      </div>
    </section>
  );
}
