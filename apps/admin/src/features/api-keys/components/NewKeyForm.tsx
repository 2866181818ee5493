import { useState, type FormEvent } from 'react';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { useCreateApiKey, type CreateApiKey } from '../api/useApiKeys';

/** Creates a key and shows it once, with a copy button. */
export function NewKeyForm() {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<CreateApiKey['scope']>('read');
  const [copied, setCopied] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCopied(false);
    create.mutate({ name: name.trim(), scope }, { onSuccess: () => setName('') });
  };
  const copy = async (key: string) => {
    await navigator.clipboard.writeText(key).catch(() => undefined);
    setCopied(true);
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
              <input id="new-key-value" readOnly value={create.data.key} onFocus={(e) => e.target.select()} />
              <button type="button" className="secondary" onClick={() => void copy(create.data.key)}>
                {copied ? 'Copied' : 'Copy'}
              </button>
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
