import type { ReactNode } from 'react';

/**
 * A table of records: a caption (for screen readers only unless `showCaption`), a header row of `columns`, and with
 * `actions` a last column (unlabelled on screen) for each row's buttons. The rows are the children.
 */
export function DataTable({
  caption,
  columns,
  actions = false,
  showCaption = false,
  children,
}: {
  caption: string;
  columns: string[];
  actions?: boolean;
  showCaption?: boolean;
  children: ReactNode;
}) {
  return (
    <table>
      <caption className={showCaption ? undefined : 'visually-hidden'}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((column, i) => (
            <th key={i} scope="col">
              {column}
            </th>
          ))}
          {actions && (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
