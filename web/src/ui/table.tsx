// A data table that scrolls sideways on a phone instead of squeezing its columns.

import type { ComponentChildren } from 'preact';

export interface Column<T> {
  title: string;
  cell: (row: T) => ComponentChildren;
  /** Numbers align right so digits line up. */
  numeric?: boolean;
}

export function Table<T>({
  columns,
  rows,
  rowKey,
  caption,
  footer,
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  caption?: string;
  footer?: ComponentChildren;
}) {
  return (
    <div class="table-scroll">
      <table class="striped">
        {caption && <caption>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" class={column.numeric ? 'num' : undefined}>
                {column.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-row={rowKey(row)}>
              {columns.map((column) => (
                <td class={column.numeric ? 'num' : undefined}>{column.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
        {footer && <tfoot>{footer}</tfoot>}
      </table>
    </div>
  );
}
