/** A schema object of an OpenAPI 3.0 document, as far as the tests read it. */
export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minimum?: number;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: Schema }> }> }>>;
  components: { schemas: Record<string, Schema> };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Where `value` departs from `schema`, one line per problem ([] when it matches). Stricter than OpenAPI on one point:
 * a property the schema does not list is reported unless additionalProperties allows it, since an undocumented field
 * in an answer is a gap in the document.
 */
export function schemaErrors(doc: OpenApiDocument, schema: Schema | undefined, value: unknown, path = '$'): string[] {
  if (!schema) return [`${path}: no schema documented`];
  if (schema.$ref) return schemaErrors(doc, doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')], value, path);
  if (value === null) return schema.nullable ? [] : [`${path}: null, but not nullable`];
  if (schema.allOf) return schema.allOf.flatMap((part) => schemaErrors(doc, part, value, path));
  if (schema.oneOf) {
    const matches = schema.oneOf.filter((option) => schemaErrors(doc, option, value, path).length === 0).length;
    return matches === 1 ? [] : [`${path}: matches ${matches} of the oneOf schemas, not exactly one`];
  }
  if (schema.enum && !schema.enum.includes(value)) return [`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`];
      const record = value as Record<string, unknown>;
      const errors = (schema.required ?? []).filter((key) => !(key in record)).map((key) => `${path}.${key}: required, missing`);
      for (const [key, item] of Object.entries(record)) {
        const property = schema.properties?.[key];
        if (property) errors.push(...schemaErrors(doc, property, item, `${path}.${key}`));
        else if (typeof schema.additionalProperties === 'object') errors.push(...schemaErrors(doc, schema.additionalProperties, item, `${path}.${key}`));
        else if (!schema.additionalProperties) errors.push(`${path}.${key}: not documented`);
      }
      return errors;
    }
    case 'array':
      if (!Array.isArray(value)) return [`${path}: not an array`];
      return schema.items ? value.flatMap((item, i) => schemaErrors(doc, schema.items, item, `${path}[${i}]`)) : [];
    case 'string':
      if (typeof value !== 'string') return [`${path}: not a string`];
      if (schema.format === 'uuid' && !UUID.test(value)) return [`${path}: '${value}' is not a uuid`];
      if (schema.format === 'date-time' && !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))) return [`${path}: '${value}' is not a date-time`];
      return [];
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || (type === 'integer' && !Number.isInteger(value))) return [`${path}: ${JSON.stringify(value)} is not ${type === 'integer' ? 'an integer' : 'a number'}`];
      return schema.minimum !== undefined && value < schema.minimum ? [`${path}: ${value} is below ${schema.minimum}`] : [];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${path}: not a boolean`];
    default:
      return [];
  }
}
