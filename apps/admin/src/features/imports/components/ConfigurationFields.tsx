import { AMOUNT_TYPE_STRATEGIES, LAYOUT_DATE_FORMATS, NUMBER_FORMATS, SIGNAGE_CONVENTIONS } from '@hearth/contracts';
import type { ImportType } from '@hearth/contracts';
import { Field } from '../../../components/Field';
import type { ImportConfiguration } from '../api/useImports';

type Key = keyof ImportConfiguration;
/** The fields that name a column: text, unlike has_header and header_row. */
type ColumnKey = Extract<Key, `${string}_col_label`>;

/** The columns to map, each for the types that read it (all the CSV types when `types` is left out). */
const COLUMNS: { key: ColumnKey; label: string; types?: string[] }[] = [
  { key: 'date_col_label', label: 'Date column' },
  { key: 'amount_col_label', label: 'Amount column' },
  { key: 'name_col_label', label: 'Name column' },
  { key: 'category_col_label', label: 'Category column' },
  { key: 'tags_col_label', label: 'Tags column' },
  { key: 'notes_col_label', label: 'Notes column' },
  { key: 'account_col_label', label: 'Account column' },
  { key: 'currency_col_label', label: 'Currency column', types: ['TransactionImport', 'TradeImport', 'AccountImport'] },
  { key: 'entity_type_col_label', label: 'Account type column', types: ['AccountImport'] },
  { key: 'qty_col_label', label: 'Quantity column', types: ['TradeImport'] },
  { key: 'ticker_col_label', label: 'Ticker column', types: ['TradeImport'] },
  { key: 'price_col_label', label: 'Price column', types: ['TradeImport'] },
];

/** Types with nothing to configure. */
export const FIXED_FORMAT_TYPES = new Set(['ServiceImport', 'QifImport', 'PdfImport']);

/** Types whose columns are fixed by the exporting app, and the date format it writes unless told otherwise. */

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
  const column = (key: ColumnKey, label: string) => (
    <Field key={key} label={label}>
      {headers ? (
        <select value={value[key] ?? ''} onChange={set(key)}>
          <option value="">(none)</option>
          {headers.map((h) => (
            <option key={h} value={h}>
              {h}
            </option>
          ))}
        </select>
      ) : (
        <input value={value[key] ?? ''} onChange={set(key)} />
      )}
    </Field>
  );
  const dateFormat = (
    <Field label="Date format" hint="strftime pattern, e.g. %Y-%m-%d or %d.%m.%Y">
      <input value={value.date_format ?? ''} placeholder={LAYOUT_DATE_FORMATS[type as ImportType] ?? '%Y-%m-%d'} onChange={set('date_format')} />
    </Field>
  );
  if (LAYOUT_DATE_FORMATS[type as ImportType]) return <div className="config-grid">{dateFormat}</div>;
  const byTypeColumn = type === 'TransactionImport' && value.amount_type_strategy === 'custom_column';
  return (
    <div className="config-grid">
      {COLUMNS.filter((c) => !c.types || c.types.includes(type)).map((c) => column(c.key, c.label))}
      {type === 'TransactionImport' && (
        <Field label="Money in or out">
          <select value={value.amount_type_strategy ?? 'signed_amount'} onChange={set('amount_type_strategy')}>
            {AMOUNT_TYPE_STRATEGIES.map((s) => (
              <option key={s} value={s}>
                {s === 'signed_amount' ? "Told by the amount's sign" : 'Told by a type column'}
              </option>
            ))}
          </select>
        </Field>
      )}
      {byTypeColumn && column('entity_type_col_label', 'Type column')}
      {byTypeColumn && (
        <Field label="Type of money in" hint="the type column's value on money in, e.g. credit; any other value is money out">
          <input value={value.amount_type_inflow_value ?? ''} onChange={set('amount_type_inflow_value')} />
        </Field>
      )}
      {dateFormat}
      <Field label="Number format">
        <select value={value.number_format ?? '1,234.56'} onChange={set('number_format')}>
          {NUMBER_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </Field>
      {!byTypeColumn && (
        <Field label="Amount signs">
          <select value={value.signage_convention ?? 'inflows_positive'} onChange={set('signage_convention')}>
            {SIGNAGE_CONVENTIONS.map((s) => (
              <option key={s} value={s}>
                {s === 'inflows_positive' ? 'Money in is positive' : 'Money in is negative'}
              </option>
            ))}
          </select>
        </Field>
      )}
      <Field label="Column separator">
        <select value={value.col_sep ?? 'comma'} onChange={set('col_sep')}>
          <option value="comma">Comma (,)</option>
          <option value="semicolon">Semicolon (;)</option>
        </select>
      </Field>
    </div>
  );
}
