import { useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import Papa from 'papaparse';
import { DEFAULT_IMPORT_TYPE, IMPORT_TYPES, type ImportType } from '@hearth/contracts';
import { FILE_HEAD_BYTES, maybeSpreadsheet, wrongFileKind } from '@hearth/domain/import-formats';
import { ErrorState } from '../../../components/ErrorState';
import { Field } from '../../../components/Field';
import { useCreateImport, type ImportConfiguration } from '../api/useImports';
import { AccountField, takesAccount } from '../components/AccountField';
import { ConfigurationFields } from '../components/ConfigurationFields';
import { dateFormatChoices, DateFormatQuestion, type DateFormatChoices } from '../components/DateFormatQuestion';
import { DropZone } from '../components/DropZone';
import { fileKindOf } from '../components/fileKinds';
import { typeLabel } from '../components/importFormats';
import { FilePreview } from '../components/FilePreview';
import { readSheet, type ReadSheet } from '../components/spreadsheet';

const PREVIEW_ROWS = 5;
const PREVIEW_LINES = 10;
/** Enough of a file to preview it and guess its columns. */
const SAMPLE_BYTES = 64 * 1024;
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

/** The first rows of CSV text as the browser parses them, and the configuration its header row suggests. */
function readCsv(text: string): { rows: string[][]; guessed: ImportConfiguration } {
  const parsed = Papa.parse<string[]>(text, { preview: PREVIEW_ROWS + 1, skipEmptyLines: true });
  const headers = parsed.data[0] ?? [];
  const guessed: ImportConfiguration = { col_sep: parsed.meta.delimiter === ';' ? 'semicolon' : 'comma' };
  for (const [key, pattern] of GUESSES) {
    const match = headers.find((h) => pattern.test(h.trim()));
    if (match) guessed[key] = match;
  }
  return { rows: parsed.data, guessed };
}

/**
 * Upload: pick or drop a file (or, for text formats, paste its text), check the preview, map its columns, then send
 * it. What is asked for and how it is previewed follow the chosen type: a CSV's columns, a QIF or NDJSON file's first
 * lines, a PDF statement's name and size.
 */
export function NewImportPage() {
  const navigate = useNavigate();
  const create = useCreateImport();
  const sourceName = useId();
  const [file, setFile] = useState<File | null>(null);
  // The chosen file's first bytes, to tell a picture or spreadsheet from the type's content whichever is chosen first.
  const [head, setHead] = useState<Uint8Array | null>(null);
  const [fileText, setFileText] = useState('');
  // A spreadsheet chosen for a CSV type: its bytes, to read another of its sheets, and the sheet's table as read.
  const [workbook, setWorkbook] = useState<{ bytes: Uint8Array; sheetNames: string[]; sheet: string; read: ReadSheet } | null>(null);
  const [pasting, setPasting] = useState(false);
  const [pasted, setPasted] = useState('');
  const [type, setType] = useState<ImportType>(DEFAULT_IMPORT_TYPE);
  const [config, setConfig] = useState<ImportConfiguration>({});
  const [guessedFrom, setGuessedFrom] = useState<string | null>(null);
  const [accountId, setAccountId] = useState('');
  // The file's dates fit two formats: the question stays up, with the choices, until the file is sent with one.
  const [asked, setAsked] = useState<DateFormatChoices | null>(null);

  const kind = fileKindOf(type);
  const byPaste = kind.pasteable && pasting;
  // A CSV type reads a spreadsheet's table, as the API does; any other type is told it is a spreadsheet.
  const sheetRead = kind.format === 'csv' && workbook ? workbook.read : null;
  const problem = !byPaste && file && head ? (sheetRead ? ('problem' in sheetRead ? sheetRead.problem : null) : wrongFileKind(file.name, head, kind.format)) : null;
  const sheets = sheetRead && 'sheets' in sheetRead ? sheetRead : null;
  // A file of the wrong kind is not previewed: its bytes read as text are no columns or lines.
  const text = byPaste ? pasted : problem ? '' : (sheets?.text ?? fileText);
  const csv = useMemo(() => (kind.preview === 'columns' && text.trim() ? readCsv(text) : null), [kind.preview, text]);
  // Columns are guessed once for each header row: choosing the type after the file, or typing more pasted rows, keeps
  // the columns the user picked.
  const headerKey = csv ? JSON.stringify(csv.rows[0] ?? []) : null;
  if (csv && headerKey !== guessedFrom) {
    setGuessedFrom(headerKey);
    setConfig(csv.guessed);
  }
  const lines = kind.preview === 'lines' ? text.slice(0, SAMPLE_BYTES).split(/\r?\n/).slice(0, PREVIEW_LINES).join('\n') : '';

  const choose = async (chosen: File) => {
    const sample = await chosen.slice(0, SAMPLE_BYTES).arrayBuffer();
    setFile(chosen);
    setAsked(null);
    const head = new Uint8Array(sample.slice(0, FILE_HEAD_BYTES));
    setHead(head);
    // Read whatever the type: the user may choose the type after the file.
    setFileText(new TextDecoder().decode(sample));
    const bytes = maybeSpreadsheet(chosen.name, head) ? new Uint8Array(await chosen.arrayBuffer()) : null;
    const read = bytes && readSheet(bytes, chosen.name);
    setWorkbook(bytes && read ? { bytes, sheetNames: 'sheets' in read ? read.sheets : [], sheet: ('sheet' in read && read.sheet) || '', read } : null);
  };
  const chooseSheet = (sheet: string) => {
    if (file && workbook) setWorkbook({ ...workbook, sheet, read: readSheet(workbook.bytes, file.name, sheet) ?? workbook.read });
  };

  const send = (columns: ImportConfiguration) => {
    const account_id = takesAccount(type) ? accountId || undefined : undefined;
    // Column settings mean something only to the CSV types.
    const settings = { ...(kind.preview === 'columns' ? columns : {}), type, account_id };
    const content = byPaste ? (pasted.trim() ? { raw_file_content: pasted } : null) : file && !problem ? { file, ...(sheets?.sheet ? { sheet: sheets.sheet } : {}) } : null;
    if (!content) return;
    create.mutate({ ...settings, ...content }, { onSuccess: ({ data }) => void navigate(`/imports/${data.id}`), onError: (error) => setAsked(dateFormatChoices(error)) });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(config);
  };
  // The answer is the import's date format, shown in its field too: the file is sent again with it.
  const answer = (date_format: string) => {
    setConfig({ ...config, date_format });
    send({ ...config, date_format });
  };

  return (
    <section className="page">
      <p>
        <Link to="/imports">← All imports</Link>
      </p>
      <h1 tabIndex={-1}>New import</h1>
      <form onSubmit={submit} className="stack">
        <Field label="Import type">
          <select value={type} onChange={(e) => setType(e.target.value as ImportType)}>
            {IMPORT_TYPES.map((t) => (
              <option key={t} value={t}>
                {typeLabel(t)}
              </option>
            ))}
          </select>
        </Field>
        {takesAccount(type) && <AccountField type={type} value={accountId} onChange={setAccountId} />}
        {kind.pasteable && (
          <fieldset className="source-choice">
            <legend>Content</legend>
            <label>
              <input type="radio" name={sourceName} checked={!pasting} onChange={() => setPasting(false)} /> Upload a file
            </label>
            <label>
              <input type="radio" name={sourceName} checked={pasting} onChange={() => setPasting(true)} /> Paste text
            </label>
          </fieldset>
        )}
        {byPaste ? (
          <Field label="Text to import" hint={`The text of ${kind.noun}, as the exporting app wrote it`}>
            <textarea rows={8} value={pasted} spellCheck={false} onChange={(e) => setPasted(e.target.value)} />
          </Field>
        ) : (
          <DropZone file={file} onFile={(f) => void choose(f)} noun={kind.noun} accept={kind.accept} problem={problem} />
        )}
        {!byPaste && kind.format === 'csv' && workbook && workbook.sheetNames.length > 1 && (
          <Field label="Sheet" hint="The workbook's sheet to import">
            <select value={workbook.sheet} onChange={(e) => chooseSheet(e.target.value)}>
              {workbook.sheetNames.map((name) => (
                <option key={name}>{name}</option>
              ))}
            </select>
          </Field>
        )}
        {csv && csv.rows.length > 0 && (
          <section className="card" aria-labelledby="columns-title">
            <h2 id="columns-title">Columns</h2>
            <FilePreview rows={csv.rows} />
            <ConfigurationFields type={type} headers={csv.rows[0] ?? null} value={config} onChange={setConfig} />
          </section>
        )}
        {lines.trim() && (
          <section className="card" aria-labelledby="lines-title">
            <h2 id="lines-title">First lines</h2>
            <pre className="file-lines">{lines}</pre>
            <ConfigurationFields type={type} headers={null} value={config} onChange={setConfig} />
          </section>
        )}
        {kind.preview === 'none' && file && !problem && <p className="muted">The statement is read when it is uploaded: its rows show on the next page, to check before publishing.</p>}
        <div className="status-slot">
          {asked ? (
            <DateFormatQuestion key={[asked.sample, ...asked.formats].join()} choices={asked} pending={create.isPending} onChoose={answer} />
          ) : (
            create.isError && <ErrorState error={create.error} />
          )}
        </div>
        <button type="submit" disabled={!(byPaste ? pasted.trim() : file && !problem) || create.isPending}>
          {create.isPending ? 'Uploading…' : 'Upload'}
        </button>
      </form>
    </section>
  );
}
