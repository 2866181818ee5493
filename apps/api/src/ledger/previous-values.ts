/**
 * import_rows.previous of a row that changed an existing record (a duplicate, an opening balance, a rule of the same
 * name): {column: [before, after]} for each column, which revert puts back unless the record changed since. SQL
 * for the columns of `before` (the record as it was) and `after` (as the row left it).
 */
export const previousValues = (columns: string[], before: string, after: string): string =>
  `jsonb_build_object(${columns.map((c) => `'${c}', jsonb_build_array(${before}.${c}, ${after}.${c})`).join(', ')})`;
