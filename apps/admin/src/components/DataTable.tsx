import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useScrollsSideways } from './useScrollsSideways';

/**
 * A table of records: a caption (for screen readers only unless `showCaption`), a header row of `columns`, and with
 * `actions` a last column (unlabelled on screen) for each row's buttons. The rows are the children.
 *
 * A table wider than its place scrolls sideways inside its own box, never the page: the box then says so, and takes
 * keyboard focus so arrow keys scroll it. With `cardsOnPhone`, at phone width (styles.css) each row is shown as a card
 * instead, each cell labelled with its column's name.
 */
export function DataTable({
  caption,
  columns,
  actions = false,
  showCaption = false,
  cardsOnPhone = false,
  children,
}: {
  caption: string;
  columns: string[];
  actions?: boolean;
  showCaption?: boolean;
  cardsOnPhone?: boolean;
  children: ReactNode;
}) {
  const captionId = useId();
  const [box, scrolls] = useScrollsSideways<HTMLDivElement>();
  const table = useRef<HTMLTableElement>(null);

  // The card layout shows each cell's column name from its data-label. The rows come from the caller, so the cells
  // are labelled once they are in the document, after every render (a render is what adds or changes rows).
  useLayoutEffect(() => {
    if (!cardsOnPhone || !table.current) return;
    for (const row of table.current.tBodies[0]?.rows ?? []) {
      let column = 0;
      for (const cell of row.cells) {
        const name = columns[column];
        if (name) cell.dataset.label = name;
        else delete cell.dataset.label;
        column += cell.colSpan;
      }
    }
  });

  return (
    <>
      {scrolls && (
        <p className="scroll-hint" aria-hidden="true">
          Scroll sideways to see every column →
        </p>
      )}
      <div ref={box} className="table-scroll" {...(scrolls ? { role: 'region', 'aria-labelledby': captionId, tabIndex: 0 } : {})}>
        <table ref={table} className={cardsOnPhone ? 'cards' : undefined}>
          <caption id={captionId} className={showCaption ? undefined : 'visually-hidden'}>
            {caption}
          </caption>
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
      </div>
    </>
  );
}
