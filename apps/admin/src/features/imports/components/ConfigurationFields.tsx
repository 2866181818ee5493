import { NUMBER_FORMATS, SIGNAGE_CONVENTIONS } from '@hearth/contracts';
import { Field } from '../../../components/Field';
import type { ImportConfiguration } from '../api/useImports';

type Key = keyof ImportConfiguration;

const COLUMNS: { key: Key; label: string; trades?: boolean }[] = [
  { key: 'date_col_label', label: 'Date column' },
  { key: 'amount_col_label', label: 'Amount column' },
  { key: 'name_col_label', label: 'Name column' },
  { key: 'category_col_label', label: 'Category column' },
  { key: 'tags_col_label', label: 'Tags column' },
  { key: 'notes_col_label', label: 'Notes column' },
  { key: 'account_col_label', label: 'Account column' },
  { key: 'qty_col_label', label: 'Quantity column', trades: true },
  { key: 'ticker_col_label', label: 'Ticker column', trades: true },
  { key: 'price_col_label', label: 'Price column', trades: true },
];

/** Types whose column names are fixed by the exporting app: nothing to map. */
export const FIXED_FORMAT_TYPES = new Set(['MintImport', 'ActualImport', 'YnabImport', 'ServiceImport', 'QifImport', 'PdfImport']);

/** Column pickers (a select when the file's headers are known) and the parsing options. */
export function ConfigurationFields({
  type,
  headers,
  value,
  onChange,
}: {
  type: string;
  headers: string[] | null;
  value: ImportConfiguration;
  onChange: (next: ImportConfiguration) => void;
}) {
  const set = (key: Key) => (e: { target: { value: string } }) => onChange({ ...value, [key]: e.target.value || undefined });
  if (FIXED_FORMAT_TYPES.has(type)) return <p className="muted">This file type has fixed columns: nothing to configure.</p>;
  return (
    <div className="config-grid">
      {COLUMNS.filter((c) => !c.trades || type === 'TradeImport').map((column) => (
        <Field key={column.key} label={column.label}>
          {headers ? (
            <select value={value[column.key] ?? ''} onChange={set(column.key)}>
              <option value="">(none)</option>
              {headers.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
          ) : (
            <input value={value[column.key] ?? ''} onChange={set(column.key)} />
          )}
        </Field>
      ))}
      <Field label="Date format" hint="strftime pattern, e.g. %Y-%m-%d or %d.%m.%Y">
        <input value={value.date_format ?? ''} placeholder="%Y-%m-%d" onChange={set('date_format')} />
      </Field>
      <Field label="Number format">
        <select value={value.number_format ?? '1,234.56'} onChange={set('number_format')}>
          {NUMBER_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Amount signs">
        <select value={value.signage_convention ?? 'inflows_positive'} onChange={set('signage_convention')}>
          {SIGNAGE_CONVENTIONS.map((s) => (
            <option key={s} value={s}>
              {s === 'inflows_positive' ? 'Money in is positive' : 'Money in is negative'}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Column separator">
        <select value={value.col_sep ?? 'comma'} onChange={set('col_sep')}>
          <option value="comma">Comma (,)</option>
          <option value="semicolon">Semicolon (;)</option>
        </select>
      </Field>
    </div>
  );
}
