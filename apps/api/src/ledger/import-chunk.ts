/**
 * Picks a chunk's rows from import_rows (alias r), with $1-$4 the import, the chunk's bounds (after, through] by
 * source row number and, for statements (QIF, PDF), the row kind or NULL for every row. Shared by the statements
 * that publish a chunk straight from its rows and the read of a chunk's rows into Node.
 */
export const IN_CHUNK = `r.import_id = $1 AND r.source_row_number > $2 AND r.source_row_number <= $3 AND ($4::text IS NULL OR r."values"->>'row_kind' = $4)`;
