/** The family's ($1) records of `table` with the given names ($2), the oldest of each name: (id, name). */
export const NAMED = (table: 'accounts' | 'categories' | 'tags') =>
  `SELECT DISTINCT ON (name) id, name FROM ${table} WHERE family_id = $1 AND name = ANY($2::text[]) ORDER BY name, created_at`;
