import { ApiError, errorMessage } from './client';

/** Problems of one submit: a message per form field, and what belongs to no field. */
export interface FormProblems<K extends string> {
  fields: Partial<Record<K, string>>;
  form: string | null;
  error?: unknown;
}

/**
 * Sorts an API refusal onto form fields. `fields` maps each field to the API property it is sent as (and the label a
 * validation message should name instead); `codes` maps error codes (invalid_current_password) to a field.
 */
export function problemsOf<K extends string>(
  error: unknown,
  fields: Partial<Record<K, { property: string; label: string }>>,
  codes: Partial<Record<string, K>> = {},
): FormProblems<K> {
  const problems: FormProblems<K> = { fields: {}, form: null, error };
  if (!(error instanceof ApiError)) return { ...problems, form: errorMessage(error) };
  const byCode = codes[error.code];
  if (byCode) return { ...problems, fields: { [byCode]: error.message } as Partial<Record<K, string>> };
  if (error.code !== 'validation_failed') return { ...problems, form: errorMessage(error) };
  const rest: string[] = [];
  for (const detail of error.details.length ? error.details : [error.message]) {
    // class-validator messages start with the property: "password must be longer than or equal to 8 characters".
    const key = (Object.keys(fields) as K[]).find((k) => detail.startsWith(`${fields[k]!.property} `));
    if (key) problems.fields[key] ??= `${fields[key]!.label}${detail.slice(fields[key]!.property.length)}.`;
    else rest.push(detail);
  }
  return { ...problems, form: rest.length ? rest.join(' ') : null };
}
