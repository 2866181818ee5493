import { formatDate } from '../../../lib/format';
import type { ImportDetail } from '../api/useImports';
import { takesAccount } from './AccountField';

/** What an import was made from: its file's name, or "Pasted text" for text sent as raw_file_content. */
export const importSource = (detail: Pick<ImportDetail, 'file_name'>) => detail.file_name ?? 'Pasted text';

/** The span of the import's row dates ("Jan 31, 2024 – Mar 5, 2024"), one date when they are the same, — when none. */
export function rowDates({ first_row_date: first, last_row_date: last }: Pick<ImportDetail, 'first_row_date' | 'last_row_date'>): string {
  if (!first || !last) return '—';
  return first === last ? formatDate(first) : `${formatDate(first)} – ${formatDate(last)}`;
}

/** The account the rows go into; for a file whose rows name theirs, says so. */
export function accountLabel(detail: Pick<ImportDetail, 'type' | 'account_id' | 'account_name'>): string {
  if (detail.account_name) return detail.account_name;
  if (detail.account_id) return 'A deleted account';
  return takesAccount(detail.type) ? 'Named in the file' : '—';
}
