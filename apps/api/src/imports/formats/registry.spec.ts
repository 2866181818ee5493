import { IMPORT_CONFIGURATION_FIELDS, IMPORT_FORMAT_FACTS, IMPORT_TYPES } from '@hearth/contracts';
import { csvDialectOf } from '@hearth/domain/import-formats';
import { importFormat } from './registry';

describe('the import formats registry', () => {
  it.each(IMPORT_TYPES)('has %s as the entry of its own type, with its contracts facts', (type) => {
    const format = importFormat(type);
    expect(format.type).toBe(type);
    expect(format.facts).toBe(IMPORT_FORMAT_FACTS[type]);
  });

  it.each(IMPORT_TYPES)('reads %s as a CSV dialect exactly when its content is CSV', (type) => {
    const csv = importFormat(type).facts.accepts[0].kind === 'csv';
    expect(csvDialectOf(type) !== undefined).toBe(csv);
  });

  it.each(IMPORT_TYPES)('gives %s only configuration fields the API takes, each once', (type) => {
    const { fields } = importFormat(type).facts;
    expect(fields.filter((f) => !IMPORT_CONFIGURATION_FIELDS.includes(f))).toEqual([]);
    expect(new Set(fields).size).toBe(fields.length);
  });

  it.each(IMPORT_TYPES)('keeps %s consistent: bytes content has bytes hooks, rows named by account column map accounts', (type) => {
    const format = importFormat(type);
    expect(format.facts.accepts.some((c) => c.decoder === 'bytes')).toBe(format.bytes !== undefined);
    expect(format.facts.account === 'column').toBe(format.mappings.includes('account'));
  });
});
