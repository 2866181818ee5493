import 'reflect-metadata';
import { IMPORT_CONFIGURATION_FIELDS } from '@hearth/contracts';
import { configurationChanges, presentConfiguration } from './import-configuration';
import { ConfigurationDto, ImportConfigurationInput } from './import.dto';
import { Import } from './import.entity';

/** The properties a DTO class documents for openapi.json (and so validates and shows), in their order. */
const documented = (dto: { prototype: object }): string[] =>
  (Reflect.getMetadata('swagger/apiModelPropertiesArray', dto.prototype) as string[]).map((p) => p.replace(/^:/, ''));

describe('import configuration', () => {
  it('is the contracts list of fields in the request and, in its order, in the response', () => {
    expect(documented(ConfigurationDto)).toEqual([...IMPORT_CONFIGURATION_FIELDS]);
    expect(documented(ImportConfigurationInput).sort()).toEqual([...IMPORT_CONFIGURATION_FIELDS].sort());
  });

  it('sets the fields given, the separator by its character, and leaves out the others', () => {
    expect(configurationChanges({ date_col_label: 'Booked', col_sep: 'semicolon', header_row: null, has_header: false })).toEqual({
      dateColLabel: 'Booked',
      colSep: ';',
      headerRow: null,
      hasHeader: false,
    });
  });

  it('shows every field, the separator by name and an unknown header as detected', () => {
    const imp = Object.assign(new Import(), { dateColLabel: 'Booked', colSep: ';', numberFormat: '1.234,56', exchangeOperatingMicColLabel: null });
    const shown = presentConfiguration(imp);
    expect(Object.keys(shown)).toEqual([...IMPORT_CONFIGURATION_FIELDS]);
    expect(shown).toMatchObject({ date_col_label: 'Booked', col_sep: 'semicolon', number_format: '1.234,56', header_row: null, has_header: true });
  });
});
