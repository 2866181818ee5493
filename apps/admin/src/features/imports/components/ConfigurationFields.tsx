import { AMOUNT_TYPE_STRATEGIES, NUMBER_FORMATS, SIGNAGE_CONVENTIONS } from '@hearth/contracts';
import { DETECTED_DATE_FORMATS, humanDateFormat } from '@hearth/domain/import-formats';
import { Field } from '../../../components/Field';
import type { ImportConfiguration } from '../api/useImports';
import { formatFacts, hasFixedFormat } from './importFormats';

type Key = keyof ImportConfiguration;
/** The fields that name a column: text, unlike has_header and header_row. */
type ColumnKey = Extract<Key, `${string}_col_label`>;

/** The columns to map, each shown for the types that read it (the contracts' fields). */
const COLUMNS: { key: ColumnKey; label: string }[] = [
  { key: 'date_col_label', label: 'Date column' },
  { key: 'amount_col_label', label: 'Amount column' },
  { key: 'outflow_col_label', label: 'Money out column' },
  { key: 'inflow_col_label', label: 'Money in column' },
  { key: 'name_col_label', label: 'Name column' },
  { key: 'category_col_label', label: 'Category column' },
  { key: 'tags_col_label', label: 'Tags column' },
  { key: 'notes_col_label', label: 'Notes column' },
  { key: 'account_col_label', label: 'Account column' },
  { key: 'currency_col_label', label: 'Currency column' },
  { key: 'entity_type_col_label', label: 'Account type column' },
  { key: 'qty_col_label', label: 'Quantity column' },
  { key: 'ticker_col_label', label: 'Ticker column' },
  { key: 'price_col_label', label: 'Price column' },
];

/** What the date format field holds (a known format as people write it) and what an empty one means. */
function dateFormatHint(format: string | null | undefined, layoutDateFormat: string | undefined): string {
  const empty = layoutDateFormat ? `the app's ${layoutDateFormat}` : "it is told from the file's dates";
  const known = format && (DETECTED_DATE_FORMATS as readonly string[]).includes(format);
  return known ? `${format} reads dates as ${humanDateFormat(format)}; left empty, ${empty}` : `e.g. %Y-%m-%d, %d.%m.%Y or dd/mm/yyyy; left empty, ${empty}`;
}

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
  const facts = formatFacts(type);
  if (hasFixedFormat(type)) return <p className="muted">This file type has fixed columns: nothing to configure.</p>;
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
    <Field label="Date format" hint={dateFormatHint(value.date_format, facts.layoutDateFormat)}>
      <input value={value.date_format ?? ''} placeholder={facts.layoutDateFormat ?? 'told from the dates'} onChange={set('date_format')} />
    </Field>
  );
  // An app's export: its columns are fixed, its date format only a default.
  if (facts.layoutDateFormat) return <div className="config-grid">{dateFormat}</div>;
  // A type column can tell money in from money out: the amount's sign then says nothing, and the column is asked for below.
  const typeColumnSigns = facts.fields.includes('amount_type_strategy');
  const byTypeColumn = typeColumnSigns && value.amount_type_strategy === 'custom_column';
  const columns = COLUMNS.filter((c) => facts.fields.includes(c.key) && !(typeColumnSigns && c.key === 'entity_type_col_label'));
  return (
    <div className="config-grid">
      {columns.map((c) => column(c.key, c.label))}
      {typeColumnSigns && (
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
