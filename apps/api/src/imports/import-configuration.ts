import { COLUMN_SEPARATORS, type ColumnSeparatorName, IMPORT_CONFIGURATION_FIELDS, type ImportConfigurationField } from '@hearth/contracts';
import type { ConfigurationDto, ImportConfigurationInput } from './import.dto';
import type { Import } from './import.entity';

// The import's configuration between the API's fields (snake_case, IMPORT_CONFIGURATION_FIELDS) and the entity's
// properties, which are the same names in camelCase. Only the fields stored in another form are converted.

type Stored = Import[keyof Import];

/** The entity property that stores a configuration field: its name in camelCase. */
const propertyOf = (field: ImportConfigurationField) => field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof Import;

/** Fields stored (`stored`) or shown (`shown`) in another form than the API takes them; the others are kept as given. */
const CONVERTED: Partial<Record<ImportConfigurationField, { stored?(given: unknown): Stored; shown?(stored: Stored): unknown }>> = {
  col_sep: {
    stored: (name) => (name ? COLUMN_SEPARATORS[name as ColumnSeparatorName] : undefined),
    shown: (separator) => (separator === COLUMN_SEPARATORS.semicolon ? 'semicolon' : 'comma'),
  },
  header_row: { shown: (row) => row ?? null },
  has_header: { shown: (has) => has !== false },
};

/** The entity properties a create or PATCH sets: the fields it gives (undefined: not given, kept as they are). */
export function configurationChanges(input: ImportConfigurationInput): Partial<Import> {
  const changes = IMPORT_CONFIGURATION_FIELDS.map((field) => {
    const given = input[field];
    const stored = CONVERTED[field]?.stored;
    return [propertyOf(field), stored ? stored(given) : given] as const;
  });
  return Object.fromEntries(changes.filter(([, value]) => value !== undefined)) as Partial<Import>;
}

/** The import's configuration as the API shows it. */
export function presentConfiguration(imp: Import): ConfigurationDto {
  const shown = IMPORT_CONFIGURATION_FIELDS.map((field) => {
    const stored = imp[propertyOf(field)];
    const shown = CONVERTED[field]?.shown;
    return [field, shown ? shown(stored) : stored] as const;
  });
  return Object.fromEntries(shown) as unknown as ConfigurationDto;
}
