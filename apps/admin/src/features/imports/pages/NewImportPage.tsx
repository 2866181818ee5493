import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import Papa from 'papaparse';
import { IMPORT_TYPES } from '@hearth/contracts';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { useCreateImport, type ImportConfiguration } from '../api/useImports';
import { AccountField, takesAccount } from '../components/AccountField';
import { ConfigurationFields } from '../components/ConfigurationFields';
import { DropZone } from '../components/DropZone';
import { FilePreview } from '../components/FilePreview';

const PREVIEW_ROWS = 5;
type ColumnKey = 'date_col_label' | 'amount_col_label' | 'name_col_label' | 'category_col_label' | 'tags_col_label' | 'notes_col_label' | 'account_col_label';
const GUESSES: [ColumnKey, RegExp][] = [
  ['date_col_label', /^(date|datum|posted|transaction date)$/i],
  ['amount_col_label', /^(amount|betrag|value|sum)$/i],
  ['name_col_label', /^(name|description|payee|merchant)$/i],
  ['category_col_label', /^(category|kategorie)$/i],
  ['tags_col_label', /^(tags?)$/i],
  ['notes_col_label', /^(notes?|memo)$/i],
  ['account_col_label', /^(account|konto)$/i],
];

/** Upload: pick or drop a file, check the preview, map its columns, then send it. */
export function NewImportPage() {
  const navigate = useNavigate();
  const create = useCreateImport();
  const [file, setFile] = useState<File | null>(null);
  const [type, setType] = useState('TransactionImport');
  const [preview, setPreview] = useState<string[][]>([]);
  const [config, setConfig] = useState<ImportConfiguration>({});
  const [accountId, setAccountId] = useState('');

  const choose = async (chosen: File) => {
    setFile(chosen);
    const text = await chosen.slice(0, 64 * 1024).text();
    const parsed = Papa.parse<string[]>(text, { preview: PREVIEW_ROWS + 1, skipEmptyLines: true });
    const rows = parsed.data;
    setPreview(rows);
    const headers = rows[0] ?? [];
    const guessed: ImportConfiguration = { col_sep: parsed.meta.delimiter === ';' ? 'semicolon' : 'comma' };
    for (const [key, pattern] of GUESSES) {
      const match = headers.find((h) => pattern.test(h.trim()));
      if (match) guessed[key] = match;
    }
    setConfig(guessed);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const account_id = takesAccount(type) ? accountId || undefined : undefined;
    if (file) create.mutate({ ...config, type, file, account_id }, { onSuccess: ({ data }) => void navigate(`/imports/${data.id}`) });
  };

  return (
    <section className="page">
      <p>
        <Link to="/imports">← All imports</Link>
      </p>
      <h1 tabIndex={-1}>New import</h1>
      <form onSubmit={submit} className="stack">
        <Field label="Import type">
          <select value={type} onChange={(e) => setType(e.target.value)}>
            {IMPORT_TYPES.filter((t) => t !== 'PdfImport').map((t) => (
              <option key={t} value={t}>
                {t.replace(/Import$/, '')}
              </option>
            ))}
          </select>
        </Field>
        {takesAccount(type) && <AccountField type={type} value={accountId} onChange={setAccountId} />}
        <DropZone file={file} onFile={(f) => void choose(f)} accept=".csv,.txt,.ndjson,.json,.qif,text/csv" />
        {preview.length > 0 && (
          <section className="card" aria-labelledby="columns-title">
            <h2 id="columns-title">Columns</h2>
            <FilePreview rows={preview} />
            <ConfigurationFields type={type} headers={preview[0] ?? null} value={config} onChange={setConfig} />
          </section>
        )}
        <div className="status-slot">{create.isError && <ErrorState error={create.error} />}</div>
        <button type="submit" disabled={!file || create.isPending}>
          {create.isPending ? 'Uploading…' : 'Upload'}
        </button>
      </form>
    </section>
  );
}
