import type { ReactNode } from 'react';

/** A table of records: one heading a column (`columns`), then `children`, its rows. */
export function Table({ className, columns, children }: { className: string; columns: string[]; children: ReactNode }) {
  return (
    <table className={className}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
