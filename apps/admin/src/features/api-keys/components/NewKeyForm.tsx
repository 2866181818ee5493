import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { useCreateApiKey, type CreateApiKey } from '../api/useApiKeys';

/** Creates a key and shows it once, with a copy button. */
export function NewKeyForm() {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<CreateApiKey['scope']>('read');
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
    create.mutate({ name: name.trim(), scope }, { onSuccess: () => setName('') });
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
